// @ts-check
/* The replay: any game event by event, the board (or the state) as it stood after each, and
 * the event's rule, page, dice and draws; its explanation, what-if and the audit are in
 * explain.js. */

import {call, fragment, rulesetInfo} from './client.js';
import {
  $,
  $$,
  definitionList,
  el,
  errorBox,
  fill,
  main,
  need,
  parseSvg,
  placeById,
  ruleCode,
  setReady,
  setView,
  setYourTurn,
} from './dom.js';
import {audit, diceLine, explain, renderWhatIf} from './explain.js';
import {actorWords, diceOf, drawText, humanise, pageText, undoneVersions} from './words.js';

/** @typedef {import('./api.d.ts').components['schemas']} Schemas */
/** @template T @typedef {import('./client.js').Answer<T>} Answer */
/** A drawing on its way, and the version to draw once it is done (only the latest is drawn).
 * @typedef {{next: number | null, done: Promise<void> | null}} Drawing */
/** A game being replayed.
 * @typedef {object} Replay
 * @property {string} gameId
 * @property {string | null} token
 * @property {string | null} adminToken
 * @property {Schemas['RulesetDetail']} info
 * @property {Schemas['GameSummary']} summary
 * @property {Schemas['NarrativeEntry'][]} entries
 * @property {number} at the event shown
 * @property {number} boardFor the event the board is drawn for
 * @property {boolean} closed
 * @property {Drawing | null} pending
 */

/** @type {Replay | null} */
let replay = null;

export function stopReplay() {
  if (replay) replay.closed = true;
  replay = null;
}

/** @param {string} gameId @param {string | null} token @param {number} at @param {string | null} [adminToken] */
export async function showReplay(gameId, token, at, adminToken = null) {
  setView('replay', `Replay of game ${gameId}`);
  setYourTurn(null);
  const root = main();
  /** @type {Answer<Schemas['GameSummary']>} */
  const summary = await call('GET', `/games/${encodeURIComponent(gameId)}`, {token});
  if (!summary.ok) {
    fill(root, el('h1', {text: `Game ${gameId}`}), errorBox(summary));
    setReady(true);
    return;
  }
  const info = await rulesetInfo(summary.body.ruleset);
  /** @type {Replay} */
  const r = {
    gameId,
    token,
    adminToken,
    info,
    summary: summary.body,
    entries: [],
    at: 1,
    boardFor: 0,
    closed: false,
    pending: null,
  };
  replay = r;
  fill(
    root,
    el('h1', {}, `Replay — ${summary.body.title} — game `, el('code', {text: gameId})),
    el(
      'div',
      {class: 'replay-controls', role: 'group', 'aria-label': 'Replay controls'},
      el('button', {type: 'button', id: 'first', text: '|◀ First event'}),
      el('button', {type: 'button', id: 'prev', text: '◀ Previous event'}),
      el('label', {for: 'slider', class: 'muted', text: 'Event'}),
      el('input', {type: 'range', id: 'slider', min: 1, max: Math.max(1, summary.body.version), value: 1}),
      el('button', {type: 'button', id: 'next', text: 'Next event ▶'}),
      el('button', {type: 'button', id: 'last', text: 'Last event ▶|'}),
      el('output', {id: 'position', for: 'slider', 'aria-live': 'polite'}),
    ),
    el('p', {class: 'muted', text: 'Arrow keys step through the events; Home and End go to the first and the last.'}),
    el(
      'div',
      {class: 'table-layout'},
      el(
        'section',
        {class: 'board-area', 'aria-label': 'The table at this event'},
        el('div', {id: 'board', class: info.board ? 'board' : 'state-view'}),
      ),
      el(
        'aside',
        {class: 'side', 'aria-label': 'The event, its ruling and the audit'},
        el(
          'section',
          {class: 'panel event-card', id: 'event', 'aria-labelledby': 'event-title'},
          el('h2', {id: 'event-title', text: 'Event'}),
        ),
        el('section', {class: 'panel', id: 'explanation', 'aria-labelledby': 'explanation-title', hidden: true}),
        el('section', {class: 'panel', id: 'whatif', 'aria-labelledby': 'whatif-title', hidden: true}),
        el(
          'section',
          {class: 'panel', id: 'audit', 'aria-labelledby': 'audit-title'},
          el('h2', {id: 'audit-title', text: 'Audit'}),
          el('p', {text: 'Checking…'}),
        ),
        el(
          'section',
          {class: 'panel', 'aria-labelledby': 'events-title'},
          el('h2', {id: 'events-title', text: 'Every event'}),
          el('ol', {class: 'event-list', id: 'event-list'}),
        ),
        el('p', {}, el('a', {href: `/${fragment({game: gameId, token})}`, text: 'Back to the table'})),
      ),
    ),
  );
  const slider = /** @type {HTMLInputElement} */ (need('#slider'));
  slider.addEventListener('input', () => step(r, Number(slider.value)));
  need('#first').addEventListener('click', () => step(r, 1));
  need('#prev').addEventListener('click', () => step(r, r.at - 1));
  need('#next').addEventListener('click', () => step(r, r.at + 1));
  need('#last').addEventListener('click', () => step(r, r.entries.length));
  await loadNarrative(r);
  renderEventList(r);
  audit(r);
  await step(r, at || r.entries.length);
}

