// @ts-check
/* The player: who they are (their key stays in this browser's storage and goes only into
 * Authorization headers), their games, the open tables they may join, and the notifications
 * that list them again: the player's stream (EventSource with a ticket), else polling. */

import {call, tableLink} from './client.js';
import {el, errorBox, fill, input} from './dom.js';
import {standingText} from './words.js';

/** @typedef {import('./api.d.ts').components['schemas']} Schemas */
/** @template T @typedef {import('./client.js').Answer<T>} Answer */
/** @typedef {{id: string, name: string, key: string}} Player the player this browser is */
/** @typedef {{game_id: string, seat: number, token: string}} Kept a game created here, with the seat kept */

const PLAYER = 'chronicle.player';
const CREATED = 'chronicle.created';
const CREATED_KEPT = 10;

/** @returns {Player | null} */
export function me() {
  try {
    return JSON.parse(localStorage.getItem(PLAYER) || 'null');
  } catch (_) {
    return null;
  }
}

/** The name typed in "You", else Guest. */
export function typedName() {
  const field = input('player-name');
  return field?.value || 'Guest';
}

/** @param {string} name @returns {Promise<Player>} */
export async function ensurePlayer(name) {
  const known = me();
  if (known) return known;
  /** @type {Answer<Schemas['CreatedPlayer']>} */
  const made = await call('POST', '/players', {body: {name: name || 'Guest'}});
  if (!made.ok) {
    throw new Error((made.body && typeof made.body === 'object' && made.body.message) || 'could not become a player');
  }
  const player = {id: made.body.player_id, name: made.body.name, key: made.body.player_key};
  localStorage.setItem(PLAYER, JSON.stringify(player));
  return player;
}

export async function showPlayer() {
  const box = document.getElementById('player');
  if (!box) return;
  const player = me();
  const field = el('input', {
    id: 'player-name',
    name: 'name',
    maxlength: 64,
    required: true,
    value: player ? player.name : '',
  });
  fill(
    box,
    el('h2', {id: 'player-title', text: 'You'}),
    player
      ? el('p', {id: 'player-known'}, 'Playing as ', el('strong', {text: player.name}))
      : el(
          'form',
          {
            id: 'player-form',
            on: {
              submit: async (/** @type {SubmitEvent} */ event) => {
                event.preventDefault();
                await ensurePlayer(field.value.trim());
                showPlayer();
                listMyGames();
                followMe();
              },
            },
          },
          el('label', {for: 'player-name', text: 'Your name'}),
          ' ',
          field,
          ' ',
          el('button', {type: 'submit', text: 'Be a player'}),
        ),
  );
}

/** The games made here with "Create a game" (no player holds their seats, so the server lists
 * them under no one): the seat of the person who made them (the seat named as they are, else
 * the first) with its link, kept in this browser for "My games".
 * @returns {Kept[]} */
function createdHere() {
  try {
    return JSON.parse(localStorage.getItem(CREATED) || '[]');
  } catch (_) {
    return [];
  }
}

/** @param {Schemas['CreatedGame']} game */
export function rememberCreated(game) {
  const player = me();
  const named = player ? game.players.indexOf(player.name) : -1;
  const seat = Math.max(named, 0);
  const kept = [
    {game_id: game.game_id, seat, token: game.seat_tokens[seat]},
    ...createdHere().filter((g) => g.game_id !== game.game_id),
  ].slice(0, CREATED_KEPT);
  localStorage.setItem(CREATED, JSON.stringify(kept));
}

/** @param {string} iso */
function whenMade(iso) {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? '' : at.toLocaleString(undefined, {dateStyle: 'medium', timeStyle: 'short'});
}

