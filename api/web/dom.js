// @ts-check
/* Small helpers for the page: finding and making nodes, the header's notes, an API error for
 * people, the view as a list of words. */

import {citation, nameOf, SEAT_COLOURS, viewLabel, viewValue, viewWord} from './words.js';

/** @typedef {import('./api.d.ts').components['schemas']} Schemas */
/** @typedef {import('./client.js').Answer<unknown>} AnyAnswer */
/** @typedef {Node | string | number | null | undefined | false} Leaf */
/** A child for `el`: a node or text, or a list of them (left out: null, undefined, false).
 * @typedef {Leaf | Leaf[] | (Leaf | Leaf[])[] | (Leaf | Leaf[] | (Leaf | Leaf[])[])[]} Kid */
/** @typedef {Record<string, unknown> & {on?: Record<string, (event: any) => void>, dataset?: Record<string, string>, text?: string}} Attrs */

/** The first node the selector finds, or null. @param {string} selector @param {ParentNode} [root] */
export function $(selector, root = document) {
  return /** @type {HTMLElement | null} */ (root.querySelector(selector));
}

/** The node the page drew for `selector`: it is there, or the page is broken (which it says).
 * @param {string} selector @param {ParentNode} [root] */
export function need(selector, root = document) {
  const node = $(selector, root);
  if (!node) throw new Error(`the page lost its ${selector}`);
  return node;
}

/** @param {string} selector @param {ParentNode} [root] @returns {HTMLElement[]} */
export function $$(selector, root = document) {
  return Array.from(root.querySelectorAll(selector));
}

/** The page's own form field, by id. @param {string} id */
export function input(id) {
  return /** @type {HTMLInputElement | null} */ (document.getElementById(id));
}

export const main = () => need('#main');

/** A new element: attributes (`on` for listeners, `dataset`, `text`), then children (arrays
 * flattened; null, undefined and false left out).
 * @template {keyof HTMLElementTagNameMap} K @param {K} tag @param {Attrs | null} [attrs] @param {Kid[]} kids
 * @returns {HTMLElementTagNameMap[K]} */
export function el(tag, attrs, ...kids) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'on') {
      for (const [name, handler] of Object.entries(/** @type {Record<string, EventListener>} */ (value))) {
        node.addEventListener(name, handler);
      }
    } else if (key === 'dataset') {
      Object.assign(node.dataset, value);
    } else if (key === 'text') {
      node.textContent = String(value);
    } else {
      node.setAttribute(key, value === true ? '' : String(value));
    }
  }
  for (const kid of kids.flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false) continue;
    node.append(kid instanceof Node ? kid : String(kid));
  }
  return node;
}

/** Replace a node's children: arrays flattened, null, undefined and false left out.
 * @param {Element} node @param {Kid[]} kids */
export function fill(node, ...kids) {
  /** @type {(Node | string)[]} */
  const kept = [];
  for (const kid of kids.flat(Infinity)) {
    if (kid !== null && kid !== undefined && kid !== false) kept.push(kid instanceof Node ? kid : String(kid));
  }
  node.replaceChildren(...kept);
}

/** A rule id in code type, free to wrap after each dot (`<wbr>`; its text is the id's).
 * @param {string} id @param {Attrs} [attrs] */
export function ruleCode(id, attrs) {
  const parts = String(id).split('.');
  return el(
    'code',
    attrs,
    parts.map((part, i) => (i < parts.length - 1 ? [`${part}.`, el('wbr')] : part)),
  );
}

/** @param {string} view @param {string} title */
export function setView(view, title) {
  document.body.dataset.view = view;
  document.title = `${title} — Chronicle`;
}

/** @param {string | null} text */
export function setYourTurn(text) {
  const banner = need('#your-turn');
  banner.hidden = !text;
  banner.textContent = text || '';
  document.body.dataset.yourTurn = text ? 'true' : 'false';
}

/** @param {boolean} ready */
export function setReady(ready) {
  document.body.dataset.ready = ready ? 'true' : 'false';
}

/** What the page is waiting for, said in the header ("The server asks for a pause: going on
 * in 3 s"; "The live feed dropped: reconnecting"), so that it never sits silent on stale text. */
const paceNotes = new Map();
/** @param {'server' | 'stream'} what @param {string | null} text */
export function notePace(what, text) {
  if (text) paceNotes.set(what, text);
  else paceNotes.delete(what);
  const box = document.getElementById('pace');
  if (!box) return;
  const said = [...paceNotes.values()].join(' ');
  box.hidden = !said;
  box.textContent = said;
  document.body.dataset.pace = [...paceNotes.keys()].join(' ');
}

