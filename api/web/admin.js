// @ts-check
/* The admin's page: a new join link for a player who lost theirs (the old one stops working). */

import {absolute, call, fragment} from './client.js';
import {copyButton, el, errorBox, fill, main, setReady, setView, setYourTurn} from './dom.js';

/** @typedef {import('./api.d.ts').components['schemas']} Schemas */
/** @template T @typedef {import('./client.js').Answer<T>} Answer */

/** @param {string} gameId @param {string} adminToken */
export async function showAdmin(gameId, adminToken) {
  setView('admin', `Admin of game ${gameId}`);
  setYourTurn(null);
  /** @type {Answer<Schemas['GameSummary']>} */
  const summary = await call('GET', `/games/${encodeURIComponent(gameId)}`);
  const root = main();
  if (!summary.ok) {
    fill(root, el('h1', {text: `Game ${gameId}`}), errorBox(summary));
    setReady(true);
    return;
  }
  const rows = summary.body.players.map((player, seat) =>
    el(
      'tr',
      {dataset: {seat: String(seat)}},
      el('td', {text: String(seat + 1)}),
      el('td', {text: player}),
      el(
        'td',
        {class: 'new-link'},
        el('button', {
          type: 'button',
          class: 'reissue',
          dataset: {seat: String(seat)},
          text: `Issue a new link for ${player}`,
          on: {
            click: (/** @type {MouseEvent} */ event) => {
              const cell = /** @type {HTMLElement} */ (event.target).closest('td');
              if (cell) reissue(gameId, adminToken, seat, player, cell);
            },
          },
        }),
      ),
    ),
  );
  fill(
    root,
    el('h1', {}, 'Admin of game ', el('code', {text: gameId})),
    el('p', {text: 'A player who lost their link gets a new one here; their old link stops working at once.'}),
    el(
      'table',
      {},
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ['Seat', 'Player', 'Link'].map((h) => el('th', {scope: 'col', text: h})),
        ),
      ),
      el('tbody', {}, rows),
    ),
    el(
      'p',
      {},
      el('a', {href: `/${fragment({game: gameId})}`, text: 'Watch the game'}),
      ' · ',
      el('a', {href: `/${fragment({game: gameId, replay: 1})}`, text: 'Replay it'}),
    ),
  );
  setReady(true);
}

/** @param {string} gameId @param {string} adminToken @param {number} seat @param {string} player @param {HTMLElement} cell */
async function reissue(gameId, adminToken, seat, player, cell) {
  /** @type {Answer<Schemas['SeatToken']>} */
  const answer = await call('POST', `/games/${encodeURIComponent(gameId)}/seats/${seat}/token`, {token: adminToken});
  if (!answer.ok) {
    cell.append(errorBox(answer));
    return;
  }
  const hash = fragment({game: gameId, token: answer.body.seat_token});
  fill(
    cell,
    el('a', {class: 'join-link', href: `/${hash}`, dataset: {seat: String(seat)}, text: absolute(hash)}),
    ' ',
    copyButton(absolute(hash), `${player}'s new join link`),
    el('p', {class: 'muted', role: 'status', text: `${player}'s old link no longer works.`}),
  );
}
