import assert from 'node:assert/strict';
import {test} from 'node:test';

import {
  actionLabel,
  actorWords,
  auditWords,
  citation,
  clockText,
  copies,
  diceNames,
  drawText,
  humanise,
  idWords,
  nameOf,
  ordinal,
  resignWords,
  standingText,
  undoneVersions,
  viewValue,
  viewWord,
} from '../words.js';

const info = {names: {'central-america': 'Central America', sumeria: 'Sumeria'}};

test('an event type reads as words, its namespace left out', () => {
  assert.equal(humanise('hotw.ArmyPlaced'), 'Army placed');
  assert.equal(humanise('end_expansion'), 'End expansion');
  assert.equal(humanise('GameRewound'), 'Game rewound');
});

test('an id the pack does not name reads with capitals; a named one by its name', () => {
  assert.equal(idWords('lower-egypt'), 'Lower Egypt');
  assert.equal(nameOf(info, 'central-america'), 'Central America');
  assert.equal(nameOf(info, ['sumeria', 'lower-egypt']), 'Sumeria, Lower Egypt');
  assert.equal(nameOf(info, {to_seat: true}), 'to seat: yes');
  assert.equal(nameOf(info, null), 'none');
});

test('an action without words is labelled by its arguments', () => {
  assert.equal(actionLabel(info, {type: 'choose_empire_card', empire: 'sumeria'}), 'Sumeria');
  assert.equal(actionLabel(info, {type: 'bid', amount: 3}), 'amount 3');
  assert.equal(actionLabel(info, {type: 'pass'}), 'Pass');
});

test('a rule is cited by its page, else by its section, else not at all', () => {
  assert.equal(citation('12', 'Invasion'), 'rulebook p. 12, Invasion');
  assert.equal(citation('?', 'Invasion'), 'rulebook, “Invasion”');
  assert.equal(citation('', ''), '');
});

test('a die is read by its face, another draw by its place among N', () => {
  assert.equal(drawText({n: 6, result: 5}), 'a die rolled 6');
  assert.equal(drawText({n: 40, result: 0}), 'drew number 1 of 40');
});

test('a seat in the view reads as its player, a colour by its name, a ranking by places', () => {
  const players = ['ann', 'bob'];
  assert.equal(viewValue(info, {seat: true}, 1, players), 'bob');
  assert.equal(viewValue(info, {colour: true}, 2, players), 'green');
  assert.equal(viewValue(info, {seat: true}, [[0], [1]], players), 'first: ann; second: bob');
  assert.equal(viewValue(info, {value: 'an Epoch {} army'}, 7, players), 'an Epoch 7 army');
  assert.equal(viewValue(info, {hidden: 'face down'}, null, players), 'face down');
});

test('a field of the view finds its words through a * standing for any key', () => {
  const words = {view_words: {'lands.*.owner': {label: 'Owner', seat: true}}};
  assert.deepEqual(viewWord(words, 'lands.egypt.owner'), {label: 'Owner', seat: true});
  assert.deepEqual(viewWord(words, 'lands.egypt'), {});
});

test('an undo and a rewind take back the versions they name', () => {
  const undone = undoneVersions([
    {type: 'ActionsUndone', data: {undone_from: 4, undone_through: 5}},
    {type: 'GameRewound', data: {to_version: 8, undone_through: 10}},
  ]);
  assert.deepEqual([...undone], [4, 5, 9, 10]);
});

test('dice are named by their list when they are exactly the draws, else not', () => {
  const entry = {data: {empire_dice: [3, 5], enemy_dice: [2]}};
  const draws = [
    {k: 1, n: 6, result: 2},
    {k: 2, n: 6, result: 4},
    {k: 3, n: 6, result: 1},
  ];
  assert.deepEqual(diceNames(entry, draws), ['Empire die 1', 'Empire die 2', 'Enemy die']);
  assert.equal(diceNames(entry, draws.slice(0, 2)), null);
});

test('a hand counts its copies in order; places read as ordinals', () => {
  assert.deepEqual(copies(['a', 'b', 'a']), [
    ['a', 2],
    ['b', 1],
  ]);
  assert.equal(ordinal(2), '2nd');
  assert.equal(ordinal(11), '11th');
});

test('a clock reads as minutes and seconds, or hours and minutes, never below zero', () => {
  assert.equal(clockText(65000), '1:05');
  assert.equal(clockText(3723000), '1h 02m');
  assert.equal(clockText(-5), '0:00');
  assert.equal(clockText(null), '');
});

test('resigning says who plays on, or that the game ends', () => {
  const seat = (n, name, person = true) => ({seat: n, name, label: name, person, left: null});
  assert.match(resignWords({seats: [seat(0, 'ann'), seat(1, 'bob')]}, 0), /bob plays on/);
  assert.match(resignWords({seats: [seat(0, 'ann'), seat(1, 'Bot 1', false)]}, 0), /the game ends now/);
});

test('the audit says verified, or how many outcomes do not follow', () => {
  const audit = {chance: 'committed', clean: true, outcomes_checked: 12, mismatches: [], commitment_verified: true};
  assert.match(auditWords(audit), /all 12 chance outcomes recompute/);
  assert.match(
    auditWords({...audit, clean: false, commitment_verified: false, mismatches: [{}]}),
    /1 recorded outcomes/,
  );
});

test('a finished game in My games says who won and where the player came', () => {
  const ranking = [
    {seat: 1, player: 'bob', place: 1, score: 30},
    {seat: 0, player: 'ann', place: 2, score: 20},
  ];
  assert.equal(
    standingText({status: 'finished', seat: 0, ranking}),
    'finished: bob won; you came 2nd of 2 (bob 30, ann 20)',
  );
  assert.equal(standingText({status: 'open', seat: 0, ranking: null}), 'waiting for players to sit');
});

test('an event is made by a player with a colour, or by the rules', () => {
  assert.equal(actorWords(1, ['ann', 'bob']), 'bob (blue)');
  assert.equal(actorWords('worker', []), 'the rules');
});
