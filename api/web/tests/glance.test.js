import assert from 'node:assert/strict';
import {test} from 'node:test';

import {awaitedText, coloursOf, handOf, playingText, scores, whenText, winnerText, yourTurnText} from '../glance.js';

/** A table as the glance reads it. @param {Record<string, any>} over @returns {any} */
function seen(over = {}) {
  return {
    summary: {status: 'active', players: ['ann', 'bob'], awaiting: [1], summary: {epoch: 3, round: 2}, version: 4},
    seat: 0,
    state: null,
    legal: null,
    result: null,
    info: {names: {sumeria: 'Sumeria'}, cards: {sumeria: 'Empire of Epoch I'}},
    ...over,
  };
}

test('when the game is, in Roman epochs', () => {
  assert.equal(whenText(seen()), 'Epoch III · Round 2');
});

test('whom the game waits for, by name', () => {
  assert.equal(awaitedText(seen()), 'Waiting for bob.');
});

test('scores are summed per player over their colours', () => {
  const t = seen({summary: {...seen().summary, summary: {gold: [1, 2, 3, 4]}}});
  assert.deepEqual(scores(t), ['gold', [4, 6]]);
});

test('a Brief seat plays the colours its view lists, others their own', () => {
  const t = seen({state: {players: [{colours: [0, 2]}, {}]}});
  assert.deepEqual(coloursOf(t, 0), [0, 2]);
  assert.deepEqual(coloursOf(t, 1), [1]);
});

test('the Empire being played now, and by whom', () => {
  const t = seen({state: {turn: {empire: 'sumeria', seat: 1, armies_left: 1}}});
  assert.equal(playingText(t), 'Now: Sumeria, played by bob; 1 army left to place.');
});

test('the cards an action offers join the hand, to choose from', () => {
  const legal = {
    your_turn: true,
    actions: [{command: {type: 'choose_empire_card', empire: 'sumeria'}}],
    table_actions: [],
  };
  const t = seen({state: {players: [{hand: []}, {}]}, legal});
  assert.deepEqual(handOf(t), [['To choose from', ['sumeria']]]);
  assert.equal(yourTurnText(t), 'Your turn, ann');
  assert.equal(awaitedText(t), 'Your turn: Choose empire card.');
});

test('who won, and where the seat came', () => {
  const ranking = [
    {seat: 1, player: 'bob', place: 1, score: 12},
    {seat: 0, player: 'ann', place: 2, score: 9},
  ];
  const t = seen({
    result: {ranking, scores: [9, 12], tie_breaks: []},
    summary: {...seen().summary, summary: {points: [9, 12]}},
  });
  assert.equal(winnerText(t), 'The game is over: Bob won with 12 points; you came 2nd of 2.');
});
