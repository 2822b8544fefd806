// @ts-check
/* The seat's actions: its buttons, grouped by command, the places of the board and the cards
 * and players of the dashboard that name one, the chooser where a spot names several, the
 * table's own procedures (undo, rewind), and playing one. */

import {clearPreview, placeNode, placesOf, previewPatch} from './board.js';
import {call} from './client.js';
import {$, $$, el, errorBox, fill, need} from './dom.js';
import {focusSpot, showWhereNamed} from './focus.js';
import {handOf, waitingText} from './glance.js';
import {actionKey, argsOf, firstSentence, humanise, wordsOf} from './words.js';

/** @typedef {import('./api.d.ts').components['schemas']} Schemas */
/** @typedef {import('./state.js').Table} Table */
/** @typedef {import('./words.js').Action} Action */
/** @template K, V @typedef {Map<K, V[]>} Many */

/** @param {Table} t */
export function renderActions(t) {
  const box = need('#actions');
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  const focusedKey = active?.dataset ? active.dataset.action : null;
  const focusWasHere = box.contains(active);
  fill(box);
  const status = t.summary.status;
  const svg = /** @type {SVGSVGElement | null} */ ($('#board svg'));
  if (!t.token || !t.legal) {
    markTargets(t, svg, new Map()); // a kept board offers nothing it offered before
    if (!t.token && !t.refused) {
      box.append(el('p', {class: 'muted', text: "You are watching: open a seat's join link to play it."}));
    }
    return;
  }
  const legal = t.legal;
  if (status === 'closing') {
    box.append(
      el('p', {
        class: 'notice',
        role: 'status',
        text: 'The rules are closing the epoch; the table goes on in a moment.',
      }),
    );
  }
  const mine = t.seating && t.seat !== null ? t.seating.seats[t.seat] : null;
  const gone = mine?.left ? (mine.left === 'resigned' ? 'you resigned' : 'your time ran out') : null;
  if (status === 'finished') {
    const over = gone ? `The game is over: ${gone}, and you rank last.` : 'The game is over.';
    box.append(el('p', {class: 'notice', id: 'over', text: over}));
    markTargets(t, svg, new Map());
    return;
  } else if (gone) {
    const text = `${gone.charAt(0).toUpperCase()}${gone.slice(1)}: a bot plays your pieces to the end, and you rank last.`;
    box.append(el('p', {class: 'notice', id: 'gone', text}));
  } else if (!legal.your_turn) {
    box.append(el('p', {class: 'muted', text: waitingText(t)}));
  }
  const specs = new Map(t.info.commands.map((spec) => [spec.type, spec]));
  /** @type {Many<string, Action>} */
  const groups = new Map();
  /** @type {Many<string, Action>} */
  const targets = new Map();
  /** @type {Many<string, Action>} */
  const cards = new Map();
  /** @type {Many<number, Action>} */
  const seats = new Map();
  /** @template K @param {Many<K, Action>} map @param {K} key @param {Action} action */
  const add = (map, key, action) => {
    const found = map.get(key);
    if (found) found.push(action);
    else map.set(key, [action]);
  };
  for (const action of legal.actions) add(groups, action.command.type, action);
  const held = new Set(handOf(t).flatMap(([, ids]) => ids));
  for (const [type, actions] of groups) {
    const spec = specs.get(type);
    const headingId = `group-${type}`;
    const buttons = actions.map((action) => {
      if (svg) for (const place of placesOf(svg, action.command, t.seat)) add(targets, place, action);
      for (const [key, value] of argsOf(action.command)) {
        if (typeof value === 'string' && held.has(value)) add(cards, value, action);
        if (['to', 'seat', 'target_seat'].includes(key) && Number.isInteger(value)) add(seats, Number(value), action);
      }
      const c = action.command;
      /** @type {Record<string, string>} */
      const spot = {};
      if (Number.isInteger(c.row) && Number.isInteger(c.col)) spot.square = `${c.row},${c.col}`;
      if (Number.isInteger(c.tile)) spot.offer = String(c.tile);
      return el('button', {
        type: 'button',
        class: 'action',
        dataset: {
          action: actionKey(action.command),
          type,
          args: JSON.stringify(Object.fromEntries(argsOf(action.command))),
          ...spot,
        },
        on: {click: () => play(t, action)},
        text: wordsOf(t.info, action).label,
      });
    });
    box.append(
      el(
        'div',
        {class: 'group', role: 'group', 'aria-labelledby': headingId, dataset: {type}},
        el('h3', {id: headingId, text: humanise(type)}),
        spec?.description ? el('p', {text: firstSentence(spec.description)}) : null,
        el('div', {class: 'buttons'}, buttons),
      ),
    );
  }
  box.append(tableProcedures(t, legal));
  markTargets(t, svg, targets);
  markDashboard(t, cards, seats);
  if (focusedKey) {
    const again = $(`[data-action="${CSS.escape(focusedKey)}"]`, box);
    if (again) again.focus();
    else if (focusWasHere) {
      const firstAction = $('button.action', box);
      if (firstAction) firstAction.focus();
    }
  }
}

