// @ts-check
/* The lobby: the rulesets with a form to start a game of each (by links, against bots, or at a
 * public table), the game just created with its join links, and the games on this server. */

import {absolute, call, fragment, tableLink} from './client.js';
import {$$, copyButton, el, errorBox, fill, main, need, setReady, setView, setYourTurn} from './dom.js';
import {
  ensurePlayer,
  followMe,
  joinTable,
  listMyGames,
  listOpenTables,
  rememberCreated,
  showPlayer,
  typedName,
} from './mine.js';
import {humanise} from './words.js';

/** @typedef {import('./api.d.ts').components['schemas']} Schemas */
/** @typedef {Schemas['Ruleset']} Ruleset */
/** @template T @typedef {import('./client.js').Answer<T>} Answer */

export async function showLobby() {
  setView('lobby', 'Lobby');
  setYourTurn(null);
  fill(
    main(),
    el('h1', {text: 'Play, follow and replay games'}),
    el('section', {id: 'player', class: 'panel', 'aria-labelledby': 'player-title'}),
    el('h2', {text: 'Open tables'}),
    el('div', {id: 'open-tables'}, el('p', {text: 'Loading the open tables…'})),
    el('h2', {text: 'My games'}),
    el('div', {id: 'my-games'}),
    el('div', {id: 'created'}),
    el('h2', {text: 'Start a game'}),
    el('div', {class: 'rulesets', id: 'rulesets'}, el('p', {text: 'Loading the rulesets…'})),
    el('h2', {text: 'Games on this server'}),
    el('div', {id: 'games'}, el('p', {text: 'Loading the games…'})),
  );
  /** @type {Answer<Schemas['RulesetList']>} */
  const listed = await call('GET', '/rulesets');
  const box = need('#rulesets');
  fill(box);
  if (!listed.ok) {
    box.append(errorBox(listed));
  } else {
    for (const ruleset of listed.body.rulesets) box.append(rulesetForm(ruleset));
  }
  await Promise.all([listGames(), showPlayer(), listOpenTables(), listMyGames()]);
  await followMe();
  setReady(true);
}

/** @param {Ruleset} ruleset */
function rulesetForm(ruleset) {
  const id = `rs-${ruleset.name}`;
  const counts = ruleset.player_counts;
  const defaults = ['ann', 'bob', 'cy', 'di', 'ed', 'flo', 'gus', 'hal'];
  const names = el('div', {class: 'players-list'});
  const countSelect = el(
    'select',
    {id: `${id}-count`, name: 'count'},
    counts.map((n) => el('option', {value: n, text: String(n)})),
  );
  const fillNames = () => {
    const wanted = Number(countSelect.value);
    const kept = $$('input', names).map((field) => /** @type {HTMLInputElement} */ (field).value);
    fill(names);
    for (let seat = 0; seat < wanted; seat++) {
      const field = el('input', {
        id: `${id}-seat-${seat}`,
        name: `seat-${seat}`,
        required: true,
        maxlength: 64,
        value: kept[seat] || defaults[seat] || `player ${seat + 1}`,
        dataset: {seat: String(seat)},
      });
      names.append(el('span', {}, el('label', {for: field.id, text: `Seat ${seat + 1}`}), ' ', field));
    }
  };
  countSelect.addEventListener('change', fillNames);
  const options = ruleset.options.map((option) => optionField(id, option));
  const status = el('div', {class: 'form-status', 'aria-live': 'polite'});
  const form = el(
    'form',
    {class: 'card ruleset', id, dataset: {ruleset: ruleset.name}, 'aria-labelledby': `${id}-title`},
    el('h3', {id: `${id}-title`, text: ruleset.title}),
    el('p', {class: 'muted'}, el('code', {text: ruleset.name}), ` · ${counts.join(', ')} players`),
    el('div', {class: 'field'}, el('label', {for: countSelect.id, text: 'Players'}), countSelect),
    names,
    options.length ? el('fieldset', {}, el('legend', {text: 'Options'}), options) : null,
    el(
      'div',
      {class: 'field'},
      el('button', {type: 'submit', class: 'create', text: `Create a game of ${ruleset.name}`}),
    ),
    el(
      'div',
      {class: 'field'},
      el('button', {
        type: 'button',
        class: 'play-bots',
        dataset: {ruleset: ruleset.name},
        text: 'Play against bots',
        on: {click: () => playAgainstBots(ruleset, Number(countSelect.value), status, form)},
      }),
      ' ',
      el('button', {
        type: 'button',
        class: 'open-table',
        dataset: {ruleset: ruleset.name},
        text: 'Open a public table',
        on: {click: () => openTable(ruleset, Number(countSelect.value), status, form)},
      }),
    ),
    el(
      'div',
      {class: 'field'},
      el('label', {for: `${id}-clock`, text: 'Minutes per move (0: no clock)'}),
      el('input', {id: `${id}-clock`, name: 'clock', type: 'number', min: 0, max: 86400, value: 0}),
    ),
    status,
  );
  fillNames();
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const players = $$('.players-list input', form).map((field) =>
      /** @type {HTMLInputElement} */ (field).value.trim(),
    );
    fill(status, el('p', {text: 'Creating…'}));
    /** @type {Answer<Schemas['CreatedGame']>} */
    const created = await call('POST', '/games', {
      body: {ruleset: ruleset.name, players, options: chosenOptions(ruleset, form)},
    });
    fill(status);
    if (!created.ok) {
      status.append(errorBox(created, 'The game was not created: '));
      return;
    }
    showCreated(created.body);
    rememberCreated(created.body);
    listGames();
    listMyGames();
  });
  return form;
}