/** @param {Schemas['MyGame']} game @param {string} href */
function myGameItem(game, href) {
  const opponents = game.players
    .map((name, seat) => ({name, seat}))
    .filter((p) => p.seat !== game.seat)
    .map((p) => `${p.name}${(game.bots || []).includes(p.seat) ? ' (a bot)' : ''}`);
  const made = whenMade(game.created_at);
  return el(
    'li',
    {dataset: {game: game.game_id, status: game.status}},
    el('a', {href, text: game.title || game.ruleset}),
    el('span', {class: 'opponents', text: opponents.length ? ` against ${opponents.join(', ')}` : ''}),
    made ? el('span', {class: 'muted when'}, ' · ', el('time', {datetime: game.created_at, text: made})) : null,
    el('span', {class: 'standing', text: ` · ${standingText(game)}`}),
    game.awaits_you ? el('strong', {class: 'awaits-you', text: ' — your turn'}) : null,
  );
}

/** A game made here, as "My games" lists it: from its summary (and result, once over).
 * @param {Kept} kept @returns {Promise<Schemas['MyGame'] | null>} */
async function createdGame(kept) {
  const id = encodeURIComponent(kept.game_id);
  /** @type {Answer<Schemas['GameSummary']>} */
  const summary = await call('GET', `/games/${id}`);
  if (!summary.ok) return null;
  const s = summary.body;
  /** @type {Schemas['MyGame']} */
  const game = {
    game_id: s.game_id,
    ruleset: s.ruleset,
    title: s.title,
    status: s.status,
    seat: kept.seat,
    players: s.players,
    bots: [],
    created_at: s.created_at,
    awaits_you: s.status === 'active' && s.awaiting.includes(kept.seat),
    version: s.version,
    ranking: null,
  };
  if (s.status === 'finished') {
    /** @type {Answer<Schemas['Result']>} */
    const result = await call('GET', `/games/${id}/result`);
    if (result.ok) game.ranking = result.body.ranking;
  }
  return game;
}

export async function listMyGames() {
  const box = document.getElementById('my-games');
  const player = me();
  if (!box) return;
  /** @type {[Answer<Schemas['MyGames']> | null, [Kept, Schemas['MyGame'] | null][]]} */
  const [listed, made] = await Promise.all([
    player ? call('GET', '/players/me/games?limit=20', {token: player.key}) : Promise.resolve(null),
    Promise.all(
      createdHere().map(
        async (kept) => /** @type {[Kept, Schemas['MyGame'] | null]} */ ([kept, await createdGame(kept)]),
      ),
    ),
  ]);
  if (listed && !listed.ok) {
    fill(box, errorBox(listed));
    return;
  }
  /** @type {[string, HTMLLIElement][]} */
  const items = [];
  const seen = new Set();
  for (const game of listed && player ? listed.body.games : []) {
    seen.add(game.game_id);
    items.push([game.created_at, myGameItem(game, tableLink(game.game_id, player ? player.key : null))]);
  }
  for (const [kept, game] of made) {
    if (game && !seen.has(game.game_id))
      items.push([game.created_at, myGameItem(game, tableLink(game.game_id, kept.token))]);
  }
  items.sort((a, b) => String(b[0]).localeCompare(String(a[0]))); // the newest first
  fill(
    box,
    items.length
      ? el(
          'ul',
          {class: 'my-games'},
          items.map(([, item]) => item),
        )
      : el('p', {text: player ? 'No games yet.' : 'Be a player, or create a game, to see your games here.'}),
  );
}

export async function listOpenTables() {
  const box = document.getElementById('open-tables');
  if (!box) return;
  /** @type {Answer<Schemas['Lobby']>} */
  const listed = await call('GET', '/tables?limit=20');
  if (!listed.ok) {
    fill(box, errorBox(listed));
    return;
  }
  if (!listed.body.games.length) {
    fill(box, el('p', {text: 'No open tables: open one below, or play against bots.'}));
    return;
  }
  fill(
    box,
    el(
      'ul',
      {class: 'open-tables'},
      listed.body.games.map((game) =>
        el(
          'li',
          {dataset: {game: game.game_id}},
          `${game.ruleset}: ${game.open_seats.length} open seat(s) of ${game.players.length} `,
          el('button', {
            type: 'button',
            class: 'join',
            text: 'Join',
            on: {click: () => joinTable(game.game_id, null, box)},
          }),
        ),
      ),
    ),
  );
}

