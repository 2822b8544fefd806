// @ts-check
/* The table: a game played by a seat or watched, drawn from the API and kept up to date by
 * its stream (stream.js) and by refreshes, one at a time. */

import {closeChooser, renderActions} from './actions.js';
import {renderBoard} from './board.js';
import {call, fragment, rulesetInfo} from './client.js';
import {renderDashboard, renderStatus} from './dashboard.js';
import {el, errorBox, fill, main, need, notePace, setReady, setView} from './dom.js';
import {focusAgain, focusSpot} from './focus.js';
import {renderLog, renderResult, renderSeating} from './log.js';
import {LOG_LENGTH, noFold, noWants, want, wanted} from './state.js';
import {follow} from './stream.js';

/** @typedef {import('./api.d.ts').components['schemas']} Schemas */
/** @typedef {import('./state.js').Table} Table */
/** @template T @typedef {import('./client.js').Answer<T>} Answer */

/** The table shown, if one is. @type {Table | null} */
let table = null;
const CHECK_MS = 15000;

export function stopTable() {
  const t = table;
  if (t) {
    if (t.stream) t.stream.close();
    if (t.foldTimer) clearTimeout(t.foldTimer);
    if (t.watch) clearInterval(t.watch);
    t.closed = true;
  }
  notePace('stream', null);
  table = null;
  closeChooser();
}

/** @param {string} gameId @param {string | null} token */
export async function showTable(gameId, token) {
  setView('table', `Game ${gameId}`);
  /** @type {Answer<Schemas['GameSummary']>} */
  const first = await call('GET', `/games/${encodeURIComponent(gameId)}`, {token});
  if (!first.ok) {
    fill(main(), el('h1', {text: `Game ${gameId}`}), errorBox(first));
    setReady(true);
    return;
  }
  const info = await rulesetInfo(first.body.ruleset);
  /** @type {Table} */
  const t = {
    gameId,
    token,
    refused: false,
    info,
    summary: first.body,
    seat: null,
    version: 0,
    shownVersion: null,
    legal: null,
    running: null,
    refreshing: false,
    posting: false,
    closed: false,
    refreshedAt: 0,
    wants: noWants(),
    fold: noFold(),
    foldTimer: null,
    stream: null,
    streams: 0,
    streamFailures: 0,
    watch: null,
    log: [],
    logTo: 0,
    seating: null,
    clocked: false,
    result: null,
    state: null,
    boardText: null,
    boardMarks: [],
    playedFrom: null,
    refresh: (asked) => refresh(t, asked),
    markReady,
  };
  table = t;
  fill(
    main(),
    el('h1', {}, `${first.body.title} — game `, el('code', {text: gameId})),
    el('section', {
      id: 'dashboard',
      class: 'dashboard',
      'aria-label': token ? 'Your dashboard' : 'The game at a glance',
    }),
    el(
      'div',
      {class: 'table-layout'},
      el(
        'section',
        {class: 'board-area', id: 'board-area', tabindex: 0, 'aria-label': 'The table'},
        el('div', {id: 'board', class: info.board ? 'board' : 'state-view'}),
        info.board ? marksLegend(info) : null,
        el('div', {id: 'view-details'}),
      ),
      el(
        'aside',
        {class: 'side', 'aria-label': 'Seat, actions and log'},
        el(
          'section',
          {class: 'panel', id: 'status', 'aria-labelledby': 'status-title'},
          el('h2', {id: 'status-title', text: 'The game'}),
        ),
        el(
          'section',
          {class: 'panel', id: 'seating', 'aria-labelledby': 'seating-title'},
          el('h2', {id: 'seating-title', text: 'Seats and clocks'}),
        ),
        el(
          'section',
          {class: 'panel actions', id: 'actions-panel', 'aria-labelledby': 'actions-title'},
          el('h2', {id: 'actions-title', text: token ? 'Your actions' : 'Watching'}),
          el('div', {id: 'message'}),
          el('div', {id: 'actions'}),
        ),
        el(
          'section',
          {class: 'panel result', id: 'result', hidden: true, 'aria-labelledby': 'result-title'},
          el('h2', {id: 'result-title', text: 'Result'}),
        ),
        el(
          'section',
          {class: 'panel', id: 'log-panel', 'aria-labelledby': 'log-title'},
          el('h2', {id: 'log-title', text: 'What happened'}),
          el('ol', {class: 'log', id: 'log', tabindex: 0, 'aria-labelledby': 'log-title'}),
        ),
        el(
          'p',
          {},
          el('a', {
            id: 'replay-link',
            href: `/${fragment({game: gameId, token, replay: 1})}`,
            text: 'Replay this game, event by event',
          }),
        ),
      ),
    ),
  );
  keepBoardClearOfDashboard();
  await refresh(t);
  follow(t);
  t.watch = setInterval(() => checkNow(t), CHECK_MS);
}

