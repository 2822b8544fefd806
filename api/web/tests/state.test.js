import assert from 'node:assert/strict';
import {test} from 'node:test';

import {AT_MOST_MS, fetched, heard, noFold, noWants, QUIET_MS, want, wanted} from '../state.js';

test('a move played asks a fresh look; the stream asks for a version, the newest kept', () => {
  const fresh = want(noWants(), {});
  assert.deepEqual(fresh, {fresh: true, version: 0, seating: false});
  const streamed = want(want(noWants(), {version: 9}), {version: 7, seating: true});
  assert.deepEqual(streamed, {fresh: false, version: 9, seating: true});
});

test('another refresh is due for a fresh look, or a version newer than the table shows', () => {
  assert.equal(wanted({fresh: false, version: 9, seating: false}, 8), true);
  assert.equal(wanted({fresh: false, version: 9, seating: false}, 9), false);
  assert.equal(wanted({fresh: true, version: 0, seating: false}, 9), true);
});

test('the first event after a quiet spell is fetched at once', () => {
  const {fold, delay} = heard(noFold(), 5, false, 10_000, false);
  assert.equal(delay, 0);
  assert.deepEqual(fold, {version: 5, seating: false, due: true, first: 10_000, went: 10_000});
});

test('events close behind it wait for a quiet moment, and at most a second and a half', () => {
  let {fold} = heard(noFold(), 5, false, 10_000, false);
  fold = fetched(fold, 10_000).fold;
  const second = heard(fold, 6, true, 10_100, false);
  assert.equal(second.delay, QUIET_MS);
  const late = heard(second.fold, 7, false, 10_100 + AT_MOST_MS - 50, false);
  assert.equal(late.delay, 50);
  const {asked, fold: after} = fetched(late.fold, 11_600);
  assert.deepEqual(asked, {version: 7, seating: true});
  assert.deepEqual(after, {version: 7, seating: false, due: false, first: 0, went: 11_600});
});

test('an event heard while a refresh runs waits rather than going at once', () => {
  const {delay} = heard(noFold(), 5, false, 10_000, true);
  assert.equal(delay, QUIET_MS);
});
