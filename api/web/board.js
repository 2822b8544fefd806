// @ts-check
/* The board: the server's drawing (SVG) or, for a ruleset without one, the view in words;
 * which places of it an action names, and where a won Tile would go (Patchistory). */

import {$, definitionList, el, errorBox, fill, need, parseSvg, part, placeById} from './dom.js';
import {argsOf} from './words.js';

/** @typedef {import('./api.d.ts').components['schemas']} Schemas */
/** @typedef {import('./state.js').Table} Table */
/** @typedef {import('./words.js').Action} Action */
/** @template T @typedef {import('./client.js').Answer<T>} Answer */

/** @param {Table} t @param {Answer<string> | null} picture @param {Answer<Schemas['State']> | null} state */
export function renderBoard(t, picture, state) {
  const box = need('#board');
  const active = document.activeElement;
  const focused = /** @type {HTMLElement | SVGElement | null} */ (
    active?.closest ? active.closest('#board [data-land], #board [data-water]') : null
  );
  const focusedPlace = focused ? focused.dataset.land || focused.dataset.water : null;
  const shown = box.querySelector(':scope > svg');
  if (picture?.ok && shown && picture.body === t.boardText) {
    clearPreview(shown); // the same drawing: the one shown stays, with its focus and hover
  } else if (picture?.ok) {
    const svg = parseSvg(picture.body);
    if (svg) {
      fill(box, svg);
      wireBoard(svg);
      t.boardText = picture.body;
      t.boardMarks = [];
    }
  } else if (picture) {
    fill(box, errorBox(picture, 'The board cannot be drawn: '));
  }
  if (state?.ok && !t.info.board) {
    fill(box, el('h2', {text: 'The table'}), definitionList(t.info, state.body.view, 0, t.summary.players));
  }
  renderViewDetails(t, state);
  if (focusedPlace) {
    const place = CSS.escape(focusedPlace);
    const again = part(box, `[data-land="${place}"].target, [data-water="${place}"].target`);
    if (again) again.focus();
  }
}

/** Everything the caller may see, as the ruleset's view: read only while it is open.
 * @param {Table} t @param {Answer<Schemas['State']> | null} state */
function renderViewDetails(t, state) {
  const box = need('#view-details');
  let details = box.querySelector('details');
  if (!details) {
    details = el(
      'details',
      {},
      el('summary', {text: t.token ? 'Everything your seat may see' : 'Everything a spectator may see'}),
      el('div', {class: 'state-view'}),
    );
    fill(box, details);
  }
  if (state?.ok) {
    fill(need('.state-view', details), definitionList(t.info, state.body.view, 0, t.summary.players));
  }
}

/** Pointing at a land outlines the lands bordering it. @param {SVGSVGElement} svg */
function wireBoard(svg) {
  for (const land of /** @type {NodeListOf<SVGElement>} */ (svg.querySelectorAll('.land'))) {
    /** @param {boolean} on */
    const near = (on) => {
      for (const id of (land.dataset.borders || '').split(' ')) {
        const other = id && part(svg, `.land[data-land="${CSS.escape(id)}"]`);
        if (other) other.classList.toggle('near', on);
      }
    };
    land.addEventListener('mouseenter', () => near(true));
    land.addEventListener('mouseleave', () => near(false));
  }
}

/** The places (lands, waters; squares of the seat's territory, Tiles at the Auction) an
 * action names: clicking one of them plays it.
 * @param {ParentNode} svg @param {import('./words.js').AnyCommand} command @param {number | null} seat */
export function placesOf(svg, command, seat) {
  const found = [];
  for (const [, value] of argsOf(command)) {
    if (typeof value !== 'string') continue;
    if (placeById(svg, value)) found.push(value);
  }
  const {row, col, tile} = command;
  if (Number.isInteger(row) && Number.isInteger(col) && squareNode(svg, seat, `${row},${col}`)) {
    found.push(`square:${row},${col}`);
  }
  if (Number.isInteger(tile) && part(svg, `.offer[data-offer="${tile}"]`)) found.push(`offer:${tile}`);
  return found;
}

