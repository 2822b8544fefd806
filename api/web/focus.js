// @ts-check
/* Where the player is on the table, kept across a redraw: the same place of the board, card,
 * player or button, else the nearest one like it. */

/** A place of the board (by kind and id, in a seat's territory or not), a card or player of
 * the dashboard, or an action's button.
 * @typedef {{board: string, id: string, seat: string | null} | {card: string} | {player: string} | {action: string | null, type: string | null, id: string | null}} Spot */

/** @param {Element | null} node @returns {Spot | null} */
export function focusSpot(node) {
  if (!node || node === document.body || !node.closest || !node.isConnected) return null;
  const place = /** @type {HTMLElement | SVGElement | null} */ (
    node.closest('#board [data-land], #board [data-water], #board [data-square], #board .offer')
  );
  if (place) {
    const civ = /** @type {SVGElement | null} */ (place.closest('.civ'));
    for (const key of ['land', 'water', 'square', 'offer']) {
      const id = place.dataset[key];
      if (id !== undefined) return {board: key, id, seat: civ ? (civ.dataset.seat ?? null) : null};
    }
  }
  const card = /** @type {HTMLElement | null} */ (node.closest('#dashboard .hand-card, #dashboard .dash-player'));
  if (card) {
    return card.dataset.card !== undefined ? {card: card.dataset.card} : {player: card.dataset.seat ?? ''};
  }
  const button = /** @type {HTMLElement | null} */ (
    node.closest('#actions button, #dashboard button, #seating button')
  );
  if (button) return {action: button.dataset.action || null, type: button.dataset.type || null, id: button.id || null};
  return null;
}

/** Set while `focusAgain` puts the focus back after a redraw, which must not move the page. */
let refocusing = false;

/** Focus the same place again, else the nearest one like it: the place itself (focusable
 * even when it offers nothing now), the same card or player, the same button or one of its
 * group, else the first action; the board or the actions' heading when nothing is left.
 * @param {Spot} where */
export function focusAgain(where) {
  /** @param {HTMLElement | SVGElement | null} node */
  const take = (node) => {
    if (!node) return false;
    if (!node.hasAttribute('tabindex') && !['BUTTON', 'A', 'INPUT'].includes(node.tagName)) {
      node.setAttribute('tabindex', '-1');
    }
    refocusing = true; // the same place again after a redraw: the page stays where it is
    try {
      node.focus({preventScroll: true});
    } finally {
      refocusing = false;
    }
    return document.activeElement === node;
  };
  /** @param {string} selector */
  const q = (selector) => /** @type {HTMLElement | SVGElement | null} */ (document.querySelector(selector));
  if ('board' in where) {
    const within =
      where.seat !== null && where.seat !== undefined ? `#board .civ[data-seat="${CSS.escape(where.seat)}"]` : '#board';
    const selector = `${within} [data-${where.board}="${CSS.escape(where.id)}"]`;
    if (take(q(`${selector}.target`)) || take(q(selector)) || take(q('#board-area'))) return;
  } else if ('card' in where || 'player' in where) {
    const selector =
      'card' in where
        ? `#dashboard .hand-card[data-card="${CSS.escape(where.card)}"]`
        : `#dashboard .dash-player[data-seat="${CSS.escape(where.player)}"]`;
    if (take(q(`${selector}.target`)) || take(q('#dashboard .target')) || take(q('#dash-hand'))) return;
  } else {
    if (where.id && take(q(`#${CSS.escape(where.id)}:not([disabled])`))) return;
    if (where.action && take(q(`#actions button[data-action="${CSS.escape(where.action)}"]`))) return;
    if (where.type && take(q(`#actions .group[data-type="${CSS.escape(where.type)}"] button.action`))) return;
    if (take(q('#actions button.action'))) return;
  }
  const heading = q('#actions-title');
  if (heading) take(heading);
}

/** Set from a press of the pointer until its release: a place focused by a click must stay
 * under the pointer (scrolled away between press and release, it would never get the click). */
let pointing = false;
document.addEventListener(
  'pointerdown',
  () => {
    pointing = true;
  },
  true,
);
for (const end of ['pointerup', 'pointercancel']) {
  document.addEventListener(
    end,
    () => {
      setTimeout(() => {
        pointing = false;
      }, 0);
    },
    true,
  );
}

/** A place of the drawing brought into view where it is named: the board, scrolling inside
 * itself, and the page then move so that the point of its name (`data-x`, `data-y` of the
 * drawing) is in sight below the dashboard, as the browser's own scrolling of a focused node
 * shows only its corner when the place (a sea) is larger than the room the board has. Only
 * for the keyboard (and a script): a click is where the person already looks.
 * @param {SVGSVGElement} svg @param {HTMLElement | SVGElement} node */
export function showWhereNamed(svg, node) {
  const x = Number(node.dataset.x);
  const y = Number(node.dataset.y);
  const ctm = svg.getScreenCTM();
  if (refocusing || pointing || node.dataset.x === undefined || Number.isNaN(x) || Number.isNaN(y) || !ctm) return;
  const named = () => {
    const point = svg.createSVGPoint();
    point.x = x;
    point.y = y;
    return point.matrixTransform(/** @type {DOMMatrix} */ (svg.getScreenCTM()));
  };
  const margin = 24;
  const area = document.getElementById('board-area');
  if (area) {
    const box = area.getBoundingClientRect();
    const at = named();
    if (at.y < box.top + margin || at.y > box.bottom - margin) area.scrollTop += at.y - (box.top + box.bottom) / 2;
    if (at.x < box.left + margin || at.x > box.right - margin) area.scrollLeft += at.x - (box.left + box.right) / 2;
  }
  const dash = document.getElementById('dashboard');
  const top = dash ? Math.max(0, dash.getBoundingClientRect().bottom) : 0;
  const at = named();
  if (at.y < top + margin || at.y > window.innerHeight - margin)
    window.scrollBy(0, at.y - (top + window.innerHeight) / 2);
}
