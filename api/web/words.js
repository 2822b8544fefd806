// @ts-check
/* Words for people, made from what the API answers: no DOM, no network (unit-tested with
 * node --test in tests/words.test.js). */

/** @typedef {import('./api.d.ts').components['schemas']} Schemas */
/** @typedef {Schemas['RulesetDetail']} RulesetDetail */
/** @typedef {Schemas['ViewWord']} ViewWord */
/** @typedef {Schemas['Draw']} Draw */
/** @typedef {Schemas['NarrativeEntry']} NarrativeEntry */
/** @typedef {Schemas['Audit']} Audit */
/** @typedef {Schemas['Seating']} Seating */
/** @typedef {Schemas['MyGame']} MyGame */
/** @typedef {Schemas['ActionWords']} ActionWords */
/** @typedef {Record<string, unknown> & {type: string}} AnyCommand a command of any ruleset, read by its fields */
/** @typedef {{command: AnyCommand, expected_version?: number, words?: ActionWords | null}} Action a legal action, with its words */
/** @typedef {Pick<RulesetDetail, 'names'> & Partial<RulesetDetail>} Names what a ruleset names: ids to words */

export const SEAT_COLOURS = ['#d62728', '#1f77b4', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b'];
export const COLOUR_NAMES = ['red', 'blue', 'green', 'orange', 'purple', 'brown'];
const PLACE_WORDS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth'];
const ORDINALS = ['', '1st', '2nd', '3rd'];

/** The name of a colour by its number. @param {number} colour */
export function colourName(colour) {
  return COLOUR_NAMES[colour % COLOUR_NAMES.length] ?? '';
}

/** An event or command type as words: `hotw.ArmyPlaced` → `Army placed`. @param {unknown} type */
export function humanise(type) {
  const bare = String(type).split('.').pop() ?? '';
  const words = bare.includes('_') ? bare.split('_') : bare.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+/g) || [bare];
  const text = words.map((w) => (w.length > 1 && w === w.toUpperCase() ? w : w.toLowerCase())).join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** @param {string | null | undefined} text */
export function firstSentence(text) {
  const match = String(text || '').match(/^.*?[.!?](\s|$)/);
  return match ? match[0].trim() : String(text || '');
}

/** An id the pack does not name, read as words with capitals: `central-america` → `Central America`.
 * @param {string} value */
export function idWords(value) {
  const words = value.replace(/[-_]/g, ' ');
  return /^[a-z0-9]+([-_][a-z0-9]+)+$/.test(value) ? words.replace(/\b[a-z]/g, (c) => c.toUpperCase()) : words;
}

/** Any value as words, ids by the pack's names. @param {Names} info @param {unknown} value @returns {string} */
export function nameOf(info, value) {
  if (typeof value === 'string') return info.names?.[value] || idWords(value);
  if (Array.isArray(value)) return value.map((v) => nameOf(info, v)).join(', ');
  if (value === true) return 'yes';
  if (value === false) return 'no';
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'object') {
    return Object.entries(value)
      .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${nameOf(info, v)}`)
      .join('; ');
  }
  return String(value);
}

/** A command's arguments, its type left out. @param {Record<string, unknown>} command */
export function argsOf(command) {
  return Object.entries(command).filter(([key]) => key !== 'type');
}

/** @param {Names} info @param {AnyCommand} command */
export function actionLabel(info, command) {
  const args = argsOf(command);
  if (!args.length) return humanise(command.type);
  return args
    .map(([key, value]) => (typeof value === 'number' ? `${key.replace(/_/g, ' ')} ${value}` : nameOf(info, value)))
    .join(', ');
}

/** @param {AnyCommand} command */
export function actionKey(command) {
  return JSON.stringify(command);
}

/** The words of a legal action (the server's, else made here from its arguments).
 * @param {Names} info @param {Action} action @returns {ActionWords} */
export function wordsOf(info, action) {
  if (action.words) return action.words;
  const label = actionLabel(info, action.command);
  return {label, words: `${humanise(action.command.type)}: ${label}`};
}

/** `rulebook p. 5`, or nothing for a rule the rulebook does not print (page `?` or empty).
 * @param {string | null | undefined} page */
export function pageText(page) {
  return page && page !== '?' ? `rulebook p. ${page}` : '';
}

/** Where the rulebook says it: its page (and section) or, without a page, its section.
 * @param {string | null | undefined} page @param {string | null | undefined} section */
export function citation(page, section) {
  const p = pageText(page);
  if (p) return section ? `${p}, ${section}` : p;
  return section ? `rulebook, “${section}”` : '';
}

/** A chance draw as people read it: a die by the face rolled, else the n-th of N (1-based).
 * @param {Pick<Draw, 'n' | 'result'>} d */
export function drawText(d) {
  if (d.n === 6) return `a die rolled ${d.result + 1}`;
  return `drew number ${d.result + 1} of ${d.n}`;
}

/** @param {number} n */
export function ordinal(n) {
  return ORDINALS[n] || `${n}th`;
}

/** How a field of the view reads, from the ruleset's view schema (`info.view_words`, by the
 * field's path: `lands.*.owner`, `*` standing for any key of a mapping).
 * @param {Partial<RulesetDetail>} info @param {string} path @returns {ViewWord} */
export function viewWord(info, path) {
  const words = info.view_words || {};
  const exact = words[path];
  if (exact) return exact;
  const parts = path.split('.');
  const found = Object.keys(words).find((key) => {
    const want = key.split('.');
    return want.length === parts.length && want.every((part, i) => part === '*' || part === parts[i]);
  });
  return (found && words[found]) || {};
}

/** A field's name in words: the schema's label, a pack id by its name, else its name.
 * @param {Names} info @param {ViewWord} word @param {string} key */
export function viewLabel(info, word, key) {
  if (word.label) return word.label;
  if (info.names?.[key]) return info.names[key];
  return key.includes('-') ? idWords(key) : humanise(key);
}

/** A value in words: a seat by its player, a colour by its name, a ranking by places, a
 * number in the schema's phrase (`an Epoch 7 army`), an id by its name.
 * @param {Names} info @param {ViewWord} word @param {unknown} value @param {string[] | null} players
 * @returns {string} */
export function viewValue(info, word, value, players) {
  if (value === null && word.hidden) return word.hidden;
  if ((word.seat || word.colour) && typeof value === 'number') {
    if (word.colour) return colourName(value);
    return players?.[value] || `player ${value + 1}`;
  }
  if ((word.seat || word.colour) && Array.isArray(value)) {
    if (!value.length) return 'nobody';
    if (value.every(Array.isArray)) {
      return value
        .map(
          (group, i) =>
            `${PLACE_WORDS[i] || `${i + 1}th`}: ${group.map((/** @type {unknown} */ v) => viewValue(info, word, v, players)).join(' and ')}`,
        )
        .join('; ');
    }
    return value.map((v) => viewValue(info, word, v, players)).join(', ');
  }
  if (Array.isArray(value) && !value.length) return 'none';
  const said = nameOf(info, value);
  return word.value && value !== null && value !== undefined ? word.value.replace('{}', said) : said;
}

/** The versions taken back by an undo or a rewind among `entries`.
 * @param {Pick<NarrativeEntry, 'type' | 'data'>[]} entries */
export function undoneVersions(entries) {
  /** @type {Set<number>} */
  const undone = new Set();
  for (const entry of entries) {
    const d = entry.data || {};
    let from = null;
    if (entry.type === 'ActionsUndone') from = d.undone_from;
    if (entry.type === 'GameRewound') from = Number(d.to_version) + 1;
    if (from === null || from === undefined || d.undone_through === undefined) continue;
    for (let v = Number(from); v <= Number(d.undone_through); v += 1) undone.add(v);
  }
  return undone;
}

/** The dice lists of an event's data (its fields named like `*dice*`), in order.
 * @param {Record<string, unknown> | undefined} data @param {RegExp} [named] @returns {[string, unknown[]][]} */
export function diceOf(data, named = /dice/i) {
  /** @type {[string, unknown[]][]} */
  const found = [];
  for (const [key, value] of Object.entries(data || {}))
    if (named.test(key) && Array.isArray(value)) found.push([key, value]);
  return found;
}

/** Whose each die is ("Empire die 2", "Enemy die"), where the event's dice lists (its data's
 * *_dice, in order) are exactly its chance draws, all dice: else null (numbered instead).
 * @param {Pick<NarrativeEntry, 'data'>} entry @param {Draw[]} draws @returns {string[] | null} */
export function diceNames(entry, draws) {
  const lists = diceOf(entry.data, /dice$/i);
  const flat = lists.flatMap(([key, faces]) =>
    faces.map((face, j) => ({key, j, count: faces.length, face: Number(face)})),
  );
  if (!flat.length || flat.length !== draws.length) return null;
  if (flat.some((f, i) => draws[i]?.n !== 6 || (draws[i]?.result ?? -2) + 1 !== f.face)) return null;
  return flat.map((f) => `${humanise(f.key).replace(/ dice$/i, ' die')}${f.count > 1 ? ` ${f.j + 1}` : ''}`);
}

/** Each card once, with how many copies of it the hand holds, in the hand's order.
 * @param {string[]} ids @returns {[string, number][]} */
export function copies(ids) {
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const id of ids) counts.set(id, (counts.get(id) || 0) + 1);
  return [...counts];
}

/** A time left on a clock: `4:05`, or `1h 05m`. @param {number | null | undefined} ms */
export function clockText(ms) {
  if (ms === null || ms === undefined) return '';
  const left = Math.max(0, ms);
  const s = Math.floor(left / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h}h ${String(m).padStart(2, '0')}m` : `${m}:${String(s % 60).padStart(2, '0')}`;
}

/** What resigning does at this table (domain/core/seating.py): while another person is still
 * in the game a bot plays the seat's pieces to the end; the last person's resignation
 * abandons the table, and the game ends there. Either way the seat ranks last.
 * @param {Pick<Seating, 'seats'>} seating @param {number | null} seat */
export function resignWords(seating, seat) {
  const others = seating.seats.filter((other) => other.seat !== seat && other.person && !other.left);
  if (others.length) {
    const names = others.map((other) => other.name || other.label);
    const who =
      names.length === 1
        ? `${names[0]} plays on`
        : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]} play on`;
    return `Resign this game? A bot plays your pieces to the end, ${who}, and you rank last. You cannot take the seat back.`;
  }
  return 'Resign this game? No other person plays at this table, so the game ends now, with the scores as they stand, and you rank last.';
}

/** The audit's verdict in a sentence. @param {Audit} a */
export function auditWords(a) {
  if (a.chance === 'scripted') {
    return a.clean
      ? `Chance scripted, not committed: this sandbox's ${a.outcomes_checked} outcomes are the ones given for the what-if, in order; no seed stands behind them.`
      : `Chance scripted: ${a.mismatches.length} recorded outcomes are not the script's.`;
  }
  return a.clean
    ? `Verified: the seed matches the commitment published at the start, and all ${a.outcomes_checked} chance outcomes recompute from it.`
    : `Mismatch: ${a.mismatches.length} recorded outcomes do not follow from the seed${a.commitment_verified ? '' : ', and the seed does not match its commitment'}.`;
}