/** Whatever the stream may have missed, a table quiet for a while asks once where the game
 * stands (one request while nothing moved), so it never sits for long on a stale position.
 * @param {Table} t */
function checkNow(t) {
  if (t.closed) {
    if (t.watch) clearInterval(t.watch);
    return;
  }
  if (t.summary.status === 'finished' || Date.now() - (t.refreshedAt || 0) < CHECK_MS) return;
  refresh(t);
}

/** What the outlines this page draws on the board mean (the drawing's own legend, under it,
 * names the pieces, colours and areas). @param {Schemas['RulesetDetail']} info */
function marksLegend(info) {
  /** @param {string} cls @param {string} words */
  const mark = (cls, words) => el('li', {}, el('span', {class: `mark ${cls}`, 'aria-hidden': 'true'}), ` ${words}`);
  const patches = info.name === 'patchistory';
  return el(
    'ul',
    {class: 'marks-legend', id: 'marks-legend', 'aria-label': 'What the outlines on the board mean'},
    mark('mark-target', 'thick dark outline: a place you may click now'),
    mark('mark-focus', 'orange outline: the place pointed at or focused (Enter plays it)'),
    patches ? null : mark('mark-near', 'dotted brown outline: the lands bordering the one pointed at'),
    patches ? mark('mark-white', 'orange-edged squares: where the Tile you won goes, White side up') : null,
    patches ? mark('mark-black', 'dashed dark squares: where it goes, Black side up') : null,
    patches
      ? mark('mark-building', 'a white square inside a square: a Building on it')
      : mark('mark-happened', 'dark red outline (in the replay): the places the event names'),
  );
}

/** The dashboard stays at the top of the window; the board stays just under it (scrolling
 * inside itself where the window is too short), so the dashboard never covers the map.
 * @type {ResizeObserver | null} */
let dashboardWatch = null;
function keepBoardClearOfDashboard() {
  if (dashboardWatch) dashboardWatch.disconnect(); // the dashboard of a table left behind
  const box = document.getElementById('dashboard');
  if (!box || typeof ResizeObserver === 'undefined') return;
  const note = () => {
    if (box.isConnected) {
      document.documentElement.style.setProperty('--dash-h', `${Math.ceil(box.getBoundingClientRect().height)}px`);
    }
  };
  dashboardWatch = new ResizeObserver(note);
  dashboardWatch.observe(box);
  note();
}

/** The page is ready when nothing heard is left to show. */
export function markReady() {
  const t = table;
  setReady(!t || (!t.refreshing && !t.posting && !t.fold.due));
}

/** What the table shows, fetched again: one refresh at a time; what is asked while one runs
 * (a move played, the seats changed, a newer version on the stream) makes exactly one more,
 * unless the one running already read that version. Only what changed is fetched: the board,
 * the view and the log when the version moved, the seats when a seating event came (or a
 * clock runs), the result once.
 * @param {Table} t @param {{version?: number, seating?: boolean}} [asked] @returns {Promise<void>} */
export function refresh(t, asked = {}) {
  if (t.closed) return Promise.resolve();
  t.wants = want(t.wants, asked);
  if (!t.running) {
    t.running = refreshing(t).finally(() => {
      t.running = null;
      markReady();
    });
  }
  return t.running;
}

/** @param {Table} t */
async function refreshing(t) {
  t.refreshing = true;
  markReady();
  try {
    while (!t.closed && wanted(t.wants, t.version)) {
      t.wants = {...t.wants, fresh: false};
      await refreshOnce(t);
    }
  } finally {
    t.refreshing = false;
  }
}

/** One refresh. A seat asks first for its legal actions (they carry the version), a spectator
 * for the summary; then, if the version moved, the board, the state (with the summary) and
 * the log's new lines, all at once. @param {Table} t */