/** @param {string} gameId @param {string | null} invitation @param {HTMLElement} box */
export async function joinTable(gameId, invitation, box) {
  const player = await ensurePlayer(typedName());
  /** @type {Answer<Schemas['Claimed']>} */
  const claimed = await call('POST', `/games/${encodeURIComponent(gameId)}/claims`, {
    token: player.key,
    body: {invitation},
  });
  if (!claimed.ok) {
    fill(box, errorBox(claimed, 'You could not join: '));
    return;
  }
  location.hash = tableLink(gameId, claimed.body.seat_token).slice(1);
}

// --- the player's notifications --------------------------------------------------------

const NOTICE_KINDS = ['your_turn', 'game_started', 'game_finished', 'invitation'];
const POLL_MS = 15000;
/** The lobby's following of the player's notifications: its stream, or the polling instead,
 * and a refresh due.
 * @typedef {{source: EventSource | null, timer: ReturnType<typeof setInterval> | null, pending: ReturnType<typeof setTimeout> | null, refreshed: number}} Notices */
/** @type {Notices | null} */
let notices = null;

export function stopNotices() {
  if (!notices) return;
  if (notices.source) notices.source.close();
  if (notices.timer) clearInterval(notices.timer);
  if (notices.pending) clearTimeout(notices.pending);
  notices = null;
}

/** @param {Notices} mine */
function refreshMine(mine) {
  if (notices !== mine || mine.pending) return;
  mine.pending = setTimeout(() => {
    // a burst of notifications refreshes once
    mine.pending = null;
    if (notices !== mine) return;
    mine.refreshed += 1;
    document.body.dataset.noticeRefreshes = String(mine.refreshed);
    listMyGames();
    listOpenTables();
  }, 150);
}

/** The lobby follows the player's notifications: "My games" and the open tables are listed
 * again on each one. EventSource cannot send the player key, so the stream is opened with a
 * short-lived ticket; an EventSource reconnects by itself (Last-Event-ID), and only when the
 * stream cannot be had (no EventSource, no ticket, a stream closed for good after a new ticket
 * was tried) does the page poll instead.
 * @param {boolean} [retried] @returns {Promise<void>} */
export async function followMe(retried = false) {
  stopNotices();
  const player = me();
  if (!player || !document.getElementById('my-games')) return;
  /** @type {Notices} */
  const mine = {source: null, timer: null, pending: null, refreshed: 0};
  notices = mine;
  const poll = () => {
    if (notices !== mine || mine.timer) return;
    if (mine.source) {
      mine.source.close();
      mine.source = null;
    }
    document.body.dataset.notices = 'polling';
    mine.timer = setInterval(() => refreshMine(mine), POLL_MS);
  };
  if (typeof window.EventSource !== 'function') return poll();
  /** @type {Answer<Schemas['PlayerStreamTicket']>} */
  const ticket = await call('POST', '/players/me/stream-tickets', {token: player.key});
  if (notices !== mine) return;
  if (!ticket.ok) return poll();
  let opened = false;
  const source = new EventSource(ticket.body.stream_url);
  mine.source = source;
  source.addEventListener('open', () => {
    opened = true;
    if (notices === mine) document.body.dataset.notices = 'stream';
  });
  for (const kind of NOTICE_KINDS) source.addEventListener(kind, () => refreshMine(mine));
  source.addEventListener('error', () => {
    if (notices !== mine || source.readyState !== EventSource.CLOSED) return; // reconnecting
    if (opened && !retried)
      followMe(true); // a ticket past its hour: ask for a new one
    else poll();
  });
}
