// @ts-check
/* The public API, as any client calls it (openapi.yaml): one call never throws; a 429 or a 503
 * is asked again after the pause the server names, and the header says meanwhile what the page
 * waits for. Links to the page's views carry tokens in the URL fragment only. */

import {notePace} from './dom.js';
import {asksAgain, pauseMs, pauseWords} from './pace.js';

/** @typedef {import('./api.d.ts').components['schemas']} Schemas */
/** An answer: the body the endpoint documents when ok, else its error (null or text when the
 * answer was not JSON; code `network` when the server could not be reached).
 * @template T @typedef {{status: number, ok: true, body: T} | {status: number, ok: false, body: Problem | string | null}} Answer */
/** @typedef {Omit<Partial<Schemas['Error']>, 'code'> & {code?: Schemas['Error']['code'] | 'network'}} Problem */

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
let waitedFor = 0;

function newKey() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** One call of the public API; never throws. A command keeps its Idempotency-Key when asked
 * again, so it is never played twice. The type of the body is the caller's: the one the spec
 * gives the endpoint it calls.
 * @template T
 * @param {string} method @param {string} path
 * @param {{token?: string | null, body?: unknown, idempotent?: boolean}} [options]
 * @returns {Promise<Answer<T>>} */
export async function call(method, path, {token = null, body = undefined, idempotent = false} = {}) {
  /** @type {Record<string, string>} */
  const headers = {Accept: 'application/json, image/svg+xml;q=0.9'}; // the board is SVG
  if (token) headers.Authorization = `Bearer ${token}`;
  let payload;
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  if (idempotent) headers['Idempotency-Key'] = newKey();
  for (let attempt = 0; ; attempt += 1) {
    let response;
    try {
      response = await fetch(path, {method, headers, body: payload, cache: 'no-store'});
    } catch (error) {
      notePace('server', null);
      const why = error instanceof Error ? error.message : String(error);
      return {status: 0, ok: false, body: {code: 'network', message: `the server cannot be reached (${why})`}};
    }
    if (asksAgain(response.status, attempt)) {
      const ms = pauseMs(response.headers.get('Retry-After'), attempt);
      waitedFor += 1;
      document.body.dataset.waitedFor = String(waitedFor);
      notePace('server', pauseWords(response.status, ms));
      await response.text().catch(() => null);
      await sleep(ms);
      continue;
    }
    notePace('server', null);
    const type = response.headers.get('Content-Type') || '';
    const data = type.includes('json') ? await response.json().catch(() => null) : await response.text();
    return response.ok
      ? {status: response.status, ok: true, body: data}
      : {status: response.status, ok: false, body: data};
  }
}

/** @type {Map<string, Schemas['RulesetDetail']>} */
const rulesetCache = new Map();
/** What the page knows of a ruleset: its names, commands, board… (asked once per page).
 * @param {string} name @returns {Promise<Schemas['RulesetDetail']>} */
export async function rulesetInfo(name) {
  const known = rulesetCache.get(name);
  if (known) return known;
  /** @type {Answer<Schemas['RulesetDetail']>} */
  const r = await call('GET', `/rulesets/${encodeURIComponent(name)}`);
  /** @type {Schemas['RulesetDetail']} */
  const none = {
    name,
    title: name,
    player_counts: [],
    options: [],
    revision: 0,
    revisions: [],
    commands: [],
    names: {},
    cards: {},
    view_words: {},
    board: false,
    event_types: [],
  };
  const info = r.ok ? r.body : none;
  rulesetCache.set(name, info);
  return info;
}

/** The page's fragment, read. */
export function params() {
  return new URLSearchParams(location.hash.replace(/^#/, ''));
}

/** A fragment of the page (`#game=…&token=…`), leaving out what is null.
 * @param {Record<string, string | number | null | undefined>} values */
export function fragment(values) {
  const p = new URLSearchParams();
  for (const [key, value] of Object.entries(values))
    if (value !== null && value !== undefined) p.set(key, String(value));
  return `#${p.toString()}`;
}

/** @param {string} hash */
export function absolute(hash) {
  return `${location.origin}/${hash}`;
}

/** @param {string} gameId @param {string | null} token */
export function tableLink(gameId, token) {
  return `/${fragment({game: gameId, token})}`;
}
