/* Chronicle's web table: lobby, play, follow, replay and rulings, for every ruleset.
 *
 * It uses only the public API (openapi.yaml), as any third-party client could. Tokens come from
 * the URL fragment (#game=ID&token=T for a seat, #game=ID&admin=T for the admin), which the
 * browser never sends to the server, and go only into Authorization headers. The live feed is
 * the game's stream, opened with a short-lived stream ticket (EventSource sends no headers); the
 * lobby's "My games" and open tables follow the player's notification stream the same way, and
 * poll only when that stream cannot be had.
 * Nothing is loaded from anywhere but this server.
 */
'use strict';

(() => {
  // --- small helpers --------------------------------------------------------------------

  const $ = (selector, root = document) => root.querySelector(selector);
  const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));
  const main = () => document.getElementById('main');

  function el(tag, attrs, ...kids) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === 'on') {
        for (const [name, handler] of Object.entries(value)) node.addEventListener(name, handler);
      } else if (key === 'dataset') {
        Object.assign(node.dataset, value);
      } else if (key === 'text') {
        node.textContent = value;
      } else {
        node.setAttribute(key, value === true ? '' : String(value));
      }
    }
    for (const kid of kids.flat(Infinity)) {
      if (kid === null || kid === undefined || kid === false) continue;
      node.append(kid instanceof Node ? kid : String(kid));
    }
    return node;
  }

  /** A rule id in code type, free to wrap after each dot (`<wbr>`; its text is the id's). */
  function ruleCode(id, attrs) {
    const parts = String(id).split('.');
    return el('code', attrs, parts.map((part, i) => (i < parts.length - 1 ? [part + '.', el('wbr')] : part)));
  }

  /** Replace a node's children: arrays flattened, null, undefined and false left out. */
  function fill(node, ...kids) {
    node.replaceChildren(...kids.flat(Infinity).filter((kid) => kid !== null && kid !== undefined && kid !== false));
  }

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  }

  /** What the page is waiting for, said in the header ("The server asks for a pause: going on
   * in 3 s"; "The live feed dropped: reconnecting"), so that it never sits silent on stale text. */
  const paceNotes = new Map();
  function notePace(what, text) {
    if (text) paceNotes.set(what, text);
    else paceNotes.delete(what);
    const box = document.getElementById('pace');
    if (!box) return;
    const said = [...paceNotes.values()].join(' ');
    box.hidden = !said;
    box.textContent = said;
    document.body.dataset.pace = [...paceNotes.keys()].join(' ');
  }

  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const RETRIES = 6;
  let waitedFor = 0;

  /** How long to wait before asking again: the server's `Retry-After` (seconds), else a backoff
   * doubling from one second (a 503 may come from a proxy that names no time). */
  function pauseMs(response, attempt) {
    const said = Number(response.headers.get('Retry-After'));
    const backoff = Math.min(30, 2 ** attempt);
    return 1000 * (Number.isFinite(said) && said >= 0 ? Math.max(said, 0.2) : backoff);
  }

  /** One call of the public API; never throws: {status, ok, body}. A 429 or a 503 is asked
   * again after the pause the server names (a command keeps its Idempotency-Key, so it is
   * never played twice), and the header says meanwhile what the page waits for. */
  async function call(method, path, {token = null, body = undefined, idempotent = false} = {}) {
    const headers = {Accept: 'application/json, image/svg+xml;q=0.9'};  // the board is SVG
    if (token) headers.Authorization = `Bearer ${token}`;
    let payload;
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    if (idempotent) headers['Idempotency-Key'] = newKey();
    for (let attempt = 0; ; attempt += 1) {
      let response;
      try {
        response = await fetch(path, {method, headers, body: payload, cache: 'no-store'});
      } catch (error) {
        notePace('server', null);
        return {status: 0, ok: false, body: {code: 'network', message: `the server cannot be reached (${error.message})`}};
      }
      if ([429, 503].includes(response.status) && attempt < RETRIES) {
        const ms = pauseMs(response, attempt);
        waitedFor += 1;
        document.body.dataset.waitedFor = String(waitedFor);
        notePace('server', response.status === 429
          ? `The server asks this page to slow down: it goes on by itself in ${Math.ceil(ms / 1000)} s.`
          : `The server is busy: the page asks again in ${Math.ceil(ms / 1000)} s.`);
        await response.text().catch(() => null);
        await sleep(ms);
        continue;
      }
      notePace('server', null);
      const type = response.headers.get('Content-Type') || '';
      const data = type.includes('json') ? await response.json().catch(() => null) : await response.text();
      return {status: response.status, ok: response.ok, body: data};
    }
  }

  function params() {
    return new URLSearchParams(location.hash.replace(/^#/, ''));
  }

  function fragment(values) {
    const p = new URLSearchParams();
    for (const [key, value] of Object.entries(values)) if (value !== null && value !== undefined) p.set(key, value);
    return '#' + p.toString();
  }

  function absolute(hash) {
    return `${location.origin}/${hash}`;
  }

  function humanise(type) {
    const bare = String(type).split('.').pop();
    const words = bare.includes('_') ? bare.split('_') : bare.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+/g) || [bare];
    const text = words.map((w) => (w.length > 1 && w === w.toUpperCase() ? w : w.toLowerCase())).join(' ');
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  function firstSentence(text) {
    const match = String(text || '').match(/^.*?[.!?](\s|$)/);
    return match ? match[0].trim() : String(text || '');
  }

  const rulesetCache = new Map();
  async function rulesetInfo(name) {
    if (!rulesetCache.has(name)) {
      const r = await call('GET', `/rulesets/${encodeURIComponent(name)}`);
      rulesetCache.set(name, r.ok ? r.body : {name, title: name, commands: [], names: {}, board: false, event_types: []});
    }
    return rulesetCache.get(name);
  }

  /** An id the pack does not name, read as words with capitals: `central-america` → `Central America`. */
  function idWords(value) {
    const words = value.replace(/[-_]/g, ' ');
    return /^[a-z0-9]+([-_][a-z0-9]+)+$/.test(value) ? words.replace(/\b[a-z]/g, (c) => c.toUpperCase()) : words;
  }

  function nameOf(info, value) {
    if (typeof value === 'string') return (info.names && info.names[value]) || idWords(value);
    if (Array.isArray(value)) return value.map((v) => nameOf(info, v)).join(', ');
    if (value === true) return 'yes';
    if (value === false) return 'no';
    if (value === null || value === undefined) return 'none';
    if (typeof value === 'object') return Object.entries(value).map(([k, v]) => `${k.replace(/_/g, ' ')}: ${nameOf(info, v)}`).join('; ');
    return String(value);
  }

  function argsOf(command) {
    return Object.entries(command).filter(([key]) => key !== 'type');
  }

  function actionLabel(info, command) {
    const args = argsOf(command);
    if (!args.length) return humanise(command.type);
    return args.map(([key, value]) => (typeof value === 'number' ? `${key.replace(/_/g, ' ')} ${value}` : nameOf(info, value))).join(', ');
  }

  function actionKey(command) {
    return JSON.stringify(command);
  }

  function setView(view, title) {
    document.body.dataset.view = view;
    document.title = `${title} — Chronicle`;
  }

  function setYourTurn(text) {
    const banner = document.getElementById('your-turn');
    banner.hidden = !text;
    banner.textContent = text || '';
    document.body.dataset.yourTurn = text ? 'true' : 'false';
  }

  /** An API error for people: its message, and the rule with its text and page when it has one. */
  function errorBox(response, prefix = '') {
    const body = response.body || {};
    const entry = (body.details && body.details.rule_entry) || null;
    const box = el('div', {class: 'error', role: 'alert', dataset: {code: body.code || '', rule: body.rule || ''}},
      el('strong', {text: prefix + (body.message || `the server answered ${response.status}`)}));
    if (body.rule) {
      box.append(el('div', {}, 'Rule ', ruleCode(body.rule, {class: 'rule-id'}),
        entry && citation(entry.page, entry.section) ? ` (${citation(entry.page, entry.section)})` : ''));
      if (entry && entry.text) box.append(el('div', {class: 'rule-text', text: entry.text}));
    }
    return box;
  }

  /** `rulebook p. 5`, or nothing for a rule the rulebook does not print (page `?` or empty). */
  function pageText(page) {
    return page && page !== '?' ? `rulebook p. ${page}` : '';
  }

  /** Where the rulebook says it: its page (and section) or, without a page, its section. */
  function citation(page, section) {
    const p = pageText(page);
    if (p) return section ? `${p}, ${section}` : p;
    return section ? `rulebook, “${section}”` : '';
  }

  /** A chance draw as people read it: a die by the face rolled, else the n-th of N (1-based). */
  function drawText(d) {
    if (d.n === 6) return `a die rolled ${d.result + 1}`;
    return `drew number ${d.result + 1} of ${d.n}`;
  }

  const SEAT_COLOURS = ['#d62728', '#1f77b4', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b'];
  const COLOUR_NAMES = ['red', 'blue', 'green', 'orange', 'purple', 'brown'];

  /** The words of a legal action (the server's, else made here from its arguments). */
  function wordsOf(info, action) {
    if (action.words) return action.words;
    const label = actionLabel(info, action.command);
    return {label, words: `${humanise(action.command.type)}: ${label}`};
  }

  const PLACE_WORDS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth'];
  /** Fields that hold a seat in a view no schema describes. */
  const VIEW_SEAT_KEYS = ['seat', 'owner', 'defender', 'enemy', 'winner', 'first', 'next', 'start', 'start_player', 'holder', 'from_seat', 'to_seat'];

  /** How a field of the view reads, from the ruleset's view schema (`info.view_words`, by the
   * field's path: `lands.*.owner`, `*` standing for any key of a mapping). */
  function viewWord(info, path) {
    const words = info.view_words || {};
    if (words[path]) return words[path];
    const parts = path.split('.');
    const found = Object.keys(words).find((key) => {
      const want = key.split('.');
      return want.length === parts.length && want.every((part, i) => part === '*' || part === parts[i]);
    });
    return found ? words[found] : {};
  }

  /** A field's name in words: the schema's label, a pack id by its name, else its name. */
  function viewLabel(info, word, key) {
    if (word.label) return word.label;
    if (info.names && info.names[key]) return info.names[key];
    return key.includes('-') ? idWords(key) : humanise(key);
  }

  /** A value in words: a seat by its player, a colour by its name, a ranking by places, a
   * number in the schema's phrase (`an Epoch 7 army`), an id by its name. */
  function viewValue(info, word, value, players) {
    if (value === null && word.hidden) return word.hidden;
    if ((word.seat || word.colour) && typeof value === 'number') {
      if (word.colour) return COLOUR_NAMES[value % COLOUR_NAMES.length];
      return (players && players[value]) || `player ${value + 1}`;
    }
    if ((word.seat || word.colour) && Array.isArray(value)) {
      if (!value.length) return 'nobody';
      if (value.every(Array.isArray)) {
        return value.map((group, i) => `${PLACE_WORDS[i] || `${i + 1}th`}: ${group.map((v) => viewValue(info, word, v, players)).join(' and ')}`).join('; ');
      }
      return value.map((v) => viewValue(info, word, v, players)).join(', ');
    }
    if (Array.isArray(value) && !value.length) return 'none';
    const said = nameOf(info, value);
    return word.value && value !== null && value !== undefined ? word.value.replace('{}', said) : said;
  }

  /** The view (or any object) as a definition list in words (`players`: the table's names). */
  function definitionList(info, object, depth = 0, players = null, path = '') {
    const list = el('dl');
    for (const [key, value] of Object.entries(object || {})) {
      const at = path ? `${path}.${key}` : key;
      const known = viewWord(info, at);
      const word = Object.keys(known).length || !VIEW_SEAT_KEYS.includes(key) ? known : {seat: true};
      list.append(el('dt', {text: viewLabel(info, word, key)}));
      if (value && typeof value === 'object' && !Array.isArray(value) && depth < 2) {
        list.append(el('dd', {}, definitionList(info, value, depth + 1, players, at)));
      } else if (Array.isArray(value) && value.some((v) => v && typeof v === 'object' && !Array.isArray(v)) && depth < 2) {
        list.append(el('dd', {}, value.map((v) => (v && typeof v === 'object' ? definitionList(info, v, depth + 1, players, at) : el('span', {text: nameOf(info, v)})))));
      } else {
        list.append(el('dd', {text: viewValue(info, word, value, players)}));
      }
    }
    return list;
  }

  function parseSvg(text) {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const svg = doc.documentElement;
    if (!svg || svg.nodeName.toLowerCase() !== 'svg') return null;
    const node = document.importNode(svg, true);
    node.removeAttribute('width');
    node.removeAttribute('height');
    node.setAttribute('role', 'group');
    node.setAttribute('aria-label', 'The board');
    return node;
  }

  function placeName(svg, id) {
    const node = svg && svg.querySelector(`[data-land="${CSS.escape(id)}"], [data-water="${CSS.escape(id)}"]`);
    return node ? node.dataset.name : id;
  }

  // --- the lobby ------------------------------------------------------------------------

  async function showLobby() {
    setView('lobby', 'Lobby');
    setYourTurn(null);
    const root = main();
    fill(root, 
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
    const listed = await call('GET', '/rulesets');
    const box = $('#rulesets');
    fill(box, );
    if (!listed.ok) {
      box.append(errorBox(listed));
    } else {
      for (const ruleset of listed.body.rulesets) box.append(rulesetForm(ruleset));
    }
    await Promise.all([listGames(), showPlayer(), listOpenTables(), listMyGames()]);
    await followMe();
    document.body.dataset.ready = 'true';
  }

  function rulesetForm(ruleset) {
    const id = `rs-${ruleset.name}`;
    const counts = ruleset.player_counts;
    const defaults = ['ann', 'bob', 'cy', 'di', 'ed', 'flo', 'gus', 'hal'];
    const names = el('div', {class: 'players-list'});
    const countSelect = el('select', {id: `${id}-count`, name: 'count'},
      counts.map((n) => el('option', {value: n, text: String(n)})));
    const fillNames = () => {
      const wanted = Number(countSelect.value);
      const kept = $$('input', names).map((input) => input.value);
      fill(names, );
      for (let seat = 0; seat < wanted; seat++) {
        const input = el('input', {id: `${id}-seat-${seat}`, name: `seat-${seat}`, required: true, maxlength: 64,
          value: kept[seat] || defaults[seat] || `player ${seat + 1}`, dataset: {seat: String(seat)}});
        names.append(el('span', {}, el('label', {for: input.id, text: `Seat ${seat + 1}`}), ' ', input));
      }
    };
    countSelect.addEventListener('change', fillNames);
    const options = ruleset.options.map((option) => optionField(id, option));
    const status = el('div', {class: 'form-status', 'aria-live': 'polite'});
    const form = el('form', {class: 'card ruleset', id, dataset: {ruleset: ruleset.name}, 'aria-labelledby': `${id}-title`},
      el('h3', {id: `${id}-title`, text: ruleset.title}),
      el('p', {class: 'muted'}, el('code', {text: ruleset.name}), ` · ${counts.join(', ')} players`),
      el('div', {class: 'field'}, el('label', {for: countSelect.id, text: 'Players'}), countSelect),
      names,
      options.length ? el('fieldset', {}, el('legend', {text: 'Options'}), options) : null,
      el('div', {class: 'field'}, el('button', {type: 'submit', class: 'create', text: `Create a game of ${ruleset.name}`})),
      el('div', {class: 'field'},
        el('button', {type: 'button', class: 'play-bots', dataset: {ruleset: ruleset.name},
          text: 'Play against bots', on: {click: () => playAgainstBots(ruleset, Number(countSelect.value), status, form)}}),
        ' ',
        el('button', {type: 'button', class: 'open-table', dataset: {ruleset: ruleset.name},
          text: 'Open a public table', on: {click: () => openTable(ruleset, Number(countSelect.value), status, form)}})),
      el('div', {class: 'field'}, el('label', {for: `${id}-clock`, text: 'Minutes per move (0: no clock)'}),
        el('input', {id: `${id}-clock`, name: 'clock', type: 'number', min: 0, max: 86400, value: 0})),
      status);
    fillNames();
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const players = $$('.players-list input', form).map((input) => input.value.trim());
      fill(status, el('p', {text: 'Creating…'}));
      const created = await call('POST', '/games', {body: {ruleset: ruleset.name, players, options: chosenOptions(ruleset, form)}});
      fill(status, );
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
   * every way of starting a game from the lobby sends the same ones. */
  function chosenOptions(ruleset, form) {
    const chosen = {};
    for (const option of ruleset.options) {
      const input = form.elements[`option-${option.name}`];
      if (!input) continue;
      if (option.type === 'boolean') chosen[option.name] = input.checked;
      else if (option.type === 'integer') chosen[option.name] = Number(input.value);
      else chosen[option.name] = input.value;
    }
    return chosen;
  }

  function optionField(formId, option) {
    const id = `${formId}-option-${option.name}`;
    const name = `option-${option.name}`;
    let input;
    if (option.type === 'boolean') {
      input = el('input', {type: 'checkbox', id, name, checked: option.default === true});
    } else if (option.allowed) {
      input = el('select', {id, name}, option.allowed.map((v) => el('option', {value: v, selected: v === option.default, text: String(v)})));
    } else {
      input = el('input', {id, name, type: option.type === 'integer' ? 'number' : 'text', value: option.default ?? ''});
    }
    const hintId = `${id}-hint`;
    input.setAttribute('aria-describedby', hintId);
    return el('div', {class: 'field'}, input, ' ', el('label', {for: id, text: humanise(option.name)}),
      el('span', {class: 'hint', id: hintId, text: option.description || ''}));
  }

  function copyButton(text, what) {
    return el('button', {type: 'button', class: 'secondary copy', 'aria-label': `Copy ${what}`, text: 'Copy',
      on: {click: async (event) => {
        try { await navigator.clipboard.writeText(text); event.target.textContent = 'Copied'; } catch (_) { event.target.textContent = 'Select and copy'; }
      }}});
  }

  function showCreated(game) {
    const box = $('#created');
    const rows = game.players.map((player, seat) => {
      const hash = fragment({game: game.game_id, token: game.seat_tokens[seat]});
      return el('tr', {dataset: {seat: String(seat)}},
        el('td', {text: String(seat + 1)}), el('td', {text: player}),
        el('td', {}, el('a', {class: 'join-link', href: `/${hash}`, dataset: {seat: String(seat)}, text: absolute(hash)})),
        el('td', {}, copyButton(absolute(hash), `${player}'s join link`)));
    });
    const admin = fragment({game: game.game_id, admin: game.admin_token});
    const watch = fragment({game: game.game_id});
    fill(box, el('section', {class: 'card', 'aria-labelledby': 'created-title', dataset: {game: game.game_id}},
      el('h2', {id: 'created-title', text: `Game ${game.game_id} created`}),
      el('p', {text: 'Hand each player their join link: it holds their seat\'s token (after the #, so it is never sent to the server in a URL). It is shown only now; the admin link can issue a new one.'}),
      el('table', {class: 'links'}, el('thead', {}, el('tr', {}, el('th', {text: 'Seat'}), el('th', {text: 'Player'}), el('th', {text: 'Join link'}), el('th', {text: 'Copy'}))), el('tbody', {}, rows)),
      el('p', {}, 'Admin link (keep it; it re-issues lost seat links): ', el('a', {class: 'admin-link', href: `/${admin}`, text: absolute(admin)})),
      el('p', {}, el('a', {class: 'watch-link', href: `/${watch}`, text: 'Watch the game'}), ' · ',
        el('a', {href: `/${fragment({game: game.game_id, replay: 1})}`, text: 'Replay it'}))));
    box.querySelector('h2').setAttribute('tabindex', '-1');
    box.querySelector('h2').focus();
  }

  async function listGames() {
    const box = $('#games');
    if (!box) return;
    const listed = await call('GET', '/games?limit=20');
    if (!listed.ok) {
      fill(box, errorBox(listed));
      return;
    }
    if (!listed.body.games.length) {
      fill(box, el('p', {text: 'No games yet.'}));
      return;
    }
    fill(box, el('table', {}, el('thead', {}, el('tr', {},
      ['Game', 'Ruleset', 'Status', 'Players', 'Version', 'Open'].map((h) => el('th', {scope: 'col', text: h})))),
    el('tbody', {}, listed.body.games.map((game) => el('tr', {},
      el('td', {}, el('code', {text: game.game_id})), el('td', {text: game.ruleset}), el('td', {text: game.status}),
      el('td', {text: game.players.join(', ')}), el('td', {text: String(game.version)}),
      el('td', {}, el('a', {href: `/${fragment({game: game.game_id})}`, text: 'Watch'}), ' · ',
        el('a', {href: `/${fragment({game: game.game_id, replay: 1})}`, text: 'Replay'})))))));
  }

  // --- the table: play and follow -------------------------------------------------------

  let table = null;

  function stopTable() {
    if (table && table.stream) table.stream.close();
    if (table) clearTimeout(table.streamTimer);
    if (table) clearInterval(table.watch);
    notePace('stream', null);
    if (table) table.closed = true;
    table = null;
    closeChooser();
  }

  async function showTable(gameId, token) {
    setView('table', `Game ${gameId}`);
    const first = await call('GET', `/games/${encodeURIComponent(gameId)}`, {token});
    if (!first.ok) {
      fill(main(), el('h1', {text: `Game ${gameId}`}), errorBox(first));
      document.body.dataset.ready = 'true';
      return;
    }
    const info = await rulesetInfo(first.body.ruleset);
    table = {gameId, token, info, summary: first.body, seat: null, version: 0, shownVersion: null, legal: null,
      refreshing: false, running: null, wantFresh: false, wantVersion: 0, wantSeating: false,
      posting: false, stream: null, closed: false, viewOpen: false,
      log: [], logTo: 0, seating: null, clocked: false, result: null, state: null, stateBody: null};
    const t = table;
    fill(main(), 
      el('h1', {}, `${first.body.title} — game `, el('code', {text: gameId})),
      el('section', {id: 'dashboard', class: 'dashboard', 'aria-label': token ? 'Your dashboard' : 'The game at a glance'}),
      el('div', {class: 'table-layout'},
        el('section', {class: 'board-area', id: 'board-area', tabindex: 0, 'aria-label': 'The table'},
          el('div', {id: 'board', class: info.board ? 'board' : 'state-view'}),
          info.board ? marksLegend(info) : null,
          el('div', {id: 'view-details'})),
        el('aside', {class: 'side', 'aria-label': 'Seat, actions and log'},
          el('section', {class: 'panel', id: 'status', 'aria-labelledby': 'status-title'}, el('h2', {id: 'status-title', text: 'The game'})),
          el('section', {class: 'panel', id: 'seating', 'aria-labelledby': 'seating-title'}, el('h2', {id: 'seating-title', text: 'Seats and clocks'})),
          el('section', {class: 'panel actions', id: 'actions-panel', 'aria-labelledby': 'actions-title'},
            el('h2', {id: 'actions-title', text: token ? 'Your actions' : 'Watching'}),
            el('div', {id: 'message'}), el('div', {id: 'actions'})),
          el('section', {class: 'panel result', id: 'result', hidden: true, 'aria-labelledby': 'result-title'}, el('h2', {id: 'result-title', text: 'Result'})),
          el('section', {class: 'panel', id: 'log-panel', 'aria-labelledby': 'log-title'},
            el('h2', {id: 'log-title', text: 'What happened'}), el('ol', {class: 'log', id: 'log', tabindex: 0, 'aria-labelledby': 'log-title'})),
          el('p', {}, el('a', {id: 'replay-link', href: `/${fragment({game: gameId, token, replay: 1})}`, text: 'Replay this game, event by event'})))));
    keepBoardClearOfDashboard();
    await refresh(t);
    follow(t);
    t.watch = setInterval(() => checkNow(t), CHECK_MS);
  }

  const CHECK_MS = 15000;
  /** Whatever the stream may have missed, a table quiet for a while asks once where the game
   * stands (one request while nothing moved), so it never sits for long on a stale position. */
  function checkNow(t) {
    if (t.closed) return clearInterval(t.watch);
    if (t.summary.status === 'finished' || Date.now() - (t.refreshedAt || 0) < CHECK_MS) return;
    refresh(t);
  }

  /** What the outlines this page draws on the board mean (the drawing's own legend, under it,
   * names the pieces, colours and areas). */
  function marksLegend(info) {
    const mark = (cls, words) => el('li', {}, el('span', {class: `mark ${cls}`, 'aria-hidden': 'true'}), ` ${words}`);
    const patches = info.name === 'patchistory';
    return el('ul', {class: 'marks-legend', id: 'marks-legend', 'aria-label': 'What the outlines on the board mean'},
      mark('mark-target', 'thick dark outline: a place you may click now'),
      mark('mark-focus', 'orange outline: the place pointed at or focused (Enter plays it)'),
      patches ? null : mark('mark-near', 'dotted brown outline: the lands bordering the one pointed at'),
      patches ? mark('mark-white', 'orange-edged squares: where the Tile you won goes, White side up') : null,
      patches ? mark('mark-black', 'dashed dark squares: where it goes, Black side up') : null,
      patches ? mark('mark-building', 'a white square inside a square: a Building on it') : mark('mark-happened', 'dark red outline (in the replay): the places the event names'));
  }

  /** The dashboard stays at the top of the window; the board stays just under it (scrolling
   * inside itself where the window is too short), so the dashboard never covers the map. */
  let dashboardWatch = null;
  function keepBoardClearOfDashboard() {
    if (dashboardWatch) dashboardWatch.disconnect();  // the dashboard of a table left behind
    const box = $('#dashboard');
    if (!box || typeof ResizeObserver === 'undefined') return;
    const note = () => {
      if (box.isConnected) document.documentElement.style.setProperty('--dash-h', `${Math.ceil(box.getBoundingClientRect().height)}px`);
    };
    dashboardWatch = new ResizeObserver(note);
    dashboardWatch.observe(box);
    note();
  }

  function markReady() {
    const t = table;
    const ready = !t || (!t.refreshing && !t.posting && !t.streamTimer);  // nothing heard left to show
    document.body.dataset.ready = ready ? 'true' : 'false';
  }

  const SEATING_EVENTS = ['TableOpened', 'SeatClaimed', 'TableStarted', 'SeatHandedToBot', 'SeatTakenBack',
    'SeatResigned', 'SeatTimedOut', 'TableAbandoned'];
  const LOG_LENGTH = 25;

  /** What the table shows, fetched again: one refresh at a time; what is asked while one runs
   * (a move played, the seats changed, a newer version on the stream) makes exactly one more,
   * unless the one running already read that version. Only what changed is fetched: the board,
   * the view and the log when the version moved, the seats when a seating event came (or a
   * clock runs), the result once. */
  function refresh(t, {version = 0, seating = false} = {}) {
    if (t.closed) return Promise.resolve();
    t.wantSeating = t.wantSeating || seating;
    if (version) t.wantVersion = Math.max(t.wantVersion, version);
    else t.wantFresh = true;
    if (!t.running) t.running = refreshing(t).finally(() => { t.running = null; markReady(); });
    return t.running;
  }

  async function refreshing(t) {
    t.refreshing = true;
    markReady();
    try {
      while (!t.closed && (t.wantFresh || t.wantVersion > t.version)) {
        t.wantFresh = false;
        await refreshOnce(t);
      }
    } finally {
      t.refreshing = false;
    }
  }

  /** One refresh. A seat asks first for its legal actions (they carry the version), a spectator
   * for the summary; then, if the version moved, the board, the state (with the summary) and
   * the log's new lines, all at once. */
  async function refreshOnce(t) {
    t.refreshedAt = Date.now();
    const id = encodeURIComponent(t.gameId);
    const probe = t.token
      ? await call('GET', `/games/${id}/legal-actions`, {token: t.token})
      : await call('GET', `/games/${id}`);
    if (t.closed) return;
    if (t.token && !probe.ok && [401, 403].includes(probe.status)) {
      // a lost or replaced link: say so, and go on watching as a spectator
      fill($('#message'), errorBox(probe, 'This seat link does not work: '),
        el('p', {text: 'You are watching; ask the game\'s admin for a new link.'}));
      t.token = null;
      t.refused = true;
      t.wantFresh = true;
      return;
    }
    if (!probe.ok) {
      fill($('#message'), errorBox(probe));
      return;
    }
    const version = probe.body.version;
    if (t.token) {
      t.legal = probe.body;
      t.seat = t.legal.seat;
      const words = t.legal.action_words || [];
      t.legal.actions.forEach((action, i) => { action.words = words[i] || null; });
    } else {
      t.summary = probe.body;
    }
    const moved = version !== t.shownVersion;
    const seatsToo = t.wantSeating || !t.seating || (moved && t.clocked);
    t.wantSeating = false;
    const from = Math.max(t.logTo + 1, version - LOG_LENGTH + 1, 1);
    const [picture, state, log, seating] = await Promise.all([
      moved && t.info.board ? call('GET', `/games/${id}/board`, {token: t.token}) : Promise.resolve(null),
      moved ? call('GET', `/games/${id}/state`, {token: t.token}) : Promise.resolve(null),
      moved && from <= version ? call('GET', `/games/${id}/narrative?from=${from}&limit=${LOG_LENGTH}`, {token: t.token}) : Promise.resolve(null),
      seatsToo ? call('GET', `/games/${id}/seating`) : Promise.resolve(null),
    ]);
    if (t.closed) return;
    if (state && state.ok) {
      const b = state.body;
      t.state = b.view;
      t.stateBody = b;
      t.summary = {...t.summary, version: b.version, status: b.status, awaiting: b.awaiting, summary: b.summary};
      if (b.version !== version) t.wantFresh = true;  // the game moved between the two answers
    }
    t.version = t.summary.version;
    if (log && log.ok) {
      t.log = [...t.log.filter((entry) => entry.version < from), ...log.body.entries].slice(-LOG_LENGTH);
      t.logTo = t.log.length ? t.log[t.log.length - 1].version : t.logTo;
    }
    if (seating && seating.ok) {
      t.seating = seating.body;
      t.clocked = seating.body.clock.kind !== 'none';
    }
    if (moved && (!state || state.ok) && (!picture || picture.ok)) t.shownVersion = version;
    if (t.summary.status === 'finished' && !t.result) {
      const [, summary] = await Promise.all([fetchResult(t), call('GET', `/games/${id}`)]);
      if (summary.ok) t.summary = summary.body;  // the seed revealed, or soon to be
    }
    if (t.closed) return;
    const where = focusSpot(document.activeElement) || t.playedFrom;
    t.playedFrom = null;
    renderStatus(t);
    if (picture || state) renderBoard(t, picture, state);
    renderDashboard(t);
    renderActions(t);
    renderLog(t);
    renderSeating(t);
    if (t.result) renderResult(t);
    if (where && (!document.activeElement || document.activeElement === document.body)) focusAgain(where);
    document.body.dataset.version = String(t.version);
    document.body.dataset.status = t.summary.status;
  }

  /** Where the player is on the table (a place of the board, a card or player of the
   * dashboard, an action's button), to come back to once the table is drawn again. */
  function focusSpot(node) {
    if (!node || node === document.body || !node.closest || !node.isConnected) return null;
    const place = node.closest('#board [data-land], #board [data-water], #board [data-square], #board .offer');
    if (place) {
      const civ = place.closest('.civ');
      for (const key of ['land', 'water', 'square', 'offer']) {
        if (place.dataset[key] !== undefined) return {board: key, id: place.dataset[key], seat: civ ? civ.dataset.seat : null};
      }
    }
    const card = node.closest('#dashboard .hand-card, #dashboard .dash-player');
    if (card) return card.dataset.card !== undefined ? {card: card.dataset.card} : {player: card.dataset.seat};
    const button = node.closest('#actions button, #dashboard button, #seating button');
    if (button) return {action: button.dataset.action || null, type: button.dataset.type || null, id: button.id || null};
    return null;
  }

  /** Focus the same place again, else the nearest one like it: the place itself (focusable
   * even when it offers nothing now), the same card or player, the same button or one of its
   * group, else the first action; the board or the actions' heading when nothing is left. */
  function focusAgain(where) {
    const take = (node) => {
      if (!node) return false;
      if (!node.hasAttribute('tabindex') && !['BUTTON', 'A', 'INPUT'].includes(node.tagName)) node.setAttribute('tabindex', '-1');
      node.focus({preventScroll: true});
      return document.activeElement === node;
    };
    const q = (selector) => document.querySelector(selector);
    if (where.board) {
      const within = where.seat !== null && where.seat !== undefined ? `#board .civ[data-seat="${CSS.escape(where.seat)}"]` : '#board';
      const selector = `${within} [data-${where.board}="${CSS.escape(where.id)}"]`;
      if (take(q(`${selector}.target`)) || take(q(selector)) || take(q('#board-area'))) return;
    } else if (where.card !== undefined || where.player !== undefined) {
      const selector = where.card !== undefined ? `#dashboard .hand-card[data-card="${CSS.escape(where.card)}"]` : `#dashboard .dash-player[data-seat="${CSS.escape(where.player)}"]`;
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

  /** The seats the game waits for: none once it is over (a table abandoned mid-turn included). */
  function awaitedSeats(t) {
    return new Set(t.summary.status === 'finished' ? [] : t.summary.awaiting);
  }

  /** Who won, in a sentence: "Bot 1 won with 12 points; you came 2nd of 3." */
  function winnerText(t) {
    const result = t.result;
    if (!result) return 'The game is over.';
    const name = (row) => (row.seat === t.seat ? 'you' : row.player);
    const firsts = result.ranking.filter((row) => row.place === 1);
    const counted = SCORES.find(([key]) => Array.isArray((t.summary.summary || {})[key]));
    const unit = counted ? ` ${counted[1]}` : '';
    const won = firsts.length > 1
      ? `${firsts.map(name).join(' and ')} share first place with ${firsts[0].score}${unit}`
      : `${name(firsts[0]).replace(/^you$/, 'You')} won with ${firsts[0].score}${unit}`;
    const mine = result.ranking.find((row) => row.seat === t.seat);
    const came = mine && mine.place !== 1 ? `; you came ${ordinal(mine.place)} of ${result.ranking.length}` : '';
    return `The game is over: ${won.charAt(0).toUpperCase()}${won.slice(1)}${came}.`;
  }

  function renderStatus(t) {
    const s = t.summary;
    const awaited = awaitedSeats(t);
    const me = t.seat;
    const list = el('ul', {class: 'seat-list'}, s.players.map((player, seat) => el('li', {class: awaited.has(seat) ? 'awaited' : null, dataset: {seat: String(seat)}},
      swatches(coloursOf(t, seat)),
      `${player} (${coloursOf(t, seat).map((c) => COLOUR_NAMES[c % 6]).join(', ')})`, me === seat ? ' — you' : '', awaited.has(seat) ? ' — to play' : '')));
    const facts = Object.entries(s.summary || {}).filter(([key]) => !['awaiting', 'current_seat', 'start_player'].includes(key));
    const box = $('#status');
    fill(box, el('h2', {id: 'status-title', text: 'The game'}),
      el('p', {class: 'status-line'}, el('span', {}, 'Version ', el('strong', {id: 'version', text: String(s.version)})),
        el('span', {}, 'Status ', el('strong', {id: 'game-status', text: s.status}))),
      list,
      facts.length ? el('details', {}, el('summary', {text: 'Summary'}), definitionList(t.info, Object.fromEntries(facts))) : null);
    const over = s.status === 'finished';  // legal actions fetched a moment before the end offer nothing now
    const answer = !over && t.legal && (t.legal.table_actions || []).some((a) => a.command.type === 'accept_rewind');
    const mine = !over && t.legal && (t.legal.your_turn || answer);
    setYourTurn(mine ? (answer && !t.legal.your_turn ? `Your answer, ${s.players[me]}: a rewind` : `Your turn, ${s.players[me]}`) : null);
    document.title = `${mine ? '● Your turn — ' : ''}Game ${t.gameId} — Chronicle`;
  }

  const ROMAN = ['', 'I', 'II', 'III', 'IV', 'V', 'VI', 'VII'];
  const SCORES = [['gold', 'gold'], ['points', 'points'], ['culture', 'Culture']];
  const HAND_KEYS = ['hand', 'empire_cards', 'event_cards', 'area_tokens', 'building_tiles', 'prosperity', 'honor_track', 'pool_honors'];
  const CARD_ARGS = ['card', 'empire', 'honor', 'token', 'building', 'ability'];
  const COMPACT = ['Area tokens'];  // an Empire card shows what it brings: its people, start and fleets
  const GOODS = {coin: 'Coin', food: 'Food', resource: 'Resources', culture: 'Culture', votes: 'Votes'};

  /** Each player's score as the summary counts it: [what, per seat] (colours summed by player). */
  function scores(t) {
    const s = t.summary.summary || {};
    const n = t.summary.players.length;
    if (t.result && Array.isArray(t.result.scores)) return ['(final score)', t.result.scores];
    for (const [key, what] of SCORES) {
      if (!Array.isArray(s[key])) continue;
      const per = Array(n).fill(0);
      s[key].forEach((value, i) => { per[i % n] += Number(value) || 0; });
      return [what, per];
    }
    return [null, []];
  }

  function whenText(t) {
    const s = t.summary.summary || {};
    const parts = [];
    if (s.epoch) parts.push(`Epoch ${ROMAN[s.epoch] || s.epoch}`);
    if (s.era) parts.push(`Era ${ROMAN[s.era] || s.era}`);
    if (s.round) parts.push(`Round ${s.round}`);
    if (s.stage && s.stage !== 'turns') parts.push(humanise(s.stage));
    if (s.phase) parts.push(humanise(String(s.phase)));
    return parts.join(' · ');
  }

  /** The colours a seat plays: Brief deals several to each player (its view says which);
   * elsewhere a seat is its one colour. */
  function coloursOf(t, seat) {
    const players = t.state && Array.isArray(t.state.players) ? t.state.players : [];
    const listed = players[seat] && Array.isArray(players[seat].colours) ? players[seat].colours : null;
    return listed && listed.length ? listed : [seat];
  }
  function swatches(colours) {
    return colours.map((c) => el('span', {class: 'swatch', style: `background:${SEAT_COLOURS[c % 6]}`, 'aria-hidden': 'true'}));
  }

  /** The Empire being played now, and by whom: "Now: Phonacia, played by ann" (Brief: "by
   * ann's green"), from the view's turn; null between turns. */
  function playingText(t) {
    const turn = t.state && t.state.turn;
    if (!turn || typeof turn !== 'object') return null;
    const id = [turn.empire, turn.card].find((v) => typeof v === 'string' && v);
    if (!id) return null;
    const name = (t.info.names || {})[id] || humanise(id);
    const players = t.summary.players;
    let by = null;
    if (typeof turn.colour === 'number') {
      const owner = ((t.state.colours || [])[turn.colour] || {}).seat;
      const colour = COLOUR_NAMES[turn.colour % 6];
      by = typeof owner === 'number' ? `${owner === t.seat ? 'your' : `${players[owner]}'s`} ${colour}` : colour;
    } else if (typeof turn.seat === 'number') {
      by = turn.seat === t.seat ? 'you' : players[turn.seat];
    }
    const left = typeof turn.armies_left === 'number' ? `; ${turn.armies_left} ${turn.armies_left === 1 ? 'army' : 'armies'} left to place` : '';
    return `Now: ${name}${by ? `, played by ${by}` : ''}${left}.`;
  }

  /** The cards (tiles, tokens) the seat holds: [title, ids] per kind, from its view. */
  function handOf(t) {
    const me = t.state && t.seat !== null && t.state.players ? t.state.players[t.seat] : null;
    if (!me) return [];
    const known = (id) => typeof id === 'string' && ((t.info.cards || {})[id] || (t.info.names || {})[id]);
    const found = [];
    for (const key of HAND_KEYS) {
      const ids = me[key];
      if (Array.isArray(ids) && ids.length && ids.every(known)) found.push([humanise(key), ids]);
    }
    for (const colour of t.state.colours || []) {
      if (colour.seat === t.seat && colour.empire) found.push([`Empire of your ${COLOUR_NAMES[colour.colour % 6]} colour`, [colour.empire]]);
    }
    // the cards an action offers that the seat does not hold: to choose from, as cards too
    const shown = new Set(found.flatMap(([, ids]) => ids));
    const offered = [];
    for (const action of (t.legal && t.legal.actions) || []) {
      for (const [key, value] of argsOf(action.command)) {
        if (!CARD_ARGS.includes(key)) continue;
        if (typeof value === 'string' && (t.info.cards || {})[value] && !shown.has(value)) {
          shown.add(value);
          offered.push(value);
        }
      }
    }
    if (offered.length) found.push(['To choose from', offered]);
    return found;
  }

  function goodsOf(t) {
    const me = t.state && t.seat !== null && t.state.players ? t.state.players[t.seat] : null;
    if (!me) return [];
    const found = [];
    if (typeof me.gold === 'number') found.push(['Gold', me.gold]);
    if (typeof me.points === 'number' && scores(t)[0] === null) found.push(['Points', me.points]);  // else the players' row shows them
    if (typeof me.supply === 'number') found.push(['People in supply', me.supply]);
    for (const colour of t.state.colours || []) {
      if (colour.seat === t.seat) found.push([`Gold (${COLOUR_NAMES[colour.colour % 6]})`, colour.gold]);
    }
    for (const [key, value] of Object.entries(me.goods || {})) found.push([GOODS[key] || humanise(key), value]);
    return found;
  }

  /** What the game waits for, and from whom; for the seat, what it is asked to do. */
  function awaitedText(t) {
    const s = t.summary;
    if (s.status === 'finished') return winnerText(t);
    if (s.status === 'closing') return 'The rules are closing the epoch; the table goes on in a moment.';
    const procedures = (t.legal && t.legal.table_actions) || [];
    const proposal = procedures.find((a) => a.command.type === 'accept_rewind');
    if (proposal) return 'A rewind is proposed: answer it (accept or refuse) below or in "At the table".';
    if (t.legal && t.legal.your_turn) {
      const kinds = [...new Set(t.legal.actions.map((a) => humanise(a.command.type)))];
      return `Your turn: ${kinds.slice(0, 4).join(', ')}${kinds.length > 4 ? ', …' : ''}.`;
    }
    const waiting = s.awaiting.map((seat) => s.players[seat]).join(', ');
    return waiting ? `Waiting for ${waiting}.` : 'Waiting.';
  }

  function renderDashboard(t) {
    const box = $('#dashboard');
    if (!box) return;
    const [what, per] = scores(t);
    const awaited = awaitedSeats(t);
    const players = el('div', {class: 'dash-players', role: 'group', 'aria-label': 'Players'}, t.summary.players.map((player, seat) =>
      el('div', {class: `dash-player${awaited.has(seat) ? ' awaited' : ''}`, dataset: {seat: String(seat)}},
        swatches(coloursOf(t, seat)),
        el('span', {class: 'who', text: `${player}${t.seat === seat ? ' (you)' : ''}`}),
        what ? el('span', {class: 'score', text: `${per[seat]} ${what}`}) : null,
        awaited.has(seat) ? el('span', {class: 'to-play', text: 'to play'}) : null)));
    const procedures = (t.legal && t.legal.table_actions) || [];
    const answers = procedures.filter((a) => ['accept_rewind', 'refuse_rewind'].includes(a.command.type)).map((a) =>
      el('button', {type: 'button', class: 'action table dash-answer', dataset: {type: a.command.type},
        on: {click: () => play(t, a)}, text: a.command.type === 'accept_rewind' ? 'Accept the rewind' : 'Refuse the rewind'}));
    const goods = goodsOf(t);
    const hand = handOf(t);
    const playing = t.summary.status === 'finished' ? null : playingText(t);
    fill(box,
      el('div', {class: 'dash-row'},
        el('strong', {class: 'dash-when', id: 'dash-when', text: whenText(t) || t.summary.status}),
        el('span', {class: 'dash-awaited', id: 'dash-awaited', role: 'status', text: awaitedText(t)}), answers,
        playing ? el('span', {class: 'dash-playing', id: 'dash-playing', text: playing}) : null),
      players,
      goods.length ? el('p', {class: 'dash-goods', id: 'dash-goods'}, goods.map(([k, v], i) => [i ? ' · ' : '', el('span', {}, `${k}: `, el('strong', {text: String(v)}))])) : null,
      hand.length ? el('div', {class: 'dash-hand', id: 'dash-hand', role: 'region', tabindex: 0, 'aria-label': 'Your cards'}, hand.map(([title, ids]) => el('div', {class: 'hand-group', role: 'group', 'aria-label': title},
        el('span', {class: 'hand-title', text: `${title}:`}),
        copies(ids).map(([id, count]) => el('div', {class: `hand-card${COMPACT.includes(title) ? ' compact' : ''}`, dataset: {card: id}, title: COMPACT.includes(title) ? (t.info.cards || {})[id] || null : null},
          el('strong', {text: `${(t.info.names || {})[id] || id}${count > 1 ? ` ×${count}` : ''}`}),
          (t.info.cards || {})[id] && !COMPACT.includes(title) ? el('span', {class: 'card-text', text: (t.info.cards || {})[id]}) : null))))) : null);
  }

  /** Each card once, with how many copies of it the hand holds, in the hand's order. */
  function copies(ids) {
    const counts = new Map();
    for (const id of ids) counts.set(id, (counts.get(id) || 0) + 1);
    return [...counts];
  }

  /** Cards of the hand and players of the dashboard that an action names become its buttons. */
  function markDashboard(t, cards, seats) {
    for (const node of $$('#dashboard .hand-card, #dashboard .dash-player')) {
      const id = node.dataset.card !== undefined ? node.dataset.card : null;
      const actions = id !== null ? cards.get(id) : seats.get(Number(node.dataset.seat));
      if (!actions || !actions.length) continue;
      const name = id !== null ? ((t.info.names || {})[id] || id) : t.summary.players[Number(node.dataset.seat)];
      node.classList.add('target');
      node.setAttribute('tabindex', '0');
      node.setAttribute('role', 'button');
      node.setAttribute('title', actions.length === 1 ? wordsOf(t.info, actions[0]).words : `${name}: choose`);
      node.dataset.name = name;
      const activate = (event) => {
        event.preventDefault();
        if (actions.length === 1) play(t, actions[0]);
        else openChooser(t, node, actions);
      };
      node.addEventListener('click', activate);
      node.addEventListener('keydown', (event) => { if (event.key === 'Enter' || event.key === ' ') activate(event); });
    }
  }

  function renderBoard(t, picture, state) {
    const box = $('#board');
    const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest('#board [data-land], #board [data-water]');
    const focusedPlace = focused ? (focused.dataset.land || focused.dataset.water) : null;
    const shown = box.querySelector(':scope > svg');
    if (picture && picture.ok && shown && picture.body === t.boardText) {
      clearPreview(shown);  // the same drawing: the one shown stays, with its focus and hover
    } else if (picture && picture.ok) {
      const svg = parseSvg(picture.body);
      if (svg) {
        fill(box, svg);
        wireBoard(t, svg);
        t.boardText = picture.body;
        t.boardMarks = [];
      }
    } else if (picture) {
      fill(box, errorBox(picture, 'The board cannot be drawn: '));
    }
    if (state && state.ok && !t.info.board) {
      fill(box, el('h2', {text: 'The table'}), definitionList(t.info, state.body.view, 0, t.summary.players));
    }
    renderViewDetails(t, state);
    if (focusedPlace) {
      const again = box.querySelector(`[data-land="${CSS.escape(focusedPlace)}"].target, [data-water="${CSS.escape(focusedPlace)}"].target`);
      if (again) again.focus();
    }
  }

  /** Everything the caller may see, as the ruleset's view: read only while it is open. */
  function renderViewDetails(t, state) {
    const box = $('#view-details');
    let details = box.querySelector('details');
    if (!details) {
      details = el('details', {}, el('summary', {text: t.token ? 'Everything your seat may see' : 'Everything a spectator may see'}),
        el('div', {class: 'state-view'}));
      details.addEventListener('toggle', () => { t.viewOpen = details.open; });
      fill(box, details);
    }
    if (state && state.ok) fill(details.querySelector('.state-view'), definitionList(t.info, state.body.view, 0, t.summary.players));
  }

  function wireBoard(t, svg) {
    for (const land of svg.querySelectorAll('.land')) {
      const near = (on) => {
        for (const id of (land.dataset.borders || '').split(' ')) {
          const other = id && svg.querySelector(`.land[data-land="${CSS.escape(id)}"]`);
          if (other) other.classList.toggle('near', on);
        }
      };
      land.addEventListener('mouseenter', () => near(true));
      land.addEventListener('mouseleave', () => near(false));
    }
  }

  /** The places (lands, waters; squares of the seat's territory, Tiles at the Auction) an
   * action names: clicking one of them plays it. */
  function placesOf(svg, command, seat) {
    const found = [];
    for (const [, value] of argsOf(command)) {
      if (typeof value !== 'string') continue;
      if (svg.querySelector(`[data-land="${CSS.escape(value)}"], [data-water="${CSS.escape(value)}"]`)) found.push(value);
    }
    if (Number.isInteger(command.row) && Number.isInteger(command.col) && squareNode(svg, seat, `${command.row},${command.col}`)) {
      found.push(`square:${command.row},${command.col}`);
    }
    if (Number.isInteger(command.tile) && svg.querySelector(`.offer[data-offer="${command.tile}"]`)) found.push(`offer:${command.tile}`);
    return found;
  }

  function squareNode(svg, seat, square) {
    return svg.querySelector(`.civ[data-seat="${seat}"] [data-square="${CSS.escape(square)}"]`);
  }

  function placeNode(svg, seat, place) {
    if (place.startsWith('square:')) return squareNode(svg, seat, place.slice(7));
    if (place.startsWith('offer:')) return svg.querySelector(`.offer[data-offer="${CSS.escape(place.slice(6))}"]`);
    return svg.querySelector(`[data-land="${CSS.escape(place)}"], [data-water="${CSS.escape(place)}"]`);
  }

  /** Where a won Tile would go if patched with its top-left square here: both sides drawn. */
  function previewPatch(t, svg, node, actions) {
    clearPreview(svg);
    const patches = actions.filter((a) => a.command.type === 'patch');
    if (!patches.length) return;
    const civ = node.closest('.civ');
    const won = svg.querySelector(`.to-patch[data-seat="${t.seat}"]`);
    if (!civ || !won) return;
    const cell = Number(civ.dataset.cell);
    const x0 = Number(civ.dataset.x0), y0 = Number(civ.dataset.y0), r0 = Number(civ.dataset.r0), c0 = Number(civ.dataset.c0);
    const ns = 'http://www.w3.org/2000/svg';
    const layer = document.createElementNS(ns, 'g');
    layer.setAttribute('class', 'patch-preview');
    layer.setAttribute('pointer-events', 'none');
    const sides = [...new Set(patches.map((a) => a.command.side))];
    sides.forEach((side, k) => {
      for (const pair of (won.dataset[side] || '').split(' ').filter(Boolean)) {
        const [dr, dc] = pair.split(',').map(Number);
        const r = patches[0].command.row + dr, c = patches[0].command.col + dc;
        const rect = document.createElementNS(ns, 'rect');
        const inset = 2 + 5 * k;
        rect.setAttribute('x', String(x0 + (c - c0) * cell + inset));
        rect.setAttribute('y', String(y0 + (r - r0) * cell + inset));
        rect.setAttribute('width', String(cell - 2 * inset));
        rect.setAttribute('height', String(cell - 2 * inset));
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
    if (note) note.textContent = `Patching here: ${sides.map((s) => (s === 'white' ? 'the White side (orange outline)' : 'the Black side (dashed)')).join(' or ')}; click to choose.`;
  }

  function clearPreview(svg) {
    for (const old of svg.querySelectorAll('.patch-preview')) old.remove();
  }

  function renderActions(t) {
    const box = $('#actions');
    const focusedKey = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.action : null;
    const focusWasHere = box.contains(document.activeElement);
    fill(box, );
    const status = t.summary.status;
    if (!t.token || !t.legal) {
      markTargets(t, $('#board svg'), new Map());  // a kept board offers nothing it offered before
      if (!t.token && !t.refused) box.append(el('p', {class: 'muted', text: 'You are watching: open a seat\'s join link to play it.'}));
      return;
    }
    if (status === 'closing') {
      box.append(el('p', {class: 'notice', role: 'status', text: 'The rules are closing the epoch; the table goes on in a moment.'}));
    }
    const mine = t.seating && t.seat !== null ? t.seating.seats[t.seat] : null;
    const gone = mine && mine.left ? (mine.left === 'resigned' ? 'you resigned' : 'your time ran out') : null;
    if (status === 'finished') {
      box.append(el('p', {class: 'notice', id: 'over', text: gone ? `The game is over: ${gone}, and you rank last.` : 'The game is over.'}));
      markTargets(t, $('#board svg'), new Map());
      return;
    } else if (gone) {
      box.append(el('p', {class: 'notice', id: 'gone', text: `${gone.charAt(0).toUpperCase()}${gone.slice(1)}: a bot plays your pieces to the end, and you rank last.`}));
    } else if (!t.legal.your_turn) {
      const waiting = t.summary.awaiting.map((seat) => t.summary.players[seat]).join(', ');
      box.append(el('p', {class: 'muted', text: waiting ? `Waiting for ${waiting}.` : 'Waiting.'}));
    }
    const specs = new Map(t.info.commands.map((spec) => [spec.type, spec]));
    const groups = new Map();
    for (const action of t.legal.actions) {
      const type = action.command.type;
      if (!groups.has(type)) groups.set(type, []);
      groups.get(type).push(action);
    }
    const svg = $('#board svg');
    const targets = new Map();
    const held = new Set(handOf(t).flatMap(([, ids]) => ids));
    const cards = new Map();
    const seats = new Map();
    const add = (map, key, action) => {
      if (!map.has(key)) map.set(key, []);
      map.get(key).push(action);
    };
    for (const [type, actions] of groups) {
      const spec = specs.get(type);
      const headingId = `group-${type}`;
      const buttons = actions.map((action) => {
        if (svg) for (const place of placesOf(svg, action.command, t.seat)) add(targets, place, action);
        for (const [key, value] of argsOf(action.command)) {
          if (typeof value === 'string' && held.has(value)) add(cards, value, action);
          if (['to', 'seat', 'target_seat'].includes(key) && Number.isInteger(value)) add(seats, value, action);
        }
        const c = action.command;
        const spot = {};
        if (Number.isInteger(c.row) && Number.isInteger(c.col)) spot.square = `${c.row},${c.col}`;
        if (Number.isInteger(c.tile)) spot.offer = String(c.tile);
        return el('button', {type: 'button', class: 'action', dataset: {action: actionKey(action.command), type, args: JSON.stringify(Object.fromEntries(argsOf(action.command))), ...spot},
          on: {click: () => play(t, action)}, text: wordsOf(t.info, action).label});
      });
      box.append(el('div', {class: 'group', role: 'group', 'aria-labelledby': headingId, dataset: {type}},
        el('h3', {id: headingId, text: humanise(type)}),
        spec && spec.description ? el('p', {text: firstSentence(spec.description)}) : null,
        el('div', {class: 'buttons'}, buttons)));
    }
    box.append(tableProcedures(t));
    markTargets(t, svg, targets);
    markDashboard(t, cards, seats);
    if (focusedKey) {
      const again = box.querySelector(`[data-action="${CSS.escape(focusedKey)}"]`);
      if (again) again.focus();
      else if (focusWasHere) {
        const firstAction = box.querySelector('button.action');
        if (firstAction) firstAction.focus();
      }
    }
  }

  function tableProcedures(t) {
    const actions = t.legal.table_actions || [];
    const byType = new Map(actions.map((a) => [a.command.type, a]));
    const group = el('div', {class: 'group table-procedures', role: 'group', 'aria-labelledby': 'group-table'},
      el('h3', {id: 'group-table', text: 'At the table'}));
    const buttons = el('div', {class: 'buttons'});
    group.append(buttons);
    if (byType.has('undo')) {
      buttons.append(el('button', {type: 'button', class: 'action table', id: 'undo', dataset: {action: 'undo', type: 'undo'},
        on: {click: () => play(t, byType.get('undo'))}, text: 'Undo my last action'}));
    }
    for (const type of ['accept_rewind', 'refuse_rewind']) {
      if (byType.has(type)) {
        buttons.append(el('button', {type: 'button', class: 'action table', id: type.replace('_', '-'), dataset: {action: type, type},
          on: {click: () => play(t, byType.get(type))}, text: type === 'accept_rewind' ? 'Accept the rewind' : 'Refuse the rewind'}));
      }
    }
    if (byType.has('propose_rewind')) {
      const proposal = byType.get('propose_rewind');
      const input = el('input', {type: 'number', id: 'rewind-to', min: 1, max: t.version, value: proposal.command.to_version, 'aria-describedby': 'rewind-hint'});
      group.append(el('div', {class: 'field'}, el('label', {for: 'rewind-to', text: 'Go back to version'}), input, ' ',
        el('button', {type: 'button', class: 'action table', id: 'propose-rewind', dataset: {action: 'propose_rewind', type: 'propose_rewind'},
          on: {click: () => play(t, {command: {type: 'propose_rewind', to_version: Number(input.value)}, expected_version: proposal.expected_version})},
          text: 'Propose'}),
        el('span', {class: 'hint', id: 'rewind-hint', text: 'Every other seat must accept; the end of a command only.'})));
    }
    if (!buttons.childElementCount && !byType.has('propose_rewind')) {
      group.append(el('p', {class: 'muted', text: 'Nothing to undo or rewind now.'}));
    }
    return group;
  }

  function markTargets(t, svg, targets) {
    if (!svg) return;
    // A drawing kept from the last position still carries what that marking did: undo it all
    // (listeners included), latest first, so no place plays an action of a position gone by.
    for (const undo of (t.boardMarks || []).reverse()) undo();
    t.boardMarks = [];
    const listen = (node, type, handler) => {
      node.addEventListener(type, handler);
      t.boardMarks.push(() => node.removeEventListener(type, handler));
    };
    const mark = (node, name, value) => {
      const was = node.getAttribute(name);
      node.setAttribute(name, value);
      t.boardMarks.push(() => (was === null ? node.removeAttribute(name) : node.setAttribute(name, was)));
    };
    for (const node of svg.querySelectorAll('.target')) {
      node.classList.remove('target');
      node.removeAttribute('tabindex');
      node.removeAttribute('role');
      node.removeAttribute('aria-label');
    }
    const patching = [...targets.values()].some((actions) => actions.some((a) => a.command.type === 'patch'));
    const box = $('#board');
    let note = $('#patch-note');
    if (patching && !note) {
      note = el('p', {id: 'patch-note', class: 'notice', role: 'status', text: 'Point at a square of your territory to see where the Tile you won would go, on both sides.'});
      box.prepend(note);
    } else if (!patching && note) {
      note.remove();
    }
    for (const [place, actions] of targets) {
      const node = placeNode(svg, t.seat, place);
      if (!node) continue;
      if (!node.dataset.name) mark(node, 'data-name', place.startsWith('square:') ? `the square ${place.slice(7)}` : place.startsWith('offer:') ? `Tile #${Number(place.slice(6)) + 1} at the Auction` : place);
      if (actions.some((a) => a.command.type === 'patch')) {
        listen(node, 'mouseenter', () => previewPatch(t, svg, node, actions));
        listen(node, 'focus', () => previewPatch(t, svg, node, actions));
        listen(node, 'mouseleave', () => clearPreview(svg));
        listen(node, 'blur', () => clearPreview(svg));
      }
      node.classList.add('target');
      t.boardMarks.push(() => node.classList.remove('target'));
      mark(node, 'tabindex', '0');
      mark(node, 'role', 'button');
      const kinds = actions.length === 1 ? wordsOf(t.info, actions[0]).words : [...new Set(actions.map((a) => humanise(a.command.type)))].join(' or ');
      // a spot showing text of its own (a Tile) is named by it; the others by their name
      if (node.querySelector('text')) mark(node, 'title', `${node.dataset.name}: ${kinds}`);
      else mark(node, 'aria-label', `${node.dataset.name}: ${kinds}`);
      mark(node, 'data-actions', String(actions.length));
      const activate = (event) => {
        event.preventDefault();
        if (actions.length === 1) play(t, actions[0]);
        else openChooser(t, node, actions);
      };
      listen(node, 'click', activate);
      listen(node, 'keydown', (event) => {
        if (event.key === 'Enter' || event.key === ' ') activate(event);
      });
    }
  }

  let chooser = null;
  function closeChooser() {
    if (chooser) {
      const back = chooser.returnTo;
      chooser.remove();
      chooser = null;
      if (back && document.contains(back)) back.focus();
    }
  }

  function openChooser(t, node, actions) {
    closeChooser();
    const rect = node.getBoundingClientRect();
    const name = node.dataset.name;
    chooser = el('div', {class: 'chooser', id: 'chooser', role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': 'chooser-title'},
      el('h2', {id: 'chooser-title', text: `${name}: choose`}),
      el('div', {class: 'buttons'},
        actions.map((action) => el('button', {type: 'button', class: 'action', dataset: {action: actionKey(action.command), type: action.command.type},
          on: {click: () => { closeChooser(); play(t, action); }}, text: wordsOf(t.info, action).words})),
        el('button', {type: 'button', class: 'secondary', id: 'chooser-cancel', on: {click: closeChooser}, text: 'Cancel'})));
    chooser.returnTo = node;
    chooser.addEventListener('keydown', (event) => { if (event.key === 'Escape') closeChooser(); });
    document.body.append(chooser);
    const left = Math.min(window.innerWidth - chooser.offsetWidth - 8, Math.max(8, rect.left + rect.width / 2));
    const top = Math.max(8, Math.min(window.innerHeight - chooser.offsetHeight - 8, rect.top + rect.height / 2));  // a long one scrolls inside
    chooser.style.left = `${left}px`;
    chooser.style.top = `${top}px`;
    chooser.querySelector('button').focus();
  }

  async function play(t, action) {
    if (t.posting || t.closed) return;
    closeChooser();
    t.playedFrom = focusSpot(document.activeElement);
    t.posting = true;
    markReady();
    for (const button of $$('#actions button')) button.disabled = true;
    fill($('#message'), );
    const body = {command: action.command, expected_version: action.expected_version};
    const posted = await call('POST', `/games/${encodeURIComponent(t.gameId)}/commands`, {token: t.token, body, idempotent: true});
    t.posting = false;
    if (!posted.ok) {
      const body = posted.body || {};
      if (body.code === 'game_busy') {
        fill($('#message'), el('p', {class: 'notice', role: 'status', text: 'The rules are closing the epoch: try again in a moment.'}));
      } else if (body.code === 'version_conflict') {
        fill($('#message'), el('p', {class: 'notice', role: 'status', text: 'The game moved on meanwhile: here are your actions now.'}));
      } else {
        fill($('#message'), errorBox(posted, 'Refused: '));
      }
    }
    await refresh(t);
  }

  /** The versions taken back by an undo or a rewind among `entries`. */
  function undoneVersions(entries) {
    const undone = new Set();
    for (const entry of entries) {
      const d = entry.data || {};
      let from = null;
      if (entry.type === 'ActionsUndone') from = d.undone_from;
      if (entry.type === 'GameRewound') from = Number(d.to_version) + 1;
      if (from === null || from === undefined || d.undone_through === undefined) continue;
      for (let v = Number(from); v <= Number(d.undone_through); v += 1) undone.add(v);
    }
    return undone;
  }

  function renderLog(t) {
    const list = $('#log');
    const undone = undoneVersions(t.log);
    fill(list, ...t.log.slice().reverse().map((entry) => {
      const where = citation(entry.page, entry.section);
      const taken = undone.has(entry.version);
      const words = taken ? el('del', {text: entry.words}) : entry.words;
      return el('li', {class: taken ? 'undone' : null, dataset: {version: String(entry.version), type: entry.type, undone: taken ? 'true' : 'false'}},
        el('span', {class: 'v', text: `${entry.version}.`}), ' ', words,
        taken ? el('span', {class: 'muted', text: ' (taken back)'}) : null,
        where ? el('span', {class: 'muted cite', title: entry.rule, text: ` — ${where}`}) : null);
    }));
  }

  async function fetchResult(t) {
    const result = await call('GET', `/games/${encodeURIComponent(t.gameId)}/result`, {token: t.token});
    if (result.ok) t.result = result.body;
  }

  /** The result, once the game is over, at the top: just under the dashboard. */
  function renderResult(t) {
    const box = $('#result');
    const result = t.result;
    const top = $('#dashboard');
    if (top && box.previousElementSibling !== top) top.after(box);
    box.hidden = false;
    fill(box, el('h2', {id: 'result-title', text: 'Result'}),
      el('table', {}, el('thead', {}, el('tr', {}, ['Place', 'Player', 'Score'].map((h) => el('th', {scope: 'col', text: h})))),
        el('tbody', {}, result.ranking.map((row) => el('tr', {dataset: {seat: String(row.seat)}},
          el('td', {text: String(row.place)}), el('td', {text: row.player}), el('td', {text: String(row.score)}))))),
      el('p', {class: 'muted', text: result.tie_breaks.length ? `Ties are broken by: ${result.tie_breaks.join('; ')}.` : 'The rules name no tie-breaker.'}));
  }

  const QUIET_MS = 250;
  const AT_MOST_MS = 1500;

  /** The stream's events, folded: the first after a quiet spell is fetched at once; those that
   * follow it closely are fetched together once the stream is quiet for a moment, and at least
   * every second and a half while bots play on, never once per event. */
  function onStreamEvent(t, version, seating) {
    if (version && version <= t.version) return;  // already shown (a move of this page's own)
    t.streamVersion = Math.max(t.streamVersion || 0, version);
    t.streamSeating = t.streamSeating || seating;
    const go = () => {
      t.streamWent = Date.now();
      clearTimeout(t.streamTimer);
      t.streamTimer = null;
      t.streamFirst = 0;
      const want = {version: t.streamVersion || 0, seating: t.streamSeating};
      t.streamSeating = false;
      refresh(t, want);
    };
    const now = Date.now();
    if (!t.streamTimer && !t.running && now - (t.streamWent || 0) > QUIET_MS) {
      t.streamWent = now;  // the first event after a quiet spell is shown at once
      t.streamFirst = now;
      t.streamTimer = setTimeout(go, 0);
      markReady();
      return;
    }
    if (!t.streamFirst) t.streamFirst = now;
    clearTimeout(t.streamTimer);
    t.streamTimer = setTimeout(go, Math.max(0, Math.min(QUIET_MS, t.streamFirst + AT_MOST_MS - now)));
    markReady();
  }

  /** The live feed: the game's stream (a seat opens its private feed with a stream ticket).
   * A stream that drops is opened again by the page itself, from the version it shows, with a
   * fresh ticket, after a pause that doubles while it keeps failing; the header says so. */
  async function follow(t) {
    if (t.closed) return;
    if (t.stream) t.stream.close();
    t.stream = null;
    if (t.summary.status === 'finished' && t.summary.seed_revealed) {
      notePace('stream', null);
      document.body.dataset.stream = 'ended';
      return;
    }
    const id = encodeURIComponent(t.gameId);
    let url = `/games/${id}/stream?from=${t.version + 1}`;
    if (t.token) {
      const ticket = await call('POST', `/games/${id}/stream-tickets`, {token: t.token});
      if (t.closed) return;
      if (!ticket.ok) {
        // a token the game refuses (401, 403) stays refused: the page says so, and stops
        if (![401, 403, 404].includes(ticket.status)) reconnectLater(t);
        return;
      }
      url = `${ticket.body.stream_url}&from=${t.version + 1}`;
    }
    const stream = new EventSource(url);
    t.stream = stream;
    t.streams = (t.streams || 0) + 1;
    document.body.dataset.streams = String(t.streams);
    stream.addEventListener('open', () => {
      if (t.stream !== stream) return;
      t.streamFailures = 0;
      notePace('stream', null);
      document.body.dataset.stream = 'open';
    });
    const seatingTypes = new Set(SEATING_EVENTS);
    for (const type of new Set([...t.info.event_types, ...SEATING_EVENTS])) {
      stream.addEventListener(type, (event) => onStreamEvent(t, Number(event.lastEventId || 0), seatingTypes.has(type)));
    }
    stream.addEventListener('error', () => {
      if (t.closed || t.stream !== stream) return;
      // An ended stream (the game is over), an expired ticket or a lost connection: start again
      // from what the table shows, with a fresh ticket.
      stream.close();
      t.stream = null;
      refresh(t).then(() => {
        if (t.summary.status === 'finished' && t.summary.seed_revealed) return follow(t);
        reconnectLater(t);
      });
    });
  }

  function reconnectLater(t) {
    if (t.closed) return;
    t.streamFailures = (t.streamFailures || 0) + 1;
    const ms = Math.min(30000, 500 * 2 ** Math.min(6, t.streamFailures - 1));
    document.body.dataset.stream = 'reconnecting';
    notePace('stream', `The live feed dropped: reconnecting in ${Math.ceil(ms / 1000)} s (the table above is as of version ${t.version}).`);
    setTimeout(() => follow(t), ms);
  }

  // --- the admin's page ------------------------------------------------------------------

  async function showAdmin(gameId, adminToken) {
    setView('admin', `Admin of game ${gameId}`);
    setYourTurn(null);
    const summary = await call('GET', `/games/${encodeURIComponent(gameId)}`);
    const root = main();
    if (!summary.ok) {
      fill(root, el('h1', {text: `Game ${gameId}`}), errorBox(summary));
      document.body.dataset.ready = 'true';
      return;
    }
    const rows = summary.body.players.map((player, seat) => el('tr', {dataset: {seat: String(seat)}},
      el('td', {text: String(seat + 1)}), el('td', {text: player}),
      el('td', {class: 'new-link'}, el('button', {type: 'button', class: 'reissue', dataset: {seat: String(seat)}, text: `Issue a new link for ${player}`,
        on: {click: (event) => reissue(gameId, adminToken, seat, player, event.target.closest('td'))}}))));
    fill(root, el('h1', {}, 'Admin of game ', el('code', {text: gameId})),
      el('p', {text: 'A player who lost their link gets a new one here; their old link stops working at once.'}),
      el('table', {}, el('thead', {}, el('tr', {}, ['Seat', 'Player', 'Link'].map((h) => el('th', {scope: 'col', text: h})))), el('tbody', {}, rows)),
      el('p', {}, el('a', {href: `/${fragment({game: gameId})}`, text: 'Watch the game'}), ' · ',
        el('a', {href: `/${fragment({game: gameId, replay: 1})}`, text: 'Replay it'})));
    document.body.dataset.ready = 'true';
  }

  async function reissue(gameId, adminToken, seat, player, cell) {
    const answer = await call('POST', `/games/${encodeURIComponent(gameId)}/seats/${seat}/token`, {token: adminToken});
    if (!answer.ok) {
      cell.append(errorBox(answer));
      return;
    }
    const hash = fragment({game: gameId, token: answer.body.seat_token});
    fill(cell, el('a', {class: 'join-link', href: `/${hash}`, dataset: {seat: String(seat)}, text: absolute(hash)}), ' ',
      copyButton(absolute(hash), `${player}'s new join link`),
      el('p', {class: 'muted', role: 'status', text: `${player}'s old link no longer works.`}));
  }

  // --- replay and rulings ----------------------------------------------------------------

  let replay = null;

  async function showReplay(gameId, token, at, adminToken = null) {
    setView('replay', `Replay of game ${gameId}`);
    setYourTurn(null);
    const root = main();
    const summary = await call('GET', `/games/${encodeURIComponent(gameId)}`, {token});
    if (!summary.ok) {
      fill(root, el('h1', {text: `Game ${gameId}`}), errorBox(summary));
      document.body.dataset.ready = 'true';
      return;
    }
    const info = await rulesetInfo(summary.body.ruleset);
    const r = {gameId, token, adminToken, info, summary: summary.body, entries: [], at: 1, boardFor: 0, closed: false, pending: null};
    replay = r;
    fill(root, 
      el('h1', {}, `Replay — ${summary.body.title} — game `, el('code', {text: gameId})),
      el('div', {class: 'replay-controls', role: 'group', 'aria-label': 'Replay controls'},
        el('button', {type: 'button', id: 'first', text: '|◀ First event'}),
        el('button', {type: 'button', id: 'prev', text: '◀ Previous event'}),
        el('label', {for: 'slider', class: 'muted', text: 'Event'}),
        el('input', {type: 'range', id: 'slider', min: 1, max: Math.max(1, summary.body.version), value: 1}),
        el('button', {type: 'button', id: 'next', text: 'Next event ▶'}),
        el('button', {type: 'button', id: 'last', text: 'Last event ▶|'}),
        el('output', {id: 'position', for: 'slider', 'aria-live': 'polite'})),
      el('p', {class: 'muted', text: 'Arrow keys step through the events; Home and End go to the first and the last.'}),
      el('div', {class: 'table-layout'},
        el('section', {class: 'board-area', 'aria-label': 'The table at this event'},
          el('div', {id: 'board', class: info.board ? 'board' : 'state-view'})),
        el('aside', {class: 'side', 'aria-label': 'The event, its ruling and the audit'},
          el('section', {class: 'panel event-card', id: 'event', 'aria-labelledby': 'event-title'}, el('h2', {id: 'event-title', text: 'Event'})),
          el('section', {class: 'panel', id: 'explanation', 'aria-labelledby': 'explanation-title', hidden: true}),
          el('section', {class: 'panel', id: 'whatif', 'aria-labelledby': 'whatif-title', hidden: true}),
          el('section', {class: 'panel', id: 'audit', 'aria-labelledby': 'audit-title'}, el('h2', {id: 'audit-title', text: 'Audit'}), el('p', {text: 'Checking…'})),
          el('section', {class: 'panel', 'aria-labelledby': 'events-title'}, el('h2', {id: 'events-title', text: 'Every event'}),
            el('ol', {class: 'event-list', id: 'event-list'})),
          el('p', {}, el('a', {href: `/${fragment({game: gameId, token})}`, text: 'Back to the table'})))));
    const slider = $('#slider');
    slider.addEventListener('input', () => step(r, Number(slider.value)));
    $('#first').addEventListener('click', () => step(r, 1));
    $('#prev').addEventListener('click', () => step(r, r.at - 1));
    $('#next').addEventListener('click', () => step(r, r.at + 1));
    $('#last').addEventListener('click', () => step(r, r.entries.length));
    await loadNarrative(r);
    renderEventList(r);
    audit(r);
    await step(r, at || r.entries.length);
  }

  async function loadNarrative(r) {
    let from = 1;
    const id = encodeURIComponent(r.gameId);
    while (from !== null && !r.closed) {
      const page = await call('GET', `/games/${id}/narrative?from=${from}&limit=500`, {token: r.token});
      if (!page.ok) {
        $('#event').append(errorBox(page));
        return;
      }
      r.entries.push(...page.body.entries);
      from = page.body.next;
    }
    $('#slider').max = String(Math.max(1, r.entries.length));
  }

  function renderEventList(r) {
    const list = $('#event-list');
    fill(list, ...r.entries.map((entry) => el('li', {dataset: {version: String(entry.version)}},
      el('button', {type: 'button', tabindex: -1, on: {click: () => step(r, entry.version)}}, `${entry.version}. ${entry.words}`))));
  }

  function onReplayKey(event) {
    const r = replay;
    if (!r || r.closed || document.body.dataset.view !== 'replay') return;
    const target = event.target;
    if (target && target.id === 'slider') return; // the slider steps itself (its input event)
    if (target && ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName)) return;
    const moves = {ArrowLeft: r.at - 1, ArrowRight: r.at + 1, Home: 1, End: r.entries.length};
    if (!(event.key in moves)) return;
    event.preventDefault();
    step(r, moves[event.key]);
  }

  async function step(r, version) {
    if (!r.entries.length) return;
    const v = Math.max(1, Math.min(r.entries.length, Number(version) || 1));
    r.at = v;
    $('#slider').value = String(v);
    $('#position').textContent = `${v} of ${r.entries.length}`;
    history.replaceState(null, '', fragment({game: r.gameId, token: r.token, replay: v, admin: r.adminToken}));
    renderEvent(r, r.entries[v - 1]);
    for (const item of $$('#event-list li.now')) {
      item.classList.remove('now');
      item.querySelector('button').tabIndex = -1;
    }
    const item = $(`#event-list li[data-version="${v}"]`);
    if (item) {
      item.classList.add('now');
      item.querySelector('button').tabIndex = 0;
      const list = $('#event-list');
      list.scrollTop = Math.max(0, item.offsetTop - list.offsetTop - list.clientHeight / 2);
    }
    document.body.dataset.ready = 'false';
    document.body.dataset.at = String(v);
    await drawAt(r, v);
  }

  /** The board (or the state) at version v; while one is on its way, only the latest is drawn. */
  async function drawAt(r, v) {
    if (r.pending) {
      r.pending.next = v;
      return r.pending.done;
    }
    const job = {next: null};
    job.done = (async () => {
      let want = v;
      while (want !== null && !r.closed) {
        job.next = null;
        const id = encodeURIComponent(r.gameId);
        if (r.info.board) {
          const picture = await call('GET', `/games/${id}/board?at=${want}`, {token: r.token});
          if (picture.ok) {
            const svg = parseSvg(picture.body);
            if (svg) fill($('#board'), svg);
          }
        } else {
          const state = await call('GET', `/games/${id}/state?at=${want}`, {token: r.token});
          if (state.ok) fill($('#board'), el('h2', {text: `The table after event ${want}`}), definitionList(r.info, state.body.view, 0, r.summary.players));
        }
        r.boardFor = want;
        want = job.next;
      }
      highlight(r);
      r.pending = null;
      document.body.dataset.ready = 'true';
      document.body.dataset.boardAt = String(r.boardFor);
    })();
    r.pending = job;
    return job.done;
  }

  function highlight(r) {
    const svg = $('#board svg');
    if (!svg) return;
    const entry = r.entries[r.boardFor - 1];
    if (!entry) return;
    for (const node of svg.querySelectorAll('.happened')) node.classList.remove('happened');
    for (const value of Object.values(entry.data || {}).flat()) {
      if (typeof value !== 'string') continue;
      const node = svg.querySelector(`[data-land="${CSS.escape(value)}"], [data-water="${CSS.escape(value)}"]`);
      if (node) node.classList.add('happened');
    }
  }

  function renderEvent(r, entry) {
    const box = $('#event');
    const players = r.summary.players;
    const actor = typeof entry.actor === 'number' ? `${players[entry.actor] || `player ${entry.actor + 1}`} (${COLOUR_NAMES[entry.actor % 6]})` : ({system: 'the rules', worker: 'the rules', admin: 'the admin'}[entry.actor] || humanise(String(entry.actor)));
    const undone = undoneVersions(r.entries);
    const dice = Object.entries(entry.data || {}).filter(([key, value]) => /dice/i.test(key) && Array.isArray(value));
    const draws = entry.draws || [];
    fill(box, 
      el('h2', {id: 'event-title'}, 'Event ', el('span', {id: 'event-version', text: String(entry.version)}), ` of ${r.entries.length}`),
      el('p', {id: 'event-words', class: 'words'}, undone.has(entry.version) ? [el('del', {text: entry.words}), ' (taken back later: it no longer counts)'] : entry.words),
      el('dl', {},
        el('dt', {text: 'What'}), el('dd', {id: 'event-type', title: entry.type, dataset: {type: entry.type}, text: humanise(entry.type)}),
        el('dt', {text: 'By'}), el('dd', {id: 'event-actor', text: actor}),
        el('dt', {text: 'Rule'}), el('dd', {}, ruleCode(entry.rule, {id: 'event-rule'}),
          pageText(entry.page) ? el('span', {id: 'event-page', text: ` ${pageText(entry.page)}`}) : null,
          entry.section ? el('span', {class: 'muted', text: pageText(entry.page) ? ` (${entry.section})` : ` rulebook, “${entry.section}”`}) : null),
        entry.rule_text ? [el('dt', {text: 'The rule'}), el('dd', {id: 'event-rule-text', text: entry.rule_text})] : null,
        entry.cites.length ? [el('dt', {text: 'Also cites'}), el('dd', {id: 'event-cites'}, entry.cites.map((c, i) => [i ? ', ' : '', ruleCode(c)]))] : null,
        dice.length ? [el('dt', {text: 'Dice'}), el('dd', {id: 'event-dice'}, dice.map(([key, faces]) =>
          el('div', {class: 'dice', dataset: {key, faces: faces.join(' ')}}, `${humanise(key)}: ${faces.length ? faces.join(', ') : 'none'}`)))] : null,
        el('dt', {text: 'Chance draws'}), el('dd', {id: 'event-draws'}, draws.length
          ? [el('ul', {}, draws.map((d) => el('li', {dataset: {k: String(d.k), n: String(d.n), result: String(d.result)}}, `${drawText(d)} (chance draw #${d.k})`))),
            entry.scripted ? el('p', {id: 'event-scripted', class: 'notice', text: 'Scripted: these outcomes were given for a what-if, not drawn from a committed seed.'}) : null]
          : (entry.redacted ? 'hidden from you' : 'none'))),
      entry.redacted ? el('p', {class: 'notice', text: 'This event is private to another seat: you see its redacted form.'}) : null,
      el('button', {type: 'button', id: 'explain', on: {click: () => explain(r, entry.version)}, text: 'Explain this event'}));
    const explanation = $('#explanation');
    explanation.hidden = true;
    fill(explanation, );
    renderWhatIf(r, entry);
  }

  /** Whose each die is ("Empire die 2", "Enemy die"), where the event's dice lists (its data's
   * *_dice, in order) are exactly its chance draws, all dice: else null (numbered instead). */
  function diceNames(entry, draws) {
    const lists = Object.entries(entry.data || {}).filter(([key, value]) => /dice$/i.test(key) && Array.isArray(value));
    const flat = lists.flatMap(([key, faces]) => faces.map((face, j) => ({key, j, count: faces.length, face: Number(face)})));
    if (!flat.length || flat.length !== draws.length) return null;
    if (flat.some((f, i) => draws[i].n !== 6 || draws[i].result + 1 !== f.face)) return null;
    return flat.map((f) => `${humanise(f.key).replace(/ dice$/i, ' die')}${f.count > 1 ? ` ${f.j + 1}` : ''}`);
  }

  /** "What if I had rolled a 6?": other outcomes for the event's draws, played in a sandbox
   * that starts from the position just before the event, its chance scripted (never a seed). */
  function renderWhatIf(r, entry) {
    const box = $('#whatif');
    const draws = entry.draws || [];
    if (!draws.length || entry.redacted || typeof entry.actor !== 'number') {
      box.hidden = true;
      fill(box, );
      return;
    }
    box.hidden = false;
    const named = diceNames(entry, draws);
    const inputs = draws.map((d, i) => {
      const id = `whatif-draw-${i}`;
      const label = named ? `${named[i]} (1 to 6)` : d.n === 6 ? `Die ${i + 1} (1 to 6)` : `Draw ${i + 1} (number 1 to ${d.n})`;
      return el('div', {class: 'whatif-draw'},
        el('label', {for: id, text: label}), ' ',
        el('input', {id, type: 'number', min: 1, max: d.n, step: 1, required: true, value: d.result + 1, dataset: {n: String(d.n)}}));
    });
    const form = el('form', {id: 'whatif-form', on: {submit: (event) => { event.preventDefault(); tryWhatIf(r, entry); }}},
      inputs,
      el('div', {}, el('label', {for: 'whatif-admin', text: "This game's admin link token (only the admin makes sandboxes)"}), ' ',
        el('input', {id: 'whatif-admin', type: 'password', autocomplete: 'off', value: r.adminToken || ''})),
      el('button', {type: 'submit', id: 'whatif-try', text: 'Play it again on these outcomes'}));
    fill(box, el('h2', {id: 'whatif-title', text: 'What if…'}),
      el('p', {class: 'muted', text: 'Give other outcomes for this event\'s dice and draws: a sandbox starts from the position just before it, with these outcomes scripted in order, and you play the move again.'}),
      form, el('div', {id: 'whatif-result', 'aria-live': 'polite'}));
  }

  async function tryWhatIf(r, entry) {
    const out = $('#whatif-result');
    const script = $$('#whatif-form input[data-n]').map((input) => [Number(input.dataset.n), Number(input.value) - 1]);
    const chance = script.every(([n]) => n === 6) ? {faces: script.map(([, result]) => result + 1)} : {draws: script};
    fill(out, el('p', {text: 'Making the sandbox…'}));
    const id = encodeURIComponent(r.gameId);
    const position = await call('GET', `/games/${id}/position?at=${entry.version - 1}`, {token: r.token});
    if (!position.ok) return fill(out, errorBox(position, 'The position before this event: '));
    const admin = $('#whatif-admin').value.trim();
    const made = await call('POST', `/games/${id}/sandbox`, {token: admin, body: {position: position.body, chance}});
    if (!made.ok) return fill(out, errorBox(made, 'The sandbox: '));
    const sandbox = made.body;
    const seat = entry.actor;
    const seatToken = sandbox.seat_tokens[seat];
    const legal = await call('GET', `/games/${encodeURIComponent(sandbox.game_id)}/legal-actions`, {token: seatToken});
    if (!legal.ok) return fill(out, errorBox(legal));
    const named = new Set(Object.values(entry.data || {}).flat().filter((v) => typeof v === 'string'));
    const likely = (action) => Object.values(action.command || action).some((v) => named.has(v));
    const order = legal.body.actions.map((action, i) => i).sort((a, b) => likely(legal.body.actions[b]) - likely(legal.body.actions[a]));
    const player = r.summary.players[seat] || `player ${seat + 1}`;
    fill(out,
      el('p', {id: 'whatif-made', dataset: {sandbox: sandbox.game_id}}, 'Sandbox ', el('code', {text: sandbox.game_id}),
        ` starts before event ${entry.version}, its chance scripted: ${script.map((d) => drawText({n: d[0], result: d[1]})).join(', ')}. Play ${player}'s move again:`),
      el('div', {class: 'whatif-actions'}, order.map((i) => {
        const action = legal.body.actions[i];
        const words = (legal.body.action_words[i] || {}).words || action.command.type;
        return el('button', {type: 'button', class: 'action whatif-action', dataset: {args: JSON.stringify(action.command), likely: likely(action) ? 'true' : 'false'},
          text: words, on: {click: () => playWhatIf(r, sandbox, seatToken, action.command)}});
      })),
      el('div', {id: 'whatif-outcome', 'aria-live': 'polite'}));
  }

  async function playWhatIf(r, sandbox, seatToken, command) {
    const out = $('#whatif-outcome');
    const sid = encodeURIComponent(sandbox.game_id);
    const played = await call('POST', `/games/${sid}/commands`, {token: seatToken, body: {command}, idempotent: true});
    if (!played.ok) return fill(out, errorBox(played));
    const told = await call('GET', `/games/${sid}/narrative?from=${sandbox.version + 1}&limit=100`, {token: seatToken});
    const audited = await call('GET', `/games/${sid}/audit`);
    const entries = told.ok ? told.body.entries : [];
    fill(out,
      el('h3', {text: 'What would have happened'}),
      el('ol', {id: 'whatif-events'}, entries.map((e) => el('li', {dataset: {type: e.type, scripted: e.scripted ? 'true' : 'false'}},
        e.words,
        Object.entries(e.data || {}).filter(([key, value]) => /dice/i.test(key) && Array.isArray(value)).map(([key, faces]) =>
          el('div', {class: 'dice', dataset: {key, faces: faces.join(' ')}}, `${humanise(key)}: ${faces.length ? faces.join(', ') : 'none'}`)),
        e.scripted ? el('span', {class: 'muted', text: ' (scripted)'}) : null))),
      audited.ok ? el('p', {id: 'whatif-audit', dataset: {chance: audited.body.chance}, text: auditWords(audited.body)}) : null,
      el('p', {}, el('a', {href: `/${fragment({game: sandbox.game_id, token: seatToken, replay: sandbox.version + 1})}`, text: 'Open the what-if sandbox in its replay'})));
  }

  function auditWords(a) {
    if (a.chance === 'scripted') {
      return a.clean
        ? `Chance scripted, not committed: this sandbox's ${a.outcomes_checked} outcomes are the ones given for the what-if, in order; no seed stands behind them.`
        : `Chance scripted: ${a.mismatches.length} recorded outcomes are not the script's.`;
    }
    return a.clean
      ? `Verified: the seed matches the commitment published at the start, and all ${a.outcomes_checked} chance outcomes recompute from it.`
      : `Mismatch: ${a.mismatches.length} recorded outcomes do not follow from the seed${a.commitment_verified ? '' : ', and the seed does not match its commitment'}.`;
  }

  function entryBlock(title, entry) {
    return el('div', {class: 'rule-entry', dataset: {rule: entry.id}},
      el('h3', {}, title, ' ', ruleCode(entry.id), citation(entry.page, entry.section) ? ` — ${citation(entry.page, entry.section)}` : ''),
      el('p', {text: entry.text}),
      entry.reading ? el('p', {}, el('strong', {text: 'Our reading: '}), entry.reading) : null,
      entry.departs_from ? el('p', {}, el('strong', {text: 'It departs from the text: '}), `“${entry.departs_from}”`) : null);
  }

  async function explain(r, version) {
    const box = $('#explanation');
    box.hidden = false;
    fill(box, el('h2', {id: 'explanation-title', text: `Why event ${version} happened`}), el('p', {text: 'Asking…'}));
    box.scrollIntoView({block: 'start'});
    const answer = await call('GET', `/games/${encodeURIComponent(r.gameId)}/events/${version}/explain`, {token: r.token});
    if (!answer.ok) {
      fill(box, el('h2', {id: 'explanation-title', text: `Why event ${version} happened`}), errorBox(answer));
      return;
    }
    const e = answer.body;
    fill(box, el('h2', {id: 'explanation-title', text: `Why event ${version} happened`}),
      el('p', {class: 'words', text: e.words}),
      e.rule_entry ? entryBlock('Rule', e.rule_entry) : el('p', {}, 'Rule ', ruleCode(e.rule)),
      e.cited_entries.map((entry) => entryBlock('Also decided by', entry)),
      e.data_used.length ? [el('h3', {text: 'Data used'}), el('ul', {}, e.data_used.map((d) => el('li', {},
        `${humanise(d.what)}: ${d.name} — ${[d.printed ? 'printed in the rulebook' : '', d.reconstructed ? 'reconstructed' : ''].filter(Boolean).join(', ') || 'from the data pack'}`)))] : null,
      el('h3', {text: 'Inputs'}),
      el('div', {class: 'state-view'}, e.inputs.words
        ? el('dl', {}, e.inputs.words.flatMap((w) => [el('dt', {text: w.label}), el('dd', {text: w.value})]))
        : definitionList(r.info, e.inputs.data)),
      e.inputs.draws.length ? el('ul', {}, e.inputs.draws.map((d) => el('li', {text: `${drawText(d)} (chance draw #${d.k})`}))) : null,
      e.before ? el('p', {class: 'muted', text: `Just before it (version ${e.before.version}) the game awaited ${e.before.awaiting.map((s) => r.summary.players[s] || s).join(', ') || 'nobody'}.`}) : null);
    const title = box.querySelector('h2');
    title.setAttribute('tabindex', '-1');
    box.scrollIntoView({block: 'start'});
    title.focus({preventScroll: true});
  }

  async function audit(r) {
    const box = $('#audit');
    const answer = await call('GET', `/games/${encodeURIComponent(r.gameId)}/audit`);
    const title = el('h2', {id: 'audit-title', text: 'Audit'});
    if (answer.status === 409) {
      fill(box, title, el('p', {id: 'audit-verdict', dataset: {verdict: 'pending'}, text: 'The chance seed is revealed when the game ends: then every roll and draw can be re-verified here.'}));
      return;
    }
    if (!answer.ok) {
      fill(box, title, errorBox(answer));
      return;
    }
    const a = answer.body;
    const scripted = a.chance === 'scripted';
    const verdict = auditWords(a);
    const kind = scripted ? 'scripted' : (a.clean ? 'clean' : 'mismatch');
    fill(box, title,
      el('p', {id: 'audit-verdict', class: a.clean && !scripted ? 'verdict-clean' : (scripted && a.clean ? 'verdict-scripted' : 'verdict-bad'), dataset: {verdict: kind}, text: verdict}),
      a.mismatches.length ? el('ul', {}, a.mismatches.map((m) => el('li', {text: `version ${m.version} (${m.event_type}): draw #${m.k} recorded ${m.recorded}, the ${scripted ? 'script' : 'seed'} gives ${m.expected}`}))) : null,
      scripted ? null : el('p', {class: 'muted'}, 'Seed commitment ', el('code', {text: a.seed_commitment.slice(0, 16) + '…'})));
  }

  // --- tables: players, open seats, bots, clocks, resigning ---------------------------------
  // The player key stays in this browser's storage and goes only into Authorization headers.

  const PLAYER = 'chronicle.player';

  function me() {
    try { return JSON.parse(localStorage.getItem(PLAYER) || 'null'); } catch (error) { return null; }
  }

  async function ensurePlayer(name) {
    const known = me();
    if (known) return known;
    const made = await call('POST', '/players', {body: {name: name || 'Guest'}});
    if (!made.ok) throw new Error(made.body && made.body.message || 'could not become a player');
    const player = {id: made.body.player_id, name: made.body.name, key: made.body.player_key};
    localStorage.setItem(PLAYER, JSON.stringify(player));
    return player;
  }

  async function showPlayer() {
    const box = $('#player');
    if (!box) return;
    const player = me();
    const input = el('input', {id: 'player-name', name: 'name', maxlength: 64, required: true, value: player ? player.name : ''});
    fill(box, el('h2', {id: 'player-title', text: 'You'}),
      player ? el('p', {id: 'player-known'}, 'Playing as ', el('strong', {text: player.name}))
        : el('form', {id: 'player-form', on: {submit: async (event) => {
          event.preventDefault();
          await ensurePlayer(input.value.trim());
          showPlayer();
          listMyGames();
          followMe();
        }}}, el('label', {for: 'player-name', text: 'Your name'}), ' ', input, ' ',
        el('button', {type: 'submit', text: 'Be a player'})));
  }

  function tableLink(gameId, token) {
    return `/${fragment({game: gameId, token})}`;
  }

  async function playAgainstBots(ruleset, count, status, form) {
    fill(status, el('p', {text: 'Setting the table…'}));
    const player = await ensurePlayer(($('#player-name') || {}).value || 'Guest');
    const labels = [player.name, ...Array.from({length: count - 1}, (_, i) => `Bot ${i + 1}`)];
    const made = await call('POST', '/tables', {token: player.key,
      body: {ruleset: ruleset.name, players: labels, options: chosenOptions(ruleset, form), listing: 'private', bots: 'greedy'}});
    if (!made.ok) {
      fill(status, errorBox(made, 'The table was not set: '));
      return;
    }
    location.hash = tableLink(made.body.game_id, made.body.seat_token).slice(1);
  }

  async function openTable(ruleset, count, status, form) {
    const player = await ensurePlayer(($('#player-name') || {}).value || 'Guest');
    const labels = Array.from({length: count}, (_, i) => i === 0 ? player.name : `Seat ${i + 1}`);
    const minutes = Number(form.elements.clock.value || 0);
    const clock = minutes > 0 ? {kind: 'move', per_move_ms: Math.round(minutes * 60000)} : {kind: 'none'};
    const made = await call('POST', '/tables', {token: player.key,
      body: {ruleset: ruleset.name, players: labels, options: chosenOptions(ruleset, form), listing: 'public', clock}});
    if (!made.ok) {
      fill(status, errorBox(made, 'The table was not opened: '));
      return;
    }
    fill(status, el('p', {class: 'opened'}, 'Your table is open: ',
      el('a', {href: tableLink(made.body.game_id, made.body.seat_token), text: 'go to it'})));
    listOpenTables();
    listMyGames();
    followMe();
  }

  async function listOpenTables() {
    const box = $('#open-tables');
    if (!box) return;
    const listed = await call('GET', '/tables?limit=20');
    if (!listed.ok) {
      fill(box, errorBox(listed));
      return;
    }
    if (!listed.body.games.length) {
      fill(box, el('p', {text: 'No open tables: open one below, or play against bots.'}));
      return;
    }
    fill(box, el('ul', {class: 'open-tables'}, listed.body.games.map((game) => el('li', {dataset: {game: game.game_id}},
      `${game.ruleset}: ${game.open_seats.length} open seat(s) of ${game.players.length} `,
      el('button', {type: 'button', class: 'join', text: 'Join', on: {click: () => joinTable(game.game_id, null, box)}})))));
  }

  async function joinTable(gameId, invitation, box) {
    const player = await ensurePlayer(($('#player-name') || {}).value || 'Guest');
    const claimed = await call('POST', `/games/${encodeURIComponent(gameId)}/claims`, {token: player.key, body: {invitation}});
    if (!claimed.ok) {
      fill(box, errorBox(claimed, 'You could not join: '));
      return;
    }
    location.hash = tableLink(gameId, claimed.body.seat_token).slice(1);
  }

  async function joinByLink(gameId, invitation) {
    setView('lobby', 'Join a table');
    fill(main(), el('h1', {text: 'Join a table'}), el('section', {id: 'player', class: 'panel'}), el('div', {id: 'join-status'}));
    await showPlayer();
    const box = $('#join-status');
    fill(box, el('button', {type: 'button', id: 'join-link', text: 'Take a seat', on: {click: () => joinTable(gameId, invitation, box)}}));
    document.body.dataset.ready = 'true';
  }

  const CREATED = 'chronicle.created';
  const CREATED_KEPT = 10;

  /** The games made here with "Create a game" (no player holds their seats, so the server lists
   * them under no one): the seat of the person who made them (the seat named as they are, else
   * the first) with its link, kept in this browser for "My games". */
  function createdHere() {
    try { return JSON.parse(localStorage.getItem(CREATED) || '[]'); } catch (error) { return []; }
  }

  function rememberCreated(game) {
    const player = me();
    const named = player ? game.players.indexOf(player.name) : -1;
    const seat = named >= 0 ? named : 0;
    const kept = [{game_id: game.game_id, seat, token: game.seat_tokens[seat]},
      ...createdHere().filter((g) => g.game_id !== game.game_id)].slice(0, CREATED_KEPT);
    localStorage.setItem(CREATED, JSON.stringify(kept));
  }

  const ORDINALS = ['', '1st', '2nd', '3rd'];
  function ordinal(n) { return ORDINALS[n] || `${n}th`; }

  /** Where a game stands, for "My games": whose turn, or who won and where the player came. */
  function standingText(game) {
    if (game.status === 'open') return 'waiting for players to sit';
    if (game.status !== 'finished') return 'under way';  // whose turn: the "your turn" beside it
    if (!game.ranking) return 'finished';
    const winners = game.ranking.filter((row) => row.place === 1).map((row) => (row.seat === game.seat ? 'you' : row.player));
    const mine = game.ranking.find((row) => row.seat === game.seat);
    const won = winners.length > 1 ? `${winners.join(' and ')} tied first` : `${winners[0] === 'you' ? 'you' : winners[0]} won`;
    const came = mine && mine.place !== 1 ? `; you came ${ordinal(mine.place)} of ${game.ranking.length}` : '';
    const scores = game.ranking.map((row) => `${row.player} ${row.score}`).join(', ');
    return `finished: ${won}${came} (${scores})`;
  }

  function whenMade(iso) {
    const at = new Date(iso);
    return Number.isNaN(at.getTime()) ? '' : at.toLocaleString(undefined, {dateStyle: 'medium', timeStyle: 'short'});
  }

  function myGameItem(game, href) {
    const opponents = game.players.map((name, seat) => ({name, seat})).filter((p) => p.seat !== game.seat)
      .map((p) => `${p.name}${(game.bots || []).includes(p.seat) ? ' (a bot)' : ''}`);
    const made = whenMade(game.created_at);
    return el('li', {dataset: {game: game.game_id, status: game.status}},
      el('a', {href, text: game.title || game.ruleset}),
      el('span', {class: 'opponents', text: opponents.length ? ` against ${opponents.join(', ')}` : ''}),
      made ? el('span', {class: 'muted when'}, ' · ', el('time', {datetime: game.created_at, text: made})) : null,
      el('span', {class: 'standing', text: ` · ${standingText(game)}`}),
      game.awaits_you ? el('strong', {class: 'awaits-you', text: ' — your turn'}) : null);
  }

  /** A game made here, as "My games" lists it: from its summary (and result, once over). */
  async function createdGame(kept) {
    const id = encodeURIComponent(kept.game_id);
    const summary = await call('GET', `/games/${id}`);
    if (!summary.ok) return null;
    const s = summary.body;
    const game = {game_id: s.game_id, ruleset: s.ruleset, title: s.title, status: s.status, seat: kept.seat,
      players: s.players, bots: [], created_at: s.created_at, awaits_you: s.status === 'active' && s.awaiting.includes(kept.seat), ranking: null};
    if (s.status === 'finished') {
      const result = await call('GET', `/games/${id}/result`);
      if (result.ok) game.ranking = result.body.ranking;
    }
    return game;
  }

  async function listMyGames() {
    const box = $('#my-games');
    const player = me();
    if (!box) return;
    const [listed, made] = await Promise.all([
      player ? call('GET', '/players/me/games?limit=20', {token: player.key}) : Promise.resolve(null),
      Promise.all(createdHere().map(async (kept) => [kept, await createdGame(kept)])),
    ]);
    if (listed && !listed.ok) {
      fill(box, errorBox(listed));
      return;
    }
    const items = [];
    const seen = new Set();
    for (const game of listed ? listed.body.games : []) {
      seen.add(game.game_id);
      items.push([game.created_at, myGameItem(game, tableLink(game.game_id, player.key))]);
    }
    for (const [kept, game] of made) {
      if (game && !seen.has(game.game_id)) items.push([game.created_at, myGameItem(game, tableLink(game.game_id, kept.token))]);
    }
    items.sort((a, b) => String(b[0]).localeCompare(String(a[0])));  // the newest first
    fill(box, items.length ? el('ul', {class: 'my-games'}, items.map(([, item]) => item))
      : el('p', {text: player ? 'No games yet.' : 'Be a player, or create a game, to see your games here.'}));
  }

  // --- your notifications: the player's stream (EventSource with a ticket), else polling ------

  const NOTICE_KINDS = ['your_turn', 'game_started', 'game_finished', 'invitation'];
  const POLL_MS = 15000;
  let notices = null;

  function stopNotices() {
    if (!notices) return;
    if (notices.source) notices.source.close();
    if (notices.timer) clearInterval(notices.timer);
    if (notices.pending) clearTimeout(notices.pending);
    notices = null;
  }

  function refreshMine(mine) {
    if (notices !== mine || mine.pending) return;
    mine.pending = setTimeout(() => {  // a burst of notifications refreshes once
      mine.pending = null;
      if (notices !== mine) return;
      mine.refreshed += 1;
      document.body.dataset.noticeRefreshes = String(mine.refreshed);
      listMyGames();
      listOpenTables();
    }, 150);
  }

  /** The lobby follows the player's notifications: "My games" and the open tables are listed
   * again on each one. EventSource cannot send the player key, so the stream is opened with a
   * short-lived ticket; an EventSource reconnects by itself (Last-Event-ID), and only when the
   * stream cannot be had (no EventSource, no ticket, a stream closed for good after a new ticket
   * was tried) does the page poll instead. */
  async function followMe(retried = false) {
    stopNotices();
    const player = me();
    if (!player || !$('#my-games')) return;
    const mine = {source: null, timer: null, pending: null, refreshed: 0};
    notices = mine;
    const poll = () => {
      if (notices !== mine || mine.timer) return;
      if (mine.source) { mine.source.close(); mine.source = null; }
      document.body.dataset.notices = 'polling';
      mine.timer = setInterval(() => refreshMine(mine), POLL_MS);
    };
    if (typeof window.EventSource !== 'function') return poll();
    const ticket = await call('POST', '/players/me/stream-tickets', {token: player.key});
    if (notices !== mine) return;
    if (!ticket.ok) return poll();
    let opened = false;
    const source = new EventSource(ticket.body.stream_url);
    mine.source = source;
    source.addEventListener('open', () => {
      opened = true;
      if (notices === mine) document.body.dataset.notices = 'stream';
    });
    for (const kind of NOTICE_KINDS) source.addEventListener(kind, () => refreshMine(mine));
    source.addEventListener('error', () => {
      if (notices !== mine || source.readyState !== EventSource.CLOSED) return;  // reconnecting
      if (opened && !retried) followMe(true);  // a ticket past its hour: ask for a new one
      else poll();
    });
  }

  function clockText(ms) {
    if (ms === null || ms === undefined) return '';
    const left = Math.max(0, ms);
    const s = Math.floor(left / 1000);
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    return h ? `${h}h ${String(m).padStart(2, '0')}m` : `${m}:${String(s % 60).padStart(2, '0')}`;
  }

  function renderSeating(t) {
    const box = $('#seating');
    if (!box || !t.seating) return;
    const s = t.seating;
    const skew = Date.now() - s.now_ms;
    const rows = s.seats.map((seat) => el('li', {dataset: {seat: String(seat.seat)}},
      `${seat.name || seat.label}`,
      seat.bot ? ` (bot: ${seat.bot})` : '', seat.left ? ` — ${seat.left.replace('_', ' ')}` : '',
      !seat.claimed ? ' — open' : '',
      seat.deadline_ms ? el('span', {class: 'clock', dataset: {deadline: String(seat.deadline_ms + skew)}, text: ` — ${clockText(seat.deadline_ms - s.now_ms)} left to play`}) : null,
      seat.bank_ms !== null && seat.bank_ms !== undefined && !seat.deadline_ms ? el('span', {class: 'bank', text: ` bank ${clockText(seat.bank_ms)}`}) : null));
    const mine = t.seat !== null && t.seat !== undefined ? s.seats[t.seat] : null;
    const buttons = [];
    if (t.token && mine && !mine.left && t.summary.status !== 'finished' && s.started) {
      if (mine.bot) buttons.push(el('button', {type: 'button', id: 'take-back', text: 'Take my seat back', on: {click: () => seatAct(t, 'DELETE', 'bot')}}));
      else buttons.push(el('button', {type: 'button', id: 'hand-to-bot', text: 'Let a bot play for me', on: {click: () => seatAct(t, 'POST', 'bot', {strategy: 'greedy'})}}));
      buttons.push(el('button', {type: 'button', id: 'resign', text: 'Resign', on: {click: () => { if (confirm(resignWords(s, t.seat))) seatAct(t, 'POST', 'resign'); }}}));
    }
    fill(box, el('h2', {id: 'seating-title', text: 'Seats and clocks'}),
      s.clock.kind !== 'none' ? el('p', {class: 'muted', text: s.clock.kind === 'move' ? `${clockText(s.clock.per_move_ms)} per move; on timeout: ${s.on_timeout}` : `bank ${clockText(s.clock.initial_ms)} + ${clockText(s.clock.increment_ms)}; on timeout: ${s.on_timeout}`}) : null,
      el('ul', {class: 'seats'}, rows), buttons);
    tickClocks();
  }

  /** What resigning does at this table (domain/core/seating.py): while another person is still
   * in the game a bot plays the seat's pieces to the end; the last person's resignation
   * abandons the table, and the game ends there. Either way the seat ranks last. */
  function resignWords(seating, seat) {
    const others = seating.seats.filter((other) => other.seat !== seat && other.person && !other.left);
    if (others.length) {
      const names = others.map((other) => other.name || other.label);
      const who = names.length === 1 ? `${names[0]} plays on` : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]} play on`;
      return `Resign this game? A bot plays your pieces to the end, ${who}, and you rank last. You cannot take the seat back.`;
    }
    return 'Resign this game? No other person plays at this table, so the game ends now, with the scores as they stand, and you rank last.';
  }

  let clockTimer = null;
  function tickClocks() {
    if (clockTimer) return;
    clockTimer = setInterval(() => {
      const clocks = $$('#seating .clock');
      if (!clocks.length) { clearInterval(clockTimer); clockTimer = null; return; }
      for (const node of clocks) node.textContent = ` — ${clockText(Number(node.dataset.deadline) - Date.now())} left to play`;
    }, 1000);
  }

  async function seatAct(t, method, what, body) {
    const done = await call(method, `/games/${encodeURIComponent(t.gameId)}/${what}`, {token: t.token, body});
    if (!done.ok) fill($('#message'), errorBox(done));
    refresh(t, {seating: true});
  }

  // --- routing ----------------------------------------------------------------------------

  async function route() {
    stopTable();
    stopNotices();
    if (replay) replay.closed = true;
    replay = null;
    document.body.dataset.ready = 'false';
    const p = params();
    const game = p.get('game');
    try {
      if (p.has('join')) await joinByLink(p.get('join'), p.get('invitation'));
      else if (!game) await showLobby();
      else if (p.has('admin') && !p.has('replay')) await showAdmin(game, p.get('admin'));
      else if (p.has('replay')) await showReplay(game, p.get('token'), Number(p.get('replay')) || 0, p.get('admin'));
      else await showTable(game, p.get('token'));
    } catch (error) {
      fill(main(), el('div', {class: 'error', role: 'alert', text: `Something went wrong in the page: ${error.message}`}));
      document.body.dataset.ready = 'true';
      throw error;
    }
  }

  window.addEventListener('hashchange', route);
  document.addEventListener('keydown', onReplayKey);
  document.addEventListener('keydown', (event) => { if (event.key === 'Escape') closeChooser(); });
  route();
})();
