// @ts-check
/* When to ask the server again: its `Retry-After` on a 429 or a 503, a doubling pause for a
 * live feed that keeps dropping. Pure (unit-tested in tests/pace.test.js). */

/** How many times a call waits and asks again before it gives the page the server's answer. */
export const RETRIES = 6;

/** How long to wait before asking again: the server's `Retry-After` (seconds; at least 0.2),
 * else a backoff doubling from one second up to 30 (a 503 may come from a proxy that names no
 * time). An absent, empty or unreadable header counts as none.
 * @param {string | null} retryAfter the header as sent (null: none) @param {number} attempt 0 first */
export function pauseMs(retryAfter, attempt) {
  const text = (retryAfter ?? '').trim();
  const said = text === '' ? Number.NaN : Number(text);
  const backoff = Math.min(30, 2 ** attempt);
  return 1000 * (Number.isFinite(said) && said >= 0 ? Math.max(said, 0.2) : backoff);
}

/** Whether an answer of this status is asked again (after a pause), on this attempt.
 * @param {number} status @param {number} attempt */
export function asksAgain(status, attempt) {
  return (status === 429 || status === 503) && attempt < RETRIES;
}

/** What the header says while the page waits for the server. @param {number} status @param {number} ms */
export function pauseWords(status, ms) {
  const seconds = Math.ceil(ms / 1000);
  return status === 429
    ? `The server asks this page to slow down: it goes on by itself in ${seconds} s.`
    : `The server is busy: the page asks again in ${seconds} s.`;
}

/** The pause before opening a dropped live feed again: half a second, doubling with each
 * failure in a row, at most 30 s. @param {number} failures in a row, 1 for the first */
export function reconnectMs(failures) {
  return Math.min(30000, 500 * 2 ** Math.min(6, failures - 1));
}

/** What the header says while the live feed is down. @param {number} ms @param {number} version */
export function reconnectWords(ms, version) {
  return `The live feed dropped: reconnecting in ${Math.ceil(ms / 1000)} s (the table above is as of version ${version}).`;
}