/** Every event's entry, page by page. @param {Replay} r */
async function loadNarrative(r) {
  /** @type {number | null | undefined} */
  let from = 1;
  const id = encodeURIComponent(r.gameId);
  while (from !== null && from !== undefined && !r.closed) {
    /** @type {Answer<Schemas['Narrative']>} */
    const page = await call('GET', `/games/${id}/narrative?from=${from}&limit=500`, {token: r.token});
    if (!page.ok) {
      need('#event').append(errorBox(page));
      return;
    }
    r.entries.push(...page.body.entries);
    from = page.body.next;
  }
  /** @type {HTMLInputElement} */ (need('#slider')).max = String(Math.max(1, r.entries.length));
}

/** @param {Replay} r */
function renderEventList(r) {
  fill(
    need('#event-list'),
    ...r.entries.map((entry) =>
      el(
        'li',
        {dataset: {version: String(entry.version)}},
        el(
          'button',
          {type: 'button', tabindex: -1, on: {click: () => step(r, entry.version)}},
          `${entry.version}. ${entry.words}`,
        ),
      ),
    ),
  );
}

/** @param {KeyboardEvent} event */
export function onReplayKey(event) {
  const r = replay;
  if (!r || r.closed || document.body.dataset.view !== 'replay') return;
  const target = /** @type {HTMLElement | null} */ (event.target);
  if (target && target.id === 'slider') return; // the slider steps itself (its input event)
  if (target && ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName)) return;
  /** @type {Record<string, number>} */
  const moves = {ArrowLeft: r.at - 1, ArrowRight: r.at + 1, Home: 1, End: r.entries.length};
  const to = moves[event.key];
  if (to === undefined) return;
  event.preventDefault();
  step(r, to);
}

/** Show event `version`: its card, its place in the list, the board after it.
 * @param {Replay} r @param {number} version */
async function step(r, version) {
  if (!r.entries.length) return;
  const v = Math.max(1, Math.min(r.entries.length, Number(version) || 1));
  const entry = r.entries[v - 1];
  if (!entry) return;
  r.at = v;
  /** @type {HTMLInputElement} */ (need('#slider')).value = String(v);
  need('#position').textContent = `${v} of ${r.entries.length}`;
  history.replaceState(null, '', fragment({game: r.gameId, token: r.token, replay: v, admin: r.adminToken}));
  renderEvent(r, entry);
  for (const item of $$('#event-list li.now')) {
    item.classList.remove('now');
    need('button', item).tabIndex = -1;
  }
  const item = $(`#event-list li[data-version="${v}"]`);
  if (item) {
    item.classList.add('now');
    need('button', item).tabIndex = 0;
    const list = need('#event-list');
    list.scrollTop = Math.max(0, item.offsetTop - list.offsetTop - list.clientHeight / 2);
  }
  setReady(false);
  document.body.dataset.at = String(v);
  await drawAt(r, v);
}

/** The board (or the state) at version v; while one is on its way, only the latest is drawn.
 * @param {Replay} r @param {number} v @returns {Promise<void>} */