/** Undo, and proposing or answering a rewind. @param {Table} t @param {import('./state.js').Legal} legal */
function tableProcedures(t, legal) {
  const actions = legal.table_actions || [];
  const byType = new Map(actions.map((a) => [a.command.type, a]));
  const group = el(
    'div',
    {class: 'group table-procedures', role: 'group', 'aria-labelledby': 'group-table'},
    el('h3', {id: 'group-table', text: 'At the table'}),
  );
  const buttons = el('div', {class: 'buttons'});
  group.append(buttons);
  const undo = byType.get('undo');
  if (undo) {
    buttons.append(
      el('button', {
        type: 'button',
        class: 'action table',
        id: 'undo',
        dataset: {action: 'undo', type: 'undo'},
        on: {click: () => play(t, undo)},
        text: 'Undo my last action',
      }),
    );
  }
  for (const type of ['accept_rewind', 'refuse_rewind']) {
    const answer = byType.get(type);
    if (answer) {
      buttons.append(
        el('button', {
          type: 'button',
          class: 'action table',
          id: type.replace('_', '-'),
          dataset: {action: type, type},
          on: {click: () => play(t, answer)},
          text: type === 'accept_rewind' ? 'Accept the rewind' : 'Refuse the rewind',
        }),
      );
    }
  }
  const proposal = byType.get('propose_rewind');
  if (proposal) {
    const field = el('input', {
      type: 'number',
      id: 'rewind-to',
      min: 1,
      max: t.version,
      value: proposal.command.to_version,
      'aria-describedby': 'rewind-hint',
    });
    /** @returns {Action} */
    const proposed = () => ({
      command: {type: 'propose_rewind', to_version: Number(field.value)},
      expected_version: proposal.expected_version,
    });
    group.append(
      el(
        'div',
        {class: 'field'},
        el('label', {for: 'rewind-to', text: 'Go back to version'}),
        field,
        ' ',
        el('button', {
          type: 'button',
          class: 'action table',
          id: 'propose-rewind',
          dataset: {action: 'propose_rewind', type: 'propose_rewind'},
          on: {click: () => play(t, proposed())},
          text: 'Propose',
        }),
        el('span', {
          class: 'hint',
          id: 'rewind-hint',
          text: 'Every other seat must accept; the end of a command only.',
        }),
      ),
    );
  }
  if (!buttons.childElementCount && !proposal) {
    group.append(el('p', {class: 'muted', text: 'Nothing to undo or rewind now.'}));
  }
  return group;
}

/** A spot that names actions plays the one it names, or opens the chooser for several.
 * @param {Table} t @param {HTMLElement | SVGElement} node @param {Action[]} actions */