/** An API error for people: its message, and the rule with its text and page when it has one.
 * @param {{status: number, body: unknown}} response @param {string} [prefix] */
export function errorBox(response, prefix = '') {
  /** @type {Partial<Schemas['Error']>} */
  const body = response.body && typeof response.body === 'object' ? response.body : {};
  const details = /** @type {{rule_entry?: Schemas['RuleEntry']} | undefined} */ (body.details);
  const entry = details?.rule_entry || null;
  const box = el(
    'div',
    {class: 'error', role: 'alert', dataset: {code: body.code || '', rule: body.rule || ''}},
    el('strong', {text: prefix + (body.message || `the server answered ${response.status}`)}),
  );
  if (body.rule) {
    const where = entry ? citation(entry.page, entry.section) : '';
    box.append(el('div', {}, 'Rule ', ruleCode(body.rule, {class: 'rule-id'}), where ? ` (${where})` : ''));
    if (entry?.text) box.append(el('div', {class: 'rule-text', text: entry.text}));
  }
  return box;
}

/** Fields that hold a seat in a view no schema describes. */
const VIEW_SEAT_KEYS = [
  'seat',
  'owner',
  'defender',
  'enemy',
  'winner',
  'first',
  'next',
  'start',
  'start_player',
  'holder',
  'from_seat',
  'to_seat',
];

/** @param {unknown} value @returns {value is Record<string, unknown>} */
export function isRecord(value) {
  return Boolean(value) && typeof value === 'object' && !Array.isArray(value);
}

/** The view (or any object) as a definition list in words (`players`: the table's names).
 * @param {import('./words.js').Names} info @param {unknown} object @param {number} [depth]
 * @param {string[] | null} [players] @param {string} [path] @returns {HTMLDListElement} */
export function definitionList(info, object, depth = 0, players = null, path = '') {
  const list = el('dl');
  for (const [key, value] of Object.entries(object || {})) {
    const at = path ? `${path}.${key}` : key;
    const known = viewWord(info, at);
    const word = Object.keys(known).length || !VIEW_SEAT_KEYS.includes(key) ? known : {seat: true};
    list.append(el('dt', {text: viewLabel(info, word, key)}));
    if (isRecord(value) && depth < 2) {
      list.append(el('dd', {}, definitionList(info, value, depth + 1, players, at)));
    } else if (Array.isArray(value) && value.some(isRecord) && depth < 2) {
      list.append(
        el(
          'dd',
          {},
          value.map((v) =>
            v && typeof v === 'object'
              ? definitionList(info, v, depth + 1, players, at)
              : el('span', {text: nameOf(info, v)}),
          ),
        ),
      );
    } else {
      list.append(el('dd', {text: viewValue(info, word, value, players)}));
    }
  }
  return list;
}

/** The board's drawing, as a node of this page (its size left to the style sheet).
 * @param {string} text @returns {SVGSVGElement | null} */
export function parseSvg(text) {
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
  const svg = doc.documentElement;
  if (svg?.nodeName.toLowerCase() !== 'svg') return null;
  const node = /** @type {SVGSVGElement} */ (/** @type {unknown} */ (document.importNode(svg, true)));
  node.removeAttribute('width');
  node.removeAttribute('height');
  node.setAttribute('role', 'group');
  node.setAttribute('aria-label', 'The board');
  return node;
}

/** A node of the board's drawing. @param {ParentNode} svg @param {string} selector */
export function part(svg, selector) {
  return /** @type {SVGElement | null} */ (svg.querySelector(selector));
}

/** The land or water of the drawing with this id. @param {ParentNode} svg @param {string} id */
export function placeById(svg, id) {
  return part(svg, `[data-land="${CSS.escape(id)}"], [data-water="${CSS.escape(id)}"]`);
}

/** @param {number[]} colours */
export function swatches(colours) {
  return colours.map((c) =>
    el('span', {class: 'swatch', style: `background:${SEAT_COLOURS[c % 6]}`, 'aria-hidden': 'true'}),
  );
}

/** @param {string} text @param {string} what */
export function copyButton(text, what) {
  return el('button', {
    type: 'button',
    class: 'secondary copy',
    'aria-label': `Copy ${what}`,
    text: 'Copy',
    on: {
      click: async (/** @type {MouseEvent} */ event) => {
        const button = /** @type {HTMLElement} */ (event.target);
        try {
          await navigator.clipboard.writeText(text);
          button.textContent = 'Copied';
        } catch (_) {
          button.textContent = 'Select and copy';
        }
      },
    },
  });
}
