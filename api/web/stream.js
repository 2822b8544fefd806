// @ts-check
/* The live feed: the game's stream (a seat opens its private feed with a stream ticket, since
 * EventSource sends no headers). Its events are folded into few refreshes (state.js says
 * when); a stream that drops is opened again by the page itself, from the version it shows,
 * with a fresh ticket, after a pause that doubles while it keeps failing; the header says so. */

import {call} from './client.js';
import {notePace} from './dom.js';
import {reconnectMs, reconnectWords} from './pace.js';
import {fetched, heard} from './state.js';

/** @typedef {import('./api.d.ts').components['schemas']} Schemas */
/** @typedef {import('./state.js').Table} Table */

/** The events that change the seats (and clocks) rather than the game's position. */
export const SEATING_EVENTS = [
  'TableOpened',
  'SeatClaimed',
  'TableStarted',
  'SeatHandedToBot',
  'SeatTakenBack',
  'SeatResigned',
  'SeatTimedOut',
  'TableAbandoned',
];

/** The version a stream's event carries (its id), 0 when it carries none.
 * @param {string | null | undefined} lastEventId */
export function eventVersion(lastEventId) {
  return Number(lastEventId || 0);
}

/** A stream's event heard: fetched at once after a quiet spell, else with those that follow it.
 * @param {Table} t @param {number} version @param {boolean} seating */
function onStreamEvent(t, version, seating) {
  if (version && version <= t.version) return; // already shown (a move of this page's own)
  const {fold, delay} = heard(t.fold, version, seating, Date.now(), Boolean(t.running));
  t.fold = fold;
  if (t.foldTimer) clearTimeout(t.foldTimer);
  t.foldTimer = setTimeout(() => {
    t.foldTimer = null;
    const due = fetched(t.fold, Date.now());
    t.fold = due.fold;
    t.refresh(due.asked);
  }, delay);
  t.markReady();
}

/** Open the game's stream, from the version the table shows. @param {Table} t @returns {Promise<void>} */
export async function follow(t) {
  if (t.closed) return;
  if (t.stream) t.stream.close();
  t.stream = null;
  if (t.summary.status === 'finished' && t.summary.seed_revealed) {
    notePace('stream', null);
    document.body.dataset.stream = 'ended';
    return;
  }
  const id = encodeURIComponent(t.gameId);
  let url = `/games/${id}/stream?from=${t.version + 1}`;
  if (t.token) {
    /** @type {import('./client.js').Answer<Schemas['StreamTicket']>} */
    const ticket = await call('POST', `/games/${id}/stream-tickets`, {token: t.token});
    if (t.closed) return;
    if (!ticket.ok) {
      // a token the game refuses (401, 403) stays refused: the page says so, and stops
      if (![401, 403, 404].includes(ticket.status)) reconnectLater(t);
      return;
    }
    url = `${ticket.body.stream_url}&from=${t.version + 1}`;
  }
  const stream = new EventSource(url);
  t.stream = stream;
  t.streams += 1;
  document.body.dataset.streams = String(t.streams);
  stream.addEventListener('open', () => {
    if (t.stream !== stream) return;
    t.streamFailures = 0;
    notePace('stream', null);
    document.body.dataset.stream = 'open';
  });
  const seatingTypes = new Set(SEATING_EVENTS);
  for (const type of new Set([...t.info.event_types, ...SEATING_EVENTS])) {
    stream.addEventListener(type, (event) =>
      onStreamEvent(t, eventVersion(/** @type {MessageEvent} */ (event).lastEventId), seatingTypes.has(type)),
    );
  }
  stream.addEventListener('error', () => {
    if (t.closed || t.stream !== stream) return;
    // An ended stream (the game is over), an expired ticket or a lost connection: start again
    // from what the table shows, with a fresh ticket.
    stream.close();
    t.stream = null;
    t.refresh().then(() => {
      if (t.summary.status === 'finished' && t.summary.seed_revealed) return follow(t);
      reconnectLater(t);
    });
  });
}

/** @param {Table} t */
function reconnectLater(t) {
  if (t.closed) return;
  t.streamFailures += 1;
  const ms = reconnectMs(t.streamFailures);
  document.body.dataset.stream = 'reconnecting';
  notePace('stream', reconnectWords(ms, t.version));
  setTimeout(() => follow(t), ms);
}