async function drawAt(r, v) {
  if (r.pending) {
    r.pending.next = v;
    return r.pending.done ?? undefined;
  }
  /** @type {Drawing} */
  const job = {next: null, done: null};
  job.done = (async () => {
    /** @type {number | null} */
    let want = v;
    while (want !== null && !r.closed) {
      job.next = null;
      const id = encodeURIComponent(r.gameId);
      if (r.info.board) {
        /** @type {Answer<string>} */
        const picture = await call('GET', `/games/${id}/board?at=${want}`, {token: r.token});
        if (picture.ok) {
          const svg = parseSvg(picture.body);
          if (svg) fill(need('#board'), svg);
        }
      } else {
        /** @type {Answer<Schemas['State']>} */
        const state = await call('GET', `/games/${id}/state?at=${want}`, {token: r.token});
        if (state.ok) {
          fill(
            need('#board'),
            el('h2', {text: `The table after event ${want}`}),
            definitionList(r.info, state.body.view, 0, r.summary.players),
          );
        }
      }
      r.boardFor = want;
      want = job.next;
    }
    highlight(r);
    r.pending = null;
    setReady(true);
    document.body.dataset.boardAt = String(r.boardFor);
  })();
  r.pending = job;
  return job.done;
}

/** The places the event names, outlined on the board. @param {Replay} r */
function highlight(r) {
  const svg = $('#board svg');
  if (!svg) return;
  const entry = r.entries[r.boardFor - 1];
  if (!entry) return;
  for (const node of svg.querySelectorAll('.happened')) node.classList.remove('happened');
  for (const value of Object.values(entry.data || {}).flat()) {
    if (typeof value !== 'string') continue;
    const node = placeById(svg, value);
    if (node) node.classList.add('happened');
  }
}

/** @param {Replay} r @param {Schemas['NarrativeEntry']} entry */
function renderEvent(r, entry) {
  const undone = undoneVersions(r.entries);
  const dice = diceOf(entry.data);
  const draws = entry.draws || [];
  const page = pageText(entry.page);
  fill(
    need('#event'),
    el(
      'h2',
      {id: 'event-title'},
      'Event ',
      el('span', {id: 'event-version', text: String(entry.version)}),
      ` of ${r.entries.length}`,
    ),
    el(
      'p',
      {id: 'event-words', class: 'words'},
      undone.has(entry.version)
        ? [el('del', {text: entry.words}), ' (taken back later: it no longer counts)']
        : entry.words,
    ),
    el(
      'dl',
      {},
      el('dt', {text: 'What'}),
      el('dd', {id: 'event-type', title: entry.type, dataset: {type: entry.type}, text: humanise(entry.type)}),
      el('dt', {text: 'By'}),
      el('dd', {id: 'event-actor', text: actorWords(entry.actor, r.summary.players)}),
      el('dt', {text: 'Rule'}),
      el(
        'dd',
        {},
        ruleCode(entry.rule, {id: 'event-rule'}),
        page ? el('span', {id: 'event-page', text: ` ${page}`}) : null,
        entry.section
          ? el('span', {class: 'muted', text: page ? ` (${entry.section})` : ` rulebook, “${entry.section}”`})
          : null,
      ),
      entry.rule_text ? [el('dt', {text: 'The rule'}), el('dd', {id: 'event-rule-text', text: entry.rule_text})] : null,
      entry.cites.length
        ? [
            el('dt', {text: 'Also cites'}),
            el(
              'dd',
              {id: 'event-cites'},
              entry.cites.map((c, i) => [i ? ', ' : '', ruleCode(c)]),
            ),
          ]
        : null,
      dice.length ? [el('dt', {text: 'Dice'}), el('dd', {id: 'event-dice'}, dice.map(diceLine))] : null,
      el('dt', {text: 'Chance draws'}),
      el(
        'dd',
        {id: 'event-draws'},
        draws.length
          ? [
              el(
                'ul',
                {},
                draws.map((d) =>
                  el(
                    'li',
                    {dataset: {k: String(d.k), n: String(d.n), result: String(d.result)}},
                    `${drawText(d)} (chance draw #${d.k})`,
                  ),
                ),
              ),
              entry.scripted
                ? el('p', {
                    id: 'event-scripted',
                    class: 'notice',
                    text: 'Scripted: these outcomes were given for a what-if, not drawn from a committed seed.',
                  })
                : null,
            ]
          : entry.redacted
            ? 'hidden from you'
            : 'none',
      ),
    ),
    entry.redacted
      ? el('p', {class: 'notice', text: 'This event is private to another seat: you see its redacted form.'})
      : null,
    el('button', {
      type: 'button',
      id: 'explain',
      on: {click: () => explain(r, entry.version)},
      text: 'Explain this event',
    }),
  );
  const explanation = need('#explanation');
  explanation.hidden = true;
  fill(explanation);
  renderWhatIf(r, entry);
}