function activator(t, node, actions) {
  /** @param {Event} event */
  return (event) => {
    event.preventDefault();
    const only = actions.length === 1 ? actions[0] : null;
    if (only) play(t, only);
    else openChooser(t, node, actions);
  };
}

/** The places of the board that name actions: outlined, focusable, and played by a click or
 * Enter. @param {Table} t @param {SVGSVGElement | null} svg @param {Many<string, Action>} targets */
function markTargets(t, svg, targets) {
  if (!svg) return;
  // A drawing kept from the last position still carries what that marking did: undo it all
  // (listeners included), latest first, so no place plays an action of a position gone by.
  for (const undo of t.boardMarks.reverse()) undo();
  t.boardMarks = [];
  const marks = t.boardMarks;
  /** @param {Element} node @param {string} type @param {EventListener} handler */
  const listen = (node, type, handler) => {
    node.addEventListener(type, handler);
    marks.push(() => node.removeEventListener(type, handler));
  };
  /** @param {Element} node @param {string} name @param {string} value */
  const mark = (node, name, value) => {
    const was = node.getAttribute(name);
    node.setAttribute(name, value);
    marks.push(() => (was === null ? node.removeAttribute(name) : node.setAttribute(name, was)));
  };
  for (const node of svg.querySelectorAll('.target')) {
    node.classList.remove('target');
    node.removeAttribute('tabindex');
    node.removeAttribute('role');
    node.removeAttribute('aria-label');
  }
  const patching = [...targets.values()].some((actions) => actions.some((a) => a.command.type === 'patch'));
  const box = need('#board');
  let note = $('#patch-note');
  if (patching && !note) {
    note = el('p', {
      id: 'patch-note',
      class: 'notice',
      role: 'status',
      text: 'Point at a square of your territory to see where the Tile you won would go, on both sides.',
    });
    box.prepend(note);
  } else if (!patching && note) {
    note.remove();
  }
  for (const [place, actions] of targets) {
    const node = placeNode(svg, t.seat, place);
    if (!node) continue;
    if (!node.dataset.name) {
      const name = place.startsWith('square:')
        ? `the square ${place.slice(7)}`
        : place.startsWith('offer:')
          ? `Tile #${Number(place.slice(6)) + 1} at the Auction`
          : place;
      mark(node, 'data-name', name);
    }
    if (actions.some((a) => a.command.type === 'patch')) {
      listen(node, 'mouseenter', () => previewPatch(t, svg, node, actions));
      listen(node, 'focus', () => previewPatch(t, svg, node, actions));
      listen(node, 'mouseleave', () => clearPreview(svg));
      listen(node, 'blur', () => clearPreview(svg));
    }
    if (node.dataset.x !== undefined) listen(node, 'focus', () => showWhereNamed(svg, node));
    node.classList.add('target');
    marks.push(() => node.classList.remove('target'));
    mark(node, 'tabindex', '0');
    mark(node, 'role', 'button');
    const only = actions.length === 1 ? actions[0] : null;
    const kinds = only
      ? wordsOf(t.info, only).words
      : [...new Set(actions.map((a) => humanise(a.command.type)))].join(' or ');
    // a spot showing text of its own (a Tile) is named by it; the others by their name
    if (node.querySelector('text')) mark(node, 'title', `${node.dataset.name}: ${kinds}`);
    else mark(node, 'aria-label', `${node.dataset.name}: ${kinds}`);
    mark(node, 'data-actions', String(actions.length));
    const activate = activator(t, node, actions);
    listen(node, 'click', activate);
    listen(node, 'keydown', (event) => {
      const key = /** @type {KeyboardEvent} */ (event).key;
      if (key === 'Enter' || key === ' ') activate(event);
    });
  }
}

/** Cards of the hand and players of the dashboard that an action names become its buttons.
 * @param {Table} t @param {Many<string, Action>} cards @param {Many<number, Action>} seats */