/** The options ticked in a ruleset's form (the variant among them), as the API takes them:
 * every way of starting a game from the lobby sends the same ones.
 * @param {Ruleset} ruleset @param {HTMLFormElement} form */
function chosenOptions(ruleset, form) {
  /** @type {Record<string, string | number | boolean>} */
  const chosen = {};
  for (const option of ruleset.options) {
    const field = /** @type {HTMLInputElement | undefined} */ (
      form.elements.namedItem(`option-${option.name}`) ?? undefined
    );
    if (!field) continue;
    if (option.type === 'boolean') chosen[option.name] = field.checked;
    else if (option.type === 'integer') chosen[option.name] = Number(field.value);
    else chosen[option.name] = field.value;
  }
  return chosen;
}

/** @param {string} formId @param {Schemas['Option']} option */
function optionField(formId, option) {
  const id = `${formId}-option-${option.name}`;
  const name = `option-${option.name}`;
  let field;
  if (option.type === 'boolean') {
    field = el('input', {type: 'checkbox', id, name, checked: option.default === true});
  } else if (option.allowed) {
    field = el(
      'select',
      {id, name},
      option.allowed.map((v) => el('option', {value: v, selected: v === option.default, text: String(v)})),
    );
  } else {
    field = el('input', {id, name, type: option.type === 'integer' ? 'number' : 'text', value: option.default ?? ''});
  }
  const hintId = `${id}-hint`;
  field.setAttribute('aria-describedby', hintId);
  return el(
    'div',
    {class: 'field'},
    field,
    ' ',
    el('label', {for: id, text: humanise(option.name)}),
    el('span', {class: 'hint', id: hintId, text: option.description || ''}),
  );
}

/** The game just created: each seat's join link (shown only now), the admin's, and where to
 * watch and replay it. @param {Schemas['CreatedGame']} game */
function showCreated(game) {
  const box = need('#created');
  const rows = game.players.map((player, seat) => {
    const hash = fragment({game: game.game_id, token: game.seat_tokens[seat]});
    return el(
      'tr',
      {dataset: {seat: String(seat)}},
      el('td', {text: String(seat + 1)}),
      el('td', {text: player}),
      el(
        'td',
        {},
        el('a', {class: 'join-link', href: `/${hash}`, dataset: {seat: String(seat)}, text: absolute(hash)}),
      ),
      el('td', {}, copyButton(absolute(hash), `${player}'s join link`)),
    );
  });
  const admin = fragment({game: game.game_id, admin: game.admin_token});
  const watch = fragment({game: game.game_id});
  fill(
    box,
    el(
      'section',
      {class: 'card', 'aria-labelledby': 'created-title', dataset: {game: game.game_id}},
      el('h2', {id: 'created-title', text: `Game ${game.game_id} created`}),
      el('p', {
        text: "Hand each player their join link: it holds their seat's token (after the #, so it is never sent to the server in a URL). It is shown only now; the admin link can issue a new one.",
      }),
      el(
        'table',
        {class: 'links'},
        el(
          'thead',
          {},
          el(
            'tr',
            {},
            el('th', {text: 'Seat'}),
            el('th', {text: 'Player'}),
            el('th', {text: 'Join link'}),
            el('th', {text: 'Copy'}),
          ),
        ),
        el('tbody', {}, rows),
      ),
      el(
        'p',
        {},
        'Admin link (keep it; it re-issues lost seat links): ',
        el('a', {class: 'admin-link', href: `/${admin}`, text: absolute(admin)}),
      ),
      el(
        'p',
        {},
        el('a', {class: 'watch-link', href: `/${watch}`, text: 'Watch the game'}),
        ' · ',
        el('a', {href: `/${fragment({game: game.game_id, replay: 1})}`, text: 'Replay it'}),
      ),
    ),
  );
  const title = need('h2', box);
  title.setAttribute('tabindex', '-1');
  title.focus();
}

