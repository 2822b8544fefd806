// @ts-check
/* What a table page holds, and how it changes: the refreshes it wants and the stream's events
 * it folds together. The transitions are pure (unit-tested in tests/state.test.js); timers and
 * requests are left to table.js and stream.js. */

/** @typedef {import('./api.d.ts').components['schemas']} Schemas */
/** @typedef {import('./words.js').Action} Action */

/** The stream's events heard close together are fetched together: at most this quiet spell… */
export const QUIET_MS = 250;
/** …and at least this often while bots play on. */
export const AT_MOST_MS = 1500;
/** The log shows this many last lines. */
export const LOG_LENGTH = 25;

/** What a refresh is asked for: a fresh look (a move played), a version the stream named, the
 * seats (a seating event came).
 * @typedef {{fresh: boolean, version: number, seating: boolean}} Wants */

/** The stream's events not fetched yet: the newest version heard, whether a seating event was
 * among them, whether a fetch is due (a timer runs), when the first of them and the last fetch
 * came.
 * @typedef {{version: number, seating: boolean, due: boolean, first: number, went: number}} Fold */

/** The legal actions of the seat, each with its words.
 * @typedef {Omit<Schemas['LegalActions'], 'actions' | 'table_actions'> & {actions: Action[], table_actions: Action[]}} Legal */

/** A table being played or watched.
 * @typedef {object} Table
 * @property {string} gameId
 * @property {string | null} token the seat's token; null once refused (or watching)
 * @property {boolean} refused the seat's link was refused: watching instead
 * @property {Schemas['RulesetDetail']} info
 * @property {Schemas['GameSummary']} summary
 * @property {number | null} seat
 * @property {number} version the version the table shows
 * @property {number | null} shownVersion the version whose board and view are drawn
 * @property {Legal | null} legal
 * @property {Promise<void> | null} running the refresh under way
 * @property {boolean} refreshing
 * @property {boolean} posting a command on its way
 * @property {boolean} closed the page left this table
 * @property {number} refreshedAt
 * @property {Wants} wants
 * @property {Fold} fold
 * @property {ReturnType<typeof setTimeout> | null} foldTimer
 * @property {EventSource | null} stream
 * @property {number} streams how many streams were opened
 * @property {number} streamFailures in a row
 * @property {ReturnType<typeof setInterval> | null} watch
 * @property {Schemas['NarrativeEntry'][]} log
 * @property {number} logTo
 * @property {Schemas['Seating'] | null} seating
 * @property {boolean} clocked
 * @property {Schemas['Result'] | null} result
 * @property {Record<string, unknown> | null} state the view
 * @property {string | null} boardText the drawing shown
 * @property {(() => void)[]} boardMarks what undoes the marking of the drawing shown
 * @property {import('./focus.js').Spot | null} playedFrom
 * @property {(asked?: {version?: number, seating?: boolean}) => Promise<void>} refresh the table
 *   fetched again (table.js owns the one refresh in flight; the modules drawing it ask it here)
 * @property {() => void} markReady whether the page has shown all it heard, said again
 */

/** @returns {Wants} */
export function noWants() {
  return {fresh: false, version: 0, seating: false};
}

/** @returns {Fold} */
export function noFold() {
  return {version: 0, seating: false, due: false, first: 0, went: 0};
}

/** A refresh asked for: a version (from the stream), else a fresh look; the seats too or not.
 * @param {Wants} wants @param {{version?: number, seating?: boolean}} asked @returns {Wants} */
export function want(wants, {version = 0, seating = false}) {
  return {
    fresh: wants.fresh || !version,
    version: version ? Math.max(wants.version, version) : wants.version,
    seating: wants.seating || seating,
  };
}

/** Whether another refresh is due, with the table at `version`. @param {Wants} wants @param {number} version */
export function wanted(wants, version) {
  return wants.fresh || wants.version > version;
}

/** A stream's event heard: how long until the events heard are fetched. The first event after a
 * quiet spell is fetched at once; those that follow it closely once the stream is quiet for a
 * moment, and at least every AT_MOST_MS. `refreshing`: a refresh is under way.
 * @param {Fold} fold @param {number} version @param {boolean} seating @param {number} now @param {boolean} refreshing
 * @returns {{fold: Fold, delay: number}} */
export function heard(fold, version, seating, now, refreshing) {
  const next = {...fold, version: Math.max(fold.version, version), seating: fold.seating || seating, due: true};
  if (!fold.due && !refreshing && now - fold.went > QUIET_MS) {
    return {fold: {...next, went: now, first: now}, delay: 0};
  }
  const first = fold.first || now;
  return {fold: {...next, first}, delay: Math.max(0, Math.min(QUIET_MS, first + AT_MOST_MS - now))};
}

/** The events heard are fetched now: what to ask the refresh for.
 * @param {Fold} fold @param {number} now @returns {{fold: Fold, asked: {version: number, seating: boolean}}} */
export function fetched(fold, now) {
  return {
    fold: {...fold, went: now, due: false, first: 0, seating: false},
    asked: {version: fold.version, seating: fold.seating},
  };
}
