// @ts-check
/* Chronicle's web table: lobby, play, follow, replay and rulings, for every ruleset.
 *
 * It uses only the public API (openapi.yaml), as any third-party client could. Tokens come from
 * the URL fragment (#game=ID&token=T for a seat, #game=ID&admin=T for the admin), which the
 * browser never sends to the server, and go only into Authorization headers. The live feed is
 * the game's stream, opened with a short-lived stream ticket (EventSource sends no headers); the
 * lobby's "My games" and open tables follow the player's notification stream the same way, and
 * poll only when that stream cannot be had.
 * Nothing is loaded from anywhere but this server. This module routes the page's fragment to
 * the view it names.
 */

import {closeChooser} from './actions.js';
import {showAdmin} from './admin.js';
import {params} from './client.js';
import {el, fill, main, setReady} from './dom.js';
import {joinByLink, showLobby} from './lobby.js';
import {stopNotices} from './mine.js';
import {onReplayKey, showReplay, stopReplay} from './replay.js';
import {showTable, stopTable} from './table.js';

async function route() {
  stopTable();
  stopNotices();
  stopReplay();
  setReady(false);
  const p = params();
  const game = p.get('game');
  const join = p.get('join');
  const admin = p.get('admin');
  try {
    if (join !== null) await joinByLink(join, p.get('invitation'));
    else if (!game) await showLobby();
    else if (admin !== null && !p.has('replay')) await showAdmin(game, admin);
    else if (p.has('replay')) await showReplay(game, p.get('token'), Number(p.get('replay')) || 0, admin);
    else await showTable(game, p.get('token'));
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    fill(main(), el('div', {class: 'error', role: 'alert', text: `Something went wrong in the page: ${why}`}));
    setReady(true);
    throw error;
  }
}

window.addEventListener('hashchange', route);
document.addEventListener('keydown', onReplayKey);
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape') closeChooser();
});
route();