function markDashboard(t, cards, seats) {
  for (const node of $$('#dashboard .hand-card, #dashboard .dash-player')) {
    const id = node.dataset.card !== undefined ? node.dataset.card : null;
    const actions = id !== null ? cards.get(id) : seats.get(Number(node.dataset.seat));
    if (!actions?.length) continue;
    const name = id !== null ? t.info.names?.[id] || id : t.summary.players[Number(node.dataset.seat)] || '';
    const only = actions.length === 1 ? actions[0] : null;
    node.classList.add('target');
    node.setAttribute('tabindex', '0');
    node.setAttribute('role', 'button');
    node.setAttribute('title', only ? wordsOf(t.info, only).words : `${name}: choose`);
    node.dataset.name = name;
    const activate = activator(t, node, actions);
    node.addEventListener('click', activate);
    node.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') activate(event);
    });
  }
}

/** The chooser open, and where the focus goes back to when it closes.
 * @type {{box: HTMLElement, returnTo: HTMLElement | SVGElement} | null} */
let chooser = null;

export function closeChooser() {
  if (chooser) {
    const back = chooser.returnTo;
    chooser.box.remove();
    chooser = null;
    if (back && document.contains(back)) back.focus();
  }
}

/** @param {Table} t @param {HTMLElement | SVGElement} node @param {Action[]} actions */
function openChooser(t, node, actions) {
  closeChooser();
  const rect = node.getBoundingClientRect();
  const name = node.dataset.name;
  const box = el(
    'div',
    {class: 'chooser', id: 'chooser', role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': 'chooser-title'},
    el('h2', {id: 'chooser-title', text: `${name}: choose`}),
    el(
      'div',
      {class: 'buttons'},
      actions.map((action) =>
        el('button', {
          type: 'button',
          class: 'action',
          dataset: {action: actionKey(action.command), type: action.command.type},
          on: {
            click: () => {
              closeChooser();
              play(t, action);
            },
          },
          text: wordsOf(t.info, action).words,
        }),
      ),
      el('button', {
        type: 'button',
        class: 'secondary',
        id: 'chooser-cancel',
        on: {click: closeChooser},
        text: 'Cancel',
      }),
    ),
  );
  chooser = {box, returnTo: node};
  box.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') closeChooser();
  });
  document.body.append(box);
  const left = Math.min(window.innerWidth - box.offsetWidth - 8, Math.max(8, rect.left + rect.width / 2));
  const top = Math.max(8, Math.min(window.innerHeight - box.offsetHeight - 8, rect.top + rect.height / 2)); // a long one scrolls inside
  box.style.left = `${left}px`;
  box.style.top = `${top}px`;
  need('button', box).focus();
}

/** Play an action: its buttons held while it is on its way; what the server says of a refusal
 * shown; the table refreshed. @param {Table} t @param {Action} action */
export async function play(t, action) {
  if (t.posting || t.closed) return;
  closeChooser();
  t.playedFrom = focusSpot(document.activeElement);
  t.posting = true;
  t.markReady();
  for (const button of $$('#actions button')) /** @type {HTMLButtonElement} */ (button).disabled = true;
  const message = need('#message');
  fill(message);
  const body = {command: action.command, expected_version: action.expected_version};
  /** @type {import('./client.js').Answer<Schemas['CommandResult']>} */
  const posted = await call('POST', `/games/${encodeURIComponent(t.gameId)}/commands`, {
    token: t.token,
    body,
    idempotent: true,
  });
  t.posting = false;
  if (!posted.ok) {
    const code = posted.body && typeof posted.body === 'object' ? posted.body.code : undefined;
    if (code === 'game_busy') {
      fill(
        message,
        el('p', {class: 'notice', role: 'status', text: 'The rules are closing the epoch: try again in a moment.'}),
      );
    } else if (code === 'version_conflict') {
      fill(
        message,
        el('p', {class: 'notice', role: 'status', text: 'The game moved on meanwhile: here are your actions now.'}),
      );
    } else {
      fill(message, errorBox(posted, 'Refused: '));
    }
  }
  await t.refresh();
}
