// @ts-check
/* The game's panel (its version, status, seats and summary) and the dashboard at the top:
 * when it is, whom it waits for, the players and their scores, the seat's goods and cards. */

import {play} from './actions.js';
import {definitionList, el, fill, need, setYourTurn, swatches} from './dom.js';
import {
  awaitedSeats,
  awaitedText,
  coloursOf,
  goodsOf,
  handOf,
  playingText,
  scores,
  whenText,
  yourTurnText,
} from './glance.js';
import {colourName, copies} from './words.js';

/** @typedef {import('./state.js').Table} Table */

const COMPACT = ['Area tokens']; // an Empire card shows what it brings: its people, start and fleets

/** @param {Table} t */
export function renderStatus(t) {
  const s = t.summary;
  const awaited = awaitedSeats(t);
  const me = t.seat;
  const list = el(
    'ul',
    {class: 'seat-list'},
    s.players.map((player, seat) =>
      el(
        'li',
        {class: awaited.has(seat) ? 'awaited' : null, dataset: {seat: String(seat)}},
        swatches(coloursOf(t, seat)),
        `${player} (${coloursOf(t, seat).map(colourName).join(', ')})`,
        me === seat ? ' — you' : '',
        awaited.has(seat) ? ' — to play' : '',
      ),
    ),
  );
  const facts = Object.entries(s.summary || {}).filter(
    ([key]) => !['awaiting', 'current_seat', 'start_player'].includes(key),
  );
  fill(
    need('#status'),
    el('h2', {id: 'status-title', text: 'The game'}),
    el(
      'p',
      {class: 'status-line'},
      el('span', {}, 'Version ', el('strong', {id: 'version', text: String(s.version)})),
      el('span', {}, 'Status ', el('strong', {id: 'game-status', text: s.status})),
    ),
    list,
    facts.length
      ? el('details', {}, el('summary', {text: 'Summary'}), definitionList(t.info, Object.fromEntries(facts)))
      : null,
  );
  const banner = yourTurnText(t);
  setYourTurn(banner);
  document.title = `${banner ? '● Your turn — ' : ''}Game ${t.gameId} — Chronicle`;
}

/** @param {Table} t */
export function renderDashboard(t) {
  const box = document.getElementById('dashboard');
  if (!box) return;
  const [what, per] = scores(t);
  const awaited = awaitedSeats(t);
  const cards = t.info.cards || {};
  const names = t.info.names || {};
  const players = el(
    'div',
    {class: 'dash-players', role: 'group', 'aria-label': 'Players'},
    t.summary.players.map((player, seat) =>
      el(
        'div',
        {class: `dash-player${awaited.has(seat) ? ' awaited' : ''}`, dataset: {seat: String(seat)}},
        swatches(coloursOf(t, seat)),
        el('span', {class: 'who', text: `${player}${t.seat === seat ? ' (you)' : ''}`}),
        what ? el('span', {class: 'score', text: `${per[seat]} ${what}`}) : null,
        awaited.has(seat) ? el('span', {class: 'to-play', text: 'to play'}) : null,
      ),
    ),
  );
  const procedures = t.legal?.table_actions || [];
  const answers = procedures
    .filter((a) => ['accept_rewind', 'refuse_rewind'].includes(a.command.type))
    .map((a) =>
      el('button', {
        type: 'button',
        class: 'action table dash-answer',
        dataset: {type: a.command.type},
        on: {click: () => play(t, a)},
        text: a.command.type === 'accept_rewind' ? 'Accept the rewind' : 'Refuse the rewind',
      }),
    );
  const goods = goodsOf(t);
  const hand = handOf(t);
  const playing = t.summary.status === 'finished' ? null : playingText(t);
  fill(
    box,
    el(
      'div',
      {class: 'dash-row'},
      el('strong', {class: 'dash-when', id: 'dash-when', text: whenText(t) || t.summary.status}),
      el('span', {class: 'dash-awaited', id: 'dash-awaited', role: 'status', text: awaitedText(t)}),
      answers,
      playing ? el('span', {class: 'dash-playing', id: 'dash-playing', text: playing}) : null,
    ),
    players,
    goods.length
      ? el(
          'p',
          {class: 'dash-goods', id: 'dash-goods'},
          goods.map(([k, v], i) => [i ? ' · ' : '', el('span', {}, `${k}: `, el('strong', {text: String(v)}))]),
        )
      : null,
    hand.length
      ? el(
          'div',
          {class: 'dash-hand', id: 'dash-hand', role: 'region', tabindex: 0, 'aria-label': 'Your cards'},
          hand.map(([title, ids]) =>
            el(
              'div',
              {class: 'hand-group', role: 'group', 'aria-label': title},
              el('span', {class: 'hand-title', text: `${title}:`}),
              copies(ids).map(([id, count]) =>
                el(
                  'div',
                  {
                    class: `hand-card${COMPACT.includes(title) ? ' compact' : ''}`,
                    dataset: {card: id},
                    title: COMPACT.includes(title) ? cards[id] || null : null,
                  },
                  el('strong', {text: `${names[id] || id}${count > 1 ? ` ×${count}` : ''}`}),
                  cards[id] && !COMPACT.includes(title) ? el('span', {class: 'card-text', text: cards[id]}) : null,
                ),
              ),
            ),
          ),
        )
      : null,
  );
}
