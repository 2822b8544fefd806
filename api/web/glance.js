// @ts-check
/* The game at a glance, in words, from what the table holds: when it is, who is awaited, who
 * plays what, the scores, the seat's cards and goods, who won. Pure (tests/glance.test.js). */

import {argsOf, colourName, humanise, ordinal} from './words.js';

/** @typedef {import('./api.d.ts').components['schemas']} Schemas */
/** What these words read of a table.
 * @typedef {Pick<import('./state.js').Table, 'summary' | 'seat' | 'state' | 'legal' | 'result'> & {info: Pick<Schemas['RulesetDetail'], 'names' | 'cards'>}} Seen */

const ROMAN = ['', 'I', 'II', 'III', 'IV', 'V', 'VI', 'VII'];
/** @type {[string, string][]} */
const SCORES = [
  ['gold', 'gold'],
  ['points', 'points'],
  ['culture', 'Culture'],
];
const HAND_KEYS = [
  'hand',
  'empire_cards',
  'event_cards',
  'area_tokens',
  'building_tiles',
  'prosperity',
  'honor_track',
  'pool_honors',
];
const CARD_ARGS = ['card', 'empire', 'honor', 'token', 'building', 'ability'];
/** @type {Record<string, string>} */
const GOODS = {coin: 'Coin', food: 'Food', resource: 'Resources', culture: 'Culture', votes: 'Votes'};

/** @param {unknown} value @returns {Record<string, any>} a part of a view, read field by field */
function part(value) {
  return value && typeof value === 'object' ? /** @type {Record<string, any>} */ (value) : {};
}

/** The seats the game waits for: none once it is over (a table abandoned mid-turn included).
 * @param {Seen} t @returns {Set<number>} */
export function awaitedSeats(t) {
  return new Set(t.summary.status === 'finished' ? [] : t.summary.awaiting);
}

/** Who won, in a sentence: "Bot 1 won with 12 points; you came 2nd of 3." @param {Seen} t */
export function winnerText(t) {
  const result = t.result;
  const firsts = result ? result.ranking.filter((row) => row.place === 1) : [];
  const first = firsts[0];
  if (!result || !first) return 'The game is over.';
  /** @param {Schemas['Standing']} row */
  const name = (row) => (row.seat === t.seat ? 'you' : row.player);
  const counted = SCORES.find(([key]) => Array.isArray(t.summary.summary?.[key]));
  const unit = counted ? ` ${counted[1]}` : '';
  const won =
    firsts.length > 1
      ? `${firsts.map(name).join(' and ')} share first place with ${first.score}${unit}`
      : `${name(first).replace(/^you$/, 'You')} won with ${first.score}${unit}`;
  const mine = result.ranking.find((row) => row.seat === t.seat);
  const came = mine && mine.place !== 1 ? `; you came ${ordinal(mine.place)} of ${result.ranking.length}` : '';
  return `The game is over: ${won.charAt(0).toUpperCase()}${won.slice(1)}${came}.`;
}

/** Each player's score as the summary counts it: [what, per seat] (colours summed by player).
 * @param {Seen} t @returns {[string | null, unknown[]]} */
export function scores(t) {
  const s = t.summary.summary || {};
  const n = t.summary.players.length;
  if (t.result && Array.isArray(t.result.scores)) return ['(final score)', t.result.scores];
  for (const [key, what] of SCORES) {
    const counted = s[key];
    if (!Array.isArray(counted)) continue;
    const per = Array(n).fill(0);
    counted.forEach((value, i) => {
      per[i % n] += Number(value) || 0;
    });
    return [what, per];
  }
  return [null, []];
}

/** When the game is: "Epoch III · Round 2 · Expansion". @param {Seen} t */
export function whenText(t) {
  const s = part(t.summary.summary);
  const parts = [];
  if (s.epoch) parts.push(`Epoch ${ROMAN[s.epoch] || s.epoch}`);
  if (s.era) parts.push(`Era ${ROMAN[s.era] || s.era}`);
  if (s.round) parts.push(`Round ${s.round}`);
  if (s.stage && s.stage !== 'turns') parts.push(humanise(s.stage));
  if (s.phase) parts.push(humanise(String(s.phase)));
  return parts.join(' · ');
}

/** The colours a seat plays: Brief deals several to each player (its view says which);
 * elsewhere a seat is its one colour. @param {Seen} t @param {number} seat @returns {number[]} */
export function coloursOf(t, seat) {
  const players = t.state && Array.isArray(t.state.players) ? t.state.players : [];
  const listed = part(players[seat]).colours;
  return Array.isArray(listed) && listed.length ? listed : [seat];
}

/** The Empire being played now, and by whom: "Now: Phonacia, played by ann" (Brief: "by
 * ann's green"), from the view's turn; null between turns. @param {Seen} t */