/** Where a game stands, for "My games": whose turn, or who won and where the player came.
 * @param {Pick<MyGame, 'status' | 'ranking' | 'seat'>} game */
export function standingText(game) {
  if (game.status === 'open') return 'waiting for players to sit';
  if (game.status !== 'finished') return 'under way'; // whose turn: the "your turn" beside it
  if (!game.ranking) return 'finished';
  const winners = game.ranking
    .filter((row) => row.place === 1)
    .map((row) => (row.seat === game.seat ? 'you' : row.player));
  const mine = game.ranking.find((row) => row.seat === game.seat);
  const won =
    winners.length > 1 ? `${winners.join(' and ')} tied first` : `${winners[0] === 'you' ? 'you' : winners[0]} won`;
  const came = mine && mine.place !== 1 ? `; you came ${ordinal(mine.place)} of ${game.ranking.length}` : '';
  const scores = game.ranking.map((row) => `${row.player} ${row.score}`).join(', ');
  return `finished: ${won}${came} (${scores})`;
}

/** Who made an event, in words. @param {Schemas['Actor']} actor @param {string[]} players */
export function actorWords(actor, players) {
  if (typeof actor === 'number') return `${players[actor] || `player ${actor + 1}`} (${colourName(actor)})`;
  return {system: 'the rules', worker: 'the rules', admin: 'the admin'}[actor] || humanise(String(actor));
}
