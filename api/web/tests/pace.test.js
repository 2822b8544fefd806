import assert from 'node:assert/strict';
import {test} from 'node:test';

import {asksAgain, pauseMs, pauseWords, RETRIES, reconnectMs, reconnectWords} from '../pace.js';

test("a 429 or a 503 waits the server's Retry-After, at least a fifth of a second", () => {
  assert.equal(pauseMs('3', 0), 3000);
  assert.equal(pauseMs('0', 4), 200);
});

test('an unreadable Retry-After backs off, doubling from one second up to thirty', () => {
  assert.deepEqual(
    [0, 1, 2, 5, 9].map((attempt) => pauseMs('soon', attempt)),
    [1000, 2000, 4000, 30000, 30000],
  );
});

test('a 503 that names no time (a proxy) backs off as an unreadable one does', () => {
  assert.deepEqual(
    [0, 1, 3].map((attempt) => pauseMs(null, attempt)),
    [1000, 2000, 8000],
  );
  assert.equal(pauseMs('', 2), 4000);
  assert.equal(pauseMs(' 2 ', 0), 2000);
});

test('only a 429 or a 503 is asked again, and only so many times', () => {
  assert.equal(asksAgain(429, 0), true);
  assert.equal(asksAgain(503, RETRIES - 1), true);
  assert.equal(asksAgain(503, RETRIES), false);
  assert.equal(asksAgain(500, 0), false);
});

test('the header says what the page waits for', () => {
  assert.match(pauseWords(429, 2500), /slow down: it goes on by itself in 3 s/);
  assert.match(pauseWords(503, 1000), /busy: the page asks again in 1 s/);
});

test('a dropped feed reconnects after half a second, doubling, at most 30 s', () => {
  assert.deepEqual([1, 2, 3, 7, 20].map(reconnectMs), [500, 1000, 2000, 30000, 30000]);
  assert.match(reconnectWords(1000, 17), /reconnecting in 1 s \(the table above is as of version 17\)/);
});