export function playingText(t) {
  const turn = t.state?.turn;
  if (!turn || typeof turn !== 'object') return null;
  const now = part(turn);
  /** @type {string | undefined} */
  const id = [now.empire, now.card].find((v) => typeof v === 'string' && v);
  if (!id) return null;
  const name = t.info.names?.[id] || humanise(id);
  const players = t.summary.players;
  let by = null;
  if (typeof now.colour === 'number') {
    const colours = Array.isArray(part(t.state).colours) ? part(t.state).colours : [];
    const owner = part(colours[now.colour]).seat;
    const colour = colourName(now.colour);
    by = typeof owner === 'number' ? `${owner === t.seat ? 'your' : `${players[owner]}'s`} ${colour}` : colour;
  } else if (typeof now.seat === 'number') {
    by = now.seat === t.seat ? 'you' : players[now.seat];
  }
  const armies = now.armies_left;
  const left = typeof armies === 'number' ? `; ${armies} ${armies === 1 ? 'army' : 'armies'} left to place` : '';
  return `Now: ${name}${by ? `, played by ${by}` : ''}${left}.`;
}

/** The seat's own part of the view. @param {Seen} t */
function mineOf(t) {
  const players = t.state && t.seat !== null && t.state.players ? part(t.state.players) : null;
  return players && t.seat !== null && players[t.seat] ? part(players[t.seat]) : null;
}

/** The colours of the view, each with its seat. @param {Seen} t @returns {Record<string, any>[]} */
function colourParts(t) {
  const colours = part(t.state).colours;
  return Array.isArray(colours) ? colours.map(part) : [];
}

/** The cards (tiles, tokens) the seat holds: [title, ids] per kind, from its view; then the
 * cards an action offers that the seat does not hold, to choose from.
 * @param {Seen} t @returns {[string, string[]][]} */
export function handOf(t) {
  const me = mineOf(t);
  if (!me) return [];
  const cards = t.info.cards || {};
  const names = t.info.names || {};
  /** @param {unknown} id */
  const known = (id) => typeof id === 'string' && (cards[id] || names[id]);
  /** @type {[string, string[]][]} */
  const found = [];
  for (const key of HAND_KEYS) {
    const ids = me[key];
    if (Array.isArray(ids) && ids.length && ids.every(known)) found.push([humanise(key), ids]);
  }
  for (const colour of colourParts(t)) {
    if (colour.seat === t.seat && colour.empire) {
      found.push([`Empire of your ${colourName(colour.colour)} colour`, [colour.empire]]);
    }
  }
  const shown = new Set(found.flatMap(([, ids]) => ids));
  /** @type {string[]} */
  const offered = [];
  for (const action of t.legal?.actions || []) {
    for (const [key, value] of argsOf(action.command)) {
      if (!CARD_ARGS.includes(key)) continue;
      if (typeof value === 'string' && cards[value] && !shown.has(value)) {
        shown.add(value);
        offered.push(value);
      }
    }
  }
  if (offered.length) found.push(['To choose from', offered]);
  return found;
}

/** The seat's gold, points, people and goods: [what, how many]. @param {Seen} t @returns {[string, unknown][]} */
export function goodsOf(t) {
  const me = mineOf(t);
  if (!me) return [];
  /** @type {[string, unknown][]} */
  const found = [];
  if (typeof me.gold === 'number') found.push(['Gold', me.gold]);
  if (typeof me.points === 'number' && scores(t)[0] === null) found.push(['Points', me.points]); // else the players' row shows them
  if (typeof me.supply === 'number') found.push(['People in supply', me.supply]);
  for (const colour of colourParts(t)) {
    if (colour.seat === t.seat) found.push([`Gold (${colourName(colour.colour)})`, colour.gold]);
  }
  for (const [key, value] of Object.entries(part(me.goods))) found.push([GOODS[key] || humanise(key), value]);
  return found;
}

/** What the game waits for, and from whom; for the seat, what it is asked to do. @param {Seen} t */
export function awaitedText(t) {
  const s = t.summary;
  if (s.status === 'finished') return winnerText(t);
  if (s.status === 'closing') return 'The rules are closing the epoch; the table goes on in a moment.';
  const procedures = t.legal?.table_actions || [];
  const proposal = procedures.find((a) => a.command.type === 'accept_rewind');
  if (proposal) return 'A rewind is proposed: answer it (accept or refuse) below or in "At the table".';
  if (t.legal?.your_turn) {
    const kinds = [...new Set(t.legal.actions.map((a) => humanise(a.command.type)))];
    return `Your turn: ${kinds.slice(0, 4).join(', ')}${kinds.length > 4 ? ', …' : ''}.`;
  }
  return waitingText(t);
}

/** "Waiting for ann, bob." @param {Seen} t */
export function waitingText(t) {
  const s = t.summary;
  const waiting = s.awaiting.map((seat) => s.players[seat]).join(', ');
  return waiting ? `Waiting for ${waiting}.` : 'Waiting.';
}

/** The banner: the seat's turn, or its answer to a rewind; null when nothing is asked of it.
 * @param {Seen} t */
export function yourTurnText(t) {
  const s = t.summary;
  const over = s.status === 'finished'; // legal actions fetched a moment before the end offer nothing now
  if (over || !t.legal || t.seat === null) return null;
  const answer = (t.legal.table_actions || []).some((a) => a.command.type === 'accept_rewind');
  if (!t.legal.your_turn && !answer) return null;
  return answer && !t.legal.your_turn
    ? `Your answer, ${s.players[t.seat]}: a rewind`
    : `Your turn, ${s.players[t.seat]}`;
}
