import assert from 'node:assert/strict';
import {test} from 'node:test';

import {patchSquares} from '../board.js';

test("a won Tile's squares are drawn from its top-left square, inset more for the second side", () => {
  const grid = {cell: 30, x0: 100, y0: 50, r0: 0, c0: 0};
  assert.deepEqual(patchSquares(grid, '0,0 1,0', 2, 3, 0), [
    {x: 192, y: 112, width: 26, height: 26},
    {x: 192, y: 142, width: 26, height: 26},
  ]);
  assert.deepEqual(patchSquares(grid, '0,1', 0, 0, 1), [{x: 137, y: 57, width: 16, height: 16}]);
  assert.deepEqual(patchSquares(grid, '', 0, 0, 0), []);
});