async function listGames() {
  const box = document.getElementById('games');
  if (!box) return;
  /** @type {Answer<Schemas['GameList']>} */
  const listed = await call('GET', '/games?limit=20');
  if (!listed.ok) {
    fill(box, errorBox(listed));
    return;
  }
  if (!listed.body.games.length) {
    fill(box, el('p', {text: 'No games yet.'}));
    return;
  }
  const head = ['Game', 'Ruleset', 'Status', 'Players', 'Version', 'Open'];
  fill(
    box,
    el(
      'table',
      {},
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          head.map((h) => el('th', {scope: 'col', text: h})),
        ),
      ),
      el(
        'tbody',
        {},
        listed.body.games.map((game) =>
          el(
            'tr',
            {},
            el('td', {}, el('code', {text: game.game_id})),
            el('td', {text: game.ruleset}),
            el('td', {text: game.status}),
            el('td', {text: game.players.join(', ')}),
            el('td', {text: String(game.version)}),
            el(
              'td',
              {},
              el('a', {href: `/${fragment({game: game.game_id})}`, text: 'Watch'}),
              ' · ',
              el('a', {href: `/${fragment({game: game.game_id, replay: 1})}`, text: 'Replay'}),
            ),
          ),
        ),
      ),
    ),
  );
}

/** @param {Ruleset} ruleset @param {number} count @param {HTMLElement} status @param {HTMLFormElement} form */
async function playAgainstBots(ruleset, count, status, form) {
  fill(status, el('p', {text: 'Setting the table…'}));
  const player = await ensurePlayer(typedName());
  const labels = [player.name, ...Array.from({length: count - 1}, (_, i) => `Bot ${i + 1}`)];
  /** @type {Answer<Schemas['CreatedTable']>} */
  const made = await call('POST', '/tables', {
    token: player.key,
    body: {
      ruleset: ruleset.name,
      players: labels,
      options: chosenOptions(ruleset, form),
      listing: 'private',
      bots: 'greedy',
    },
  });
  if (!made.ok) {
    fill(status, errorBox(made, 'The table was not set: '));
    return;
  }
  location.hash = tableLink(made.body.game_id, made.body.seat_token).slice(1);
}

/** @param {Ruleset} ruleset @param {number} count @param {HTMLElement} status @param {HTMLFormElement} form */
async function openTable(ruleset, count, status, form) {
  const player = await ensurePlayer(typedName());
  const labels = Array.from({length: count}, (_, i) => (i === 0 ? player.name : `Seat ${i + 1}`));
  const clockField = /** @type {HTMLInputElement} */ (form.elements.namedItem('clock'));
  const minutes = Number(clockField.value || 0);
  const clock = minutes > 0 ? {kind: 'move', per_move_ms: Math.round(minutes * 60000)} : {kind: 'none'};
  /** @type {Answer<Schemas['CreatedTable']>} */
  const made = await call('POST', '/tables', {
    token: player.key,
    body: {ruleset: ruleset.name, players: labels, options: chosenOptions(ruleset, form), listing: 'public', clock},
  });
  if (!made.ok) {
    fill(status, errorBox(made, 'The table was not opened: '));
    return;
  }
  fill(
    status,
    el(
      'p',
      {class: 'opened'},
      'Your table is open: ',
      el('a', {href: tableLink(made.body.game_id, made.body.seat_token), text: 'go to it'}),
    ),
  );
  listOpenTables();
  listMyGames();
  followMe();
}

/** A table's invitation link: take a seat there. @param {string} gameId @param {string | null} invitation */
export async function joinByLink(gameId, invitation) {
  setView('lobby', 'Join a table');
  fill(
    main(),
    el('h1', {text: 'Join a table'}),
    el('section', {id: 'player', class: 'panel'}),
    el('div', {id: 'join-status'}),
  );
  await showPlayer();
  const box = need('#join-status');
  fill(
    box,
    el('button', {
      type: 'button',
      id: 'join-link',
      text: 'Take a seat',
      on: {click: () => joinTable(gameId, invitation, box)},
    }),
  );
  setReady(true);
}