/** @param {ParentNode} svg @param {number | null} seat @param {string} square */
function squareNode(svg, seat, square) {
  return part(svg, `.civ[data-seat="${seat}"] [data-square="${CSS.escape(square)}"]`);
}

/** The node of a place `placesOf` names. @param {ParentNode} svg @param {number | null} seat @param {string} place */
export function placeNode(svg, seat, place) {
  if (place.startsWith('square:')) return squareNode(svg, seat, place.slice(7));
  if (place.startsWith('offer:')) return part(svg, `.offer[data-offer="${CSS.escape(place.slice(6))}"]`);
  return placeById(svg, place);
}

/** The grid of a seat's territory as its drawing says (`data-cell`, `data-x0`…): the size of
 * a square, and where the square at row r0, column c0 is drawn.
 * @typedef {{cell: number, x0: number, y0: number, r0: number, c0: number}} Grid */

/** Where a won Tile's squares go, patched with its top-left square at (row, col): a rectangle
 * per square of the side's shape (`"0,0 0,1 1,0"`: row and column offsets), inset more for
 * the second side drawn (k = 1) so both show.
 * @param {Grid} grid @param {string} shape @param {number} row @param {number} col @param {number} k
 * @returns {{x: number, y: number, width: number, height: number}[]} */
export function patchSquares(grid, shape, row, col, k) {
  const inset = 2 + 5 * k;
  return shape
    .split(' ')
    .filter(Boolean)
    .map((pair) => {
      const [dr = 0, dc = 0] = pair.split(',').map(Number);
      const r = row + dr;
      const c = col + dc;
      return {
        x: grid.x0 + (c - grid.c0) * grid.cell + inset,
        y: grid.y0 + (r - grid.r0) * grid.cell + inset,
        width: grid.cell - 2 * inset,
        height: grid.cell - 2 * inset,
      };
    });
}

/** Where a won Tile would go if patched with its top-left square here: both sides drawn.
 * @param {Table} t @param {SVGSVGElement} svg @param {SVGElement} node @param {Action[]} actions */
export function previewPatch(t, svg, node, actions) {
  clearPreview(svg);
  const patches = actions.filter((a) => a.command.type === 'patch');
  const first = patches[0];
  if (!first) return;
  const civ = /** @type {SVGElement | null} */ (node.closest('.civ'));
  const won = part(svg, `.to-patch[data-seat="${t.seat}"]`);
  if (!civ || !won) return;
  const d = civ.dataset;
  const grid = {cell: Number(d.cell), x0: Number(d.x0), y0: Number(d.y0), r0: Number(d.r0), c0: Number(d.c0)};
  const ns = 'http://www.w3.org/2000/svg';
  const layer = document.createElementNS(ns, 'g');
  layer.setAttribute('class', 'patch-preview');
  layer.setAttribute('pointer-events', 'none');
  const sides = [...new Set(patches.map((a) => String(a.command.side)))];
  sides.forEach((side, k) => {
    for (const square of patchSquares(
      grid,
      won.dataset[side] || '',
      Number(first.command.row),
      Number(first.command.col),
      k,
    )) {
      const rect = document.createElementNS(ns, 'rect');
      rect.setAttribute('x', String(square.x));
      rect.setAttribute('y', String(square.y));
      rect.setAttribute('width', String(square.width));
      rect.setAttribute('height', String(square.height));
      rect.setAttribute('fill', side === 'white' ? '#ffffff' : '#222222');
      rect.setAttribute('fill-opacity', '0.45');
      rect.setAttribute('stroke', side === 'white' ? '#b35c00' : '#000000');
      rect.setAttribute('stroke-width', '2');
      if (side === 'black') rect.setAttribute('stroke-dasharray', '4 2');
      layer.append(rect);
    }
  });
  civ.append(layer);
  const note = $('#patch-note');
  if (note) {
    const words = sides.map((s) => (s === 'white' ? 'the White side (orange outline)' : 'the Black side (dashed)'));
    note.textContent = `Patching here: ${words.join(' or ')}; click to choose.`;
  }
}

/** @param {Element} svg */
export function clearPreview(svg) {
  for (const old of svg.querySelectorAll('.patch-preview')) old.remove();
}
