// @ts-check
/* What happened (the log's last lines, undone ones struck through), the result once the game
 * is over, and the seats with their clocks and what the seat may do with itself (a bot in its
 * place, resigning). */

import {call} from './client.js';
import {$$, el, errorBox, fill, need} from './dom.js';
import {citation, clockText, resignWords, undoneVersions} from './words.js';

/** @typedef {import('./api.d.ts').components['schemas']} Schemas */
/** @typedef {import('./state.js').Table} Table */

/** @param {Table} t */
export function renderLog(t) {
  const undone = undoneVersions(t.log);
  fill(
    need('#log'),
    ...t.log
      .slice()
      .reverse()
      .map((entry) => {
        const where = citation(entry.page, entry.section);
        const taken = undone.has(entry.version);
        const words = taken ? el('del', {text: entry.words}) : entry.words;
        return el(
          'li',
          {
            class: taken ? 'undone' : null,
            dataset: {version: String(entry.version), type: entry.type, undone: taken ? 'true' : 'false'},
          },
          el('span', {class: 'v', text: `${entry.version}.`}),
          ' ',
          words,
          taken ? el('span', {class: 'muted', text: ' (taken back)'}) : null,
          where ? el('span', {class: 'muted cite', title: entry.rule, text: ` — ${where}`}) : null,
        );
      }),
  );
}

/** The result, once the game is over, at the top: just under the dashboard.
 * @param {Schemas['Result']} result */
export function renderResult(result) {
  const box = need('#result');
  const top = document.getElementById('dashboard');
  if (top && box.previousElementSibling !== top) top.after(box);
  box.hidden = false;
  fill(
    box,
    el('h2', {id: 'result-title', text: 'Result'}),
    el(
      'table',
      {},
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ['Place', 'Player', 'Score'].map((h) => el('th', {scope: 'col', text: h})),
        ),
      ),
      el(
        'tbody',
        {},
        result.ranking.map((row) =>
          el(
            'tr',
            {dataset: {seat: String(row.seat)}},
            el('td', {text: String(row.place)}),
            el('td', {text: row.player}),
            el('td', {text: String(row.score)}),
          ),
        ),
      ),
    ),
    el('p', {
      class: 'muted',
      text: result.tie_breaks.length
        ? `Ties are broken by: ${result.tie_breaks.join('; ')}.`
        : 'The rules name no tie-breaker.',
    }),
  );
}

/** The clock's terms, in words. @param {Schemas['Seating']} s */
function clockTerms(s) {
  const clock = /** @type {Schemas['Clock']} */ (s.clock);
  if (clock.kind === 'move') return `${clockText(clock.per_move_ms)} per move; on timeout: ${s.on_timeout}`;
  return `bank ${clockText(clock.initial_ms)} + ${clockText(clock.increment_ms)}; on timeout: ${s.on_timeout}`;
}

/** @param {Table} t */
export function renderSeating(t) {
  const box = document.getElementById('seating');
  if (!box || !t.seating) return;
  const s = t.seating;
  const skew = Date.now() - s.now_ms;
  const rows = s.seats.map((seat) =>
    el(
      'li',
      {dataset: {seat: String(seat.seat)}},
      `${seat.name || seat.label}`,
      seat.bot ? ` (bot: ${seat.bot})` : '',
      seat.left ? ` — ${seat.left.replace('_', ' ')}` : '',
      !seat.claimed ? ' — open' : '',
      seat.deadline_ms
        ? el('span', {
            class: 'clock',
            dataset: {deadline: String(seat.deadline_ms + skew)},
            text: ` — ${clockText(seat.deadline_ms - s.now_ms)} left to play`,
          })
        : null,
      seat.bank_ms !== null && seat.bank_ms !== undefined && !seat.deadline_ms
        ? el('span', {class: 'bank', text: ` bank ${clockText(seat.bank_ms)}`})
        : null,
    ),
  );
  const mine = t.seat !== null && t.seat !== undefined ? s.seats[t.seat] : null;
  const buttons = [];
  if (t.token && mine && !mine.left && t.summary.status !== 'finished' && s.started) {
    if (mine.bot) {
      buttons.push(
        el('button', {
          type: 'button',
          id: 'take-back',
          text: 'Take my seat back',
          on: {click: () => seatAct(t, 'DELETE', 'bot')},
        }),
      );
    } else {
      buttons.push(
        el('button', {
          type: 'button',
          id: 'hand-to-bot',
          text: 'Let a bot play for me',
          on: {click: () => seatAct(t, 'POST', 'bot', {strategy: 'greedy'})},
        }),
      );
    }
    buttons.push(
      el('button', {
        type: 'button',
        id: 'resign',
        text: 'Resign',
        on: {
          click: () => {
            if (confirm(resignWords(s, t.seat))) seatAct(t, 'POST', 'resign');
          },
        },
      }),
    );
  }
  fill(
    box,
    el('h2', {id: 'seating-title', text: 'Seats and clocks'}),
    s.clock.kind !== 'none' ? el('p', {class: 'muted', text: clockTerms(s)}) : null,
    el('ul', {class: 'seats'}, rows),
    buttons,
  );
  tickClocks();
}

/** @type {ReturnType<typeof setInterval> | null} */
let clockTimer = null;
/** The clocks shown count down, each second, while there are any. */
function tickClocks() {
  if (clockTimer) return;
  clockTimer = setInterval(() => {
    const clocks = $$('#seating .clock');
    if (!clocks.length) {
      if (clockTimer) clearInterval(clockTimer);
      clockTimer = null;
      return;
    }
    for (const node of clocks) {
      node.textContent = ` — ${clockText(Number(node.dataset.deadline) - Date.now())} left to play`;
    }
  }, 1000);
}

/** @param {Table} t @param {string} method @param {string} what @param {unknown} [body] */
async function seatAct(t, method, what, body) {
  const done = await call(method, `/games/${encodeURIComponent(t.gameId)}/${what}`, {token: t.token, body});
  if (!done.ok) fill(need('#message'), errorBox(done));
  t.refresh({seating: true});
}