async function refreshOnce(t) {
  t.refreshedAt = Date.now();
  const id = encodeURIComponent(t.gameId);
  /** @type {Answer<Schemas['LegalActions'] | Schemas['GameSummary']>} */
  const probe = t.token
    ? await call('GET', `/games/${id}/legal-actions`, {token: t.token})
    : await call('GET', `/games/${id}`);
  if (t.closed) return;
  if (t.token && !probe.ok && [401, 403].includes(probe.status)) {
    // a lost or replaced link: say so, and go on watching as a spectator
    fill(
      need('#message'),
      errorBox(probe, 'This seat link does not work: '),
      el('p', {text: "You are watching; ask the game's admin for a new link."}),
    );
    t.token = null;
    t.refused = true;
    t.wants = {...t.wants, fresh: true};
    return;
  }
  if (!probe.ok) {
    fill(need('#message'), errorBox(probe));
    return;
  }
  const version = probe.body.version;
  if ('actions' in probe.body) {
    const legal = probe.body;
    const words = legal.action_words || [];
    t.legal = {...legal, actions: legal.actions.map((action, i) => ({...action, words: words[i] || null}))};
    t.seat = legal.seat;
  } else {
    t.summary = probe.body;
  }
  const moved = version !== t.shownVersion;
  const seatsToo = t.wants.seating || !t.seating || (moved && t.clocked);
  t.wants = {...t.wants, seating: false};
  const from = Math.max(t.logTo + 1, version - LOG_LENGTH + 1, 1);
  const none = Promise.resolve(null);
  /** @type {[Answer<string> | null, Answer<Schemas['State']> | null, Answer<Schemas['Narrative']> | null, Answer<Schemas['Seating']> | null]} */
  const [picture, state, log, seating] = await Promise.all([
    moved && t.info.board ? call('GET', `/games/${id}/board`, {token: t.token}) : none,
    moved ? call('GET', `/games/${id}/state`, {token: t.token}) : none,
    moved && from <= version
      ? call('GET', `/games/${id}/narrative?from=${from}&limit=${LOG_LENGTH}`, {token: t.token})
      : none,
    seatsToo ? call('GET', `/games/${id}/seating`) : none,
  ]);
  if (t.closed) return;
  if (state?.ok) {
    const b = state.body;
    t.state = /** @type {Record<string, unknown>} */ (b.view);
    t.summary = {...t.summary, version: b.version, status: b.status, awaiting: b.awaiting, summary: b.summary};
    if (b.version !== version) t.wants = {...t.wants, fresh: true}; // the game moved between the two answers
  }
  t.version = t.summary.version;
  if (log?.ok) {
    t.log = [...t.log.filter((entry) => entry.version < from), ...log.body.entries].slice(-LOG_LENGTH);
    t.logTo = t.log.length ? (t.log[t.log.length - 1]?.version ?? t.logTo) : t.logTo;
  }
  if (seating?.ok) {
    t.seating = seating.body;
    t.clocked = seating.body.clock.kind !== 'none';
  }
  if (moved && (!state || state.ok) && (!picture || picture.ok)) t.shownVersion = version;
  if (t.summary.status === 'finished' && !t.result) {
    // the seats as they ended too: who resigned or ran out of time is said on the end screen
    // even when the game ended before the seating event's own refresh came
    /** @type {[void, Answer<Schemas['GameSummary']>, Answer<Schemas['Seating']> | null]} */
    const [, summary, seats] = await Promise.all([
      fetchResult(t),
      call('GET', `/games/${id}`),
      seating ? none : call('GET', `/games/${id}/seating`),
    ]);
    if (summary.ok) t.summary = summary.body; // the seed revealed, or soon to be
    if (seats?.ok) t.seating = seats.body;
  }
  if (t.closed) return;
  const where = focusSpot(document.activeElement) || t.playedFrom;
  t.playedFrom = null;
  renderStatus(t);
  if (picture || state) renderBoard(t, picture, state);
  renderDashboard(t);
  renderActions(t);
  renderLog(t);
  renderSeating(t);
  if (t.result) renderResult(t.result);
  if (where && (!document.activeElement || document.activeElement === document.body)) focusAgain(where);
  document.body.dataset.version = String(t.version);
  document.body.dataset.status = t.summary.status;
}

/** @param {Table} t */
async function fetchResult(t) {
  /** @type {Answer<Schemas['Result']>} */
  const result = await call('GET', `/games/${encodeURIComponent(t.gameId)}/result`, {token: t.token});
  if (result.ok) t.result = result.body;
}
