// @ts-check
/* An event's rulings: why it happened (Explain: its rule and the entries that decided it, the
 * data and inputs it used), what if its dice had fallen otherwise (a sandbox from the position
 * before it, its chance scripted), and the game's chance audit. */

import {call, fragment} from './client.js';
import {$$, definitionList, el, errorBox, fill, input, need, ruleCode} from './dom.js';
import {auditWords, citation, diceNames, diceOf, drawText, humanise} from './words.js';

/** @typedef {import('./api.d.ts').components['schemas']} Schemas */
/** @typedef {import('./replay.js').Replay} Replay */
/** @template T @typedef {import('./client.js').Answer<T>} Answer */

/** A dice list as a line of the event. @param {[string, unknown[]]} dice */
export function diceLine([key, faces]) {
  return el(
    'div',
    {class: 'dice', dataset: {key, faces: faces.join(' ')}},
    `${humanise(key)}: ${faces.length ? faces.join(', ') : 'none'}`,
  );
}

/** "What if I had rolled a 6?": other outcomes for the event's draws, played in a sandbox
 * that starts from the position just before the event, its chance scripted (never a seed).
 * @param {Replay} r @param {Schemas['NarrativeEntry']} entry */
export function renderWhatIf(r, entry) {
  const box = need('#whatif');
  const draws = entry.draws || [];
  const seat = entry.actor;
  if (!draws.length || entry.redacted || typeof seat !== 'number') {
    box.hidden = true;
    fill(box);
    return;
  }
  box.hidden = false;
  const named = diceNames(entry, draws);
  const inputs = draws.map((d, i) => {
    const id = `whatif-draw-${i}`;
    const label = named
      ? `${named[i]} (1 to 6)`
      : d.n === 6
        ? `Die ${i + 1} (1 to 6)`
        : `Draw ${i + 1} (number 1 to ${d.n})`;
    return el(
      'div',
      {class: 'whatif-draw'},
      el('label', {for: id, text: label}),
      ' ',
      el('input', {
        id,
        type: 'number',
        min: 1,
        max: d.n,
        step: 1,
        required: true,
        value: d.result + 1,
        dataset: {n: String(d.n)},
      }),
    );
  });
  const form = el(
    'form',
    {
      id: 'whatif-form',
      on: {
        submit: (/** @type {SubmitEvent} */ event) => {
          event.preventDefault();
          tryWhatIf(r, entry, seat);
        },
      },
    },
    inputs,
    el(
      'div',
      {},
      el('label', {for: 'whatif-admin', text: "This game's admin link token (only the admin makes sandboxes)"}),
      ' ',
      el('input', {id: 'whatif-admin', type: 'password', autocomplete: 'off', value: r.adminToken || ''}),
    ),
    el('button', {type: 'submit', id: 'whatif-try', text: 'Play it again on these outcomes'}),
  );
  fill(
    box,
    el('h2', {id: 'whatif-title', text: 'What if…'}),
    el('p', {
      class: 'muted',
      text: "Give other outcomes for this event's dice and draws: a sandbox starts from the position just before it, with these outcomes scripted in order, and you play the move again.",
    }),
    form,
    el('div', {id: 'whatif-result', 'aria-live': 'polite'}),
  );
}

/** @param {Replay} r @param {Schemas['NarrativeEntry']} entry @param {number} seat the event's actor */
async function tryWhatIf(r, entry, seat) {
  const out = need('#whatif-result');
  /** @type {[number, number][]} */
  const script = $$('#whatif-form input[data-n]').map((field) => [
    Number(field.dataset.n),
    Number(/** @type {HTMLInputElement} */ (field).value) - 1,
  ]);
  const chance = script.every(([n]) => n === 6) ? {faces: script.map(([, result]) => result + 1)} : {draws: script};
  fill(out, el('p', {text: 'Making the sandbox…'}));
  const id = encodeURIComponent(r.gameId);
  /** @type {Answer<Schemas['Position']>} */
  const position = await call('GET', `/games/${id}/position?at=${entry.version - 1}`, {token: r.token});
  if (!position.ok) return fill(out, errorBox(position, 'The position before this event: '));
  const admin = (input('whatif-admin')?.value ?? '').trim();
  /** @type {Answer<Schemas['CreatedGame']>} */
  const made = await call('POST', `/games/${id}/sandbox`, {token: admin, body: {position: position.body, chance}});
  if (!made.ok) return fill(out, errorBox(made, 'The sandbox: '));
  const sandbox = made.body;
  const seatToken = sandbox.seat_tokens[seat] ?? null;
  /** @type {Answer<Schemas['LegalActions']>} */
  const legal = await call('GET', `/games/${encodeURIComponent(sandbox.game_id)}/legal-actions`, {token: seatToken});
  if (!legal.ok) return fill(out, errorBox(legal));
  const named = new Set(
    Object.values(entry.data || {})
      .flat()
      .filter((v) => typeof v === 'string'),
  );
  /** @param {Schemas['CommandRequest']} action */
  const likely = (action) => Object.values(action.command || action).some((v) => named.has(v));
  const actions = legal.body.actions;
  const order = actions
    .map((_, i) => i)
    .sort(
      (a, b) =>
        Number(likely(/** @type {Schemas['CommandRequest']} */ (actions[b]))) -
        Number(likely(/** @type {Schemas['CommandRequest']} */ (actions[a]))),
    );
  const player = r.summary.players[seat] || `player ${seat + 1}`;
  const outcomes = script.map((d) => drawText({n: d[0], result: d[1]})).join(', ');
  fill(
    out,
    el(
      'p',
      {id: 'whatif-made', dataset: {sandbox: sandbox.game_id}},
      'Sandbox ',
      el('code', {text: sandbox.game_id}),
      ` starts before event ${entry.version}, its chance scripted: ${outcomes}. Play ${player}'s move again:`,
    ),
    el(
      'div',
      {class: 'whatif-actions'},
      order.flatMap((i) => {
        const action = actions[i];
        if (!action) return [];
        const words = (legal.body.action_words[i] || {words: ''}).words || action.command.type;
        return [
          el('button', {
            type: 'button',
            class: 'action whatif-action',
            dataset: {args: JSON.stringify(action.command), likely: likely(action) ? 'true' : 'false'},
            text: words,
            on: {click: () => playWhatIf(sandbox, seatToken, action.command)},
          }),
        ];
      }),
    ),
    el('div', {id: 'whatif-outcome', 'aria-live': 'polite'}),
  );
}

/** @param {Schemas['CreatedGame']} sandbox @param {string | null} seatToken @param {Schemas['Command']} command */
async function playWhatIf(sandbox, seatToken, command) {
  const out = need('#whatif-outcome');
  const sid = encodeURIComponent(sandbox.game_id);
  const played = await call('POST', `/games/${sid}/commands`, {token: seatToken, body: {command}, idempotent: true});
  if (!played.ok) return fill(out, errorBox(played));
  /** @type {Answer<Schemas['Narrative']>} */
  const told = await call('GET', `/games/${sid}/narrative?from=${sandbox.version + 1}&limit=100`, {token: seatToken});
  /** @type {Answer<Schemas['Audit']>} */
  const audited = await call('GET', `/games/${sid}/audit`);
  const entries = told.ok ? told.body.entries : [];
  fill(
    out,
    el('h3', {text: 'What would have happened'}),
    el(
      'ol',
      {id: 'whatif-events'},
      entries.map((e) =>
        el(
          'li',
          {dataset: {type: e.type, scripted: e.scripted ? 'true' : 'false'}},
          e.words,
          diceOf(e.data).map(diceLine),
          e.scripted ? el('span', {class: 'muted', text: ' (scripted)'}) : null,
        ),
      ),
    ),
    audited.ok
      ? el('p', {id: 'whatif-audit', dataset: {chance: audited.body.chance}, text: auditWords(audited.body)})
      : null,
    el(
      'p',
      {},
      el('a', {
        href: `/${fragment({game: sandbox.game_id, token: seatToken, replay: sandbox.version + 1})}`,
        text: 'Open the what-if sandbox in its replay',
      }),
    ),
  );
}

/** A rule's entry: its id, page, text, our reading and where it departs from the text.
 * @param {string} title @param {Schemas['RuleEntry']} entry */
function entryBlock(title, entry) {
  const where = citation(entry.page, entry.section);
  return el(
    'div',
    {class: 'rule-entry', dataset: {rule: entry.id}},
    el('h3', {}, title, ' ', ruleCode(entry.id), where ? ` — ${where}` : ''),
    el('p', {text: entry.text}),
    entry.reading ? el('p', {}, el('strong', {text: 'Our reading: '}), entry.reading) : null,
    entry.departs_from
      ? el('p', {}, el('strong', {text: 'It departs from the text: '}), `“${entry.departs_from}”`)
      : null,
  );
}

/** @param {Replay} r @param {number} version */
export async function explain(r, version) {
  const box = need('#explanation');
  const heading = () => el('h2', {id: 'explanation-title', text: `Why event ${version} happened`});
  box.hidden = false;
  fill(box, heading(), el('p', {text: 'Asking…'}));
  box.scrollIntoView({block: 'start'});
  /** @type {Answer<Schemas['Explanation']>} */
  const answer = await call('GET', `/games/${encodeURIComponent(r.gameId)}/events/${version}/explain`, {
    token: r.token,
  });
  if (!answer.ok) {
    fill(box, heading(), errorBox(answer));
    return;
  }
  const e = answer.body;
  /** @param {Schemas['DataUsed']} d */
  const source = (d) =>
    [d.printed ? 'printed in the rulebook' : '', d.reconstructed ? 'reconstructed' : ''].filter(Boolean).join(', ') ||
    'from the data pack';
  fill(
    box,
    heading(),
    el('p', {class: 'words', text: e.words}),
    e.rule_entry ? entryBlock('Rule', e.rule_entry) : el('p', {}, 'Rule ', ruleCode(e.rule)),
    e.cited_entries.map((entry) => entryBlock('Also decided by', entry)),
    e.data_used.length
      ? [
          el('h3', {text: 'Data used'}),
          el(
            'ul',
            {},
            e.data_used.map((d) => el('li', {}, `${humanise(d.what)}: ${d.name} — ${source(d)}`)),
          ),
        ]
      : null,
    el('h3', {text: 'Inputs'}),
    el(
      'div',
      {class: 'state-view'},
      e.inputs.words
        ? el(
            'dl',
            {},
            e.inputs.words.flatMap((w) => [el('dt', {text: w.label}), el('dd', {text: w.value})]),
          )
        : definitionList(r.info, e.inputs.data),
    ),
    e.inputs.draws.length
      ? el(
          'ul',
          {},
          e.inputs.draws.map((d) => el('li', {text: `${drawText(d)} (chance draw #${d.k})`})),
        )
      : null,
    e.before
      ? el('p', {
          class: 'muted',
          text: `Just before it (version ${e.before.version}) the game awaited ${e.before.awaiting.map((s) => r.summary.players[s] || s).join(', ') || 'nobody'}.`,
        })
      : null,
  );
  const title = need('h2', box);
  title.setAttribute('tabindex', '-1');
  box.scrollIntoView({block: 'start'});
  title.focus({preventScroll: true});
}

/** The chance audit: pending until the seed is revealed, then clean or not, with any
 * mismatches. @param {Replay} r */
export async function audit(r) {
  const box = need('#audit');
  /** @type {Answer<Schemas['Audit']>} */
  const answer = await call('GET', `/games/${encodeURIComponent(r.gameId)}/audit`);
  const title = el('h2', {id: 'audit-title', text: 'Audit'});
  if (answer.status === 409) {
    fill(
      box,
      title,
      el('p', {
        id: 'audit-verdict',
        dataset: {verdict: 'pending'},
        text: 'The chance seed is revealed when the game ends: then every roll and draw can be re-verified here.',
      }),
    );
    return;
  }
  if (!answer.ok) {
    fill(box, title, errorBox(answer));
    return;
  }
  const a = answer.body;
  const scripted = a.chance === 'scripted';
  const kind = scripted ? 'scripted' : a.clean ? 'clean' : 'mismatch';
  const verdictClass =
    a.clean && !scripted ? 'verdict-clean' : scripted && a.clean ? 'verdict-scripted' : 'verdict-bad';
  fill(
    box,
    title,
    el('p', {id: 'audit-verdict', class: verdictClass, dataset: {verdict: kind}, text: auditWords(a)}),
    a.mismatches.length
      ? el(
          'ul',
          {},
          a.mismatches.map((m) =>
            el('li', {
              text: `version ${m.version} (${m.event_type}): draw #${m.k} recorded ${m.recorded}, the ${scripted ? 'script' : 'seed'} gives ${m.expected}`,
            }),
          ),
        )
      : null,
    scripted
      ? null
      : el('p', {class: 'muted'}, 'Seed commitment ', el('code', {text: `${a.seed_commitment.slice(0, 16)}…`})),
  );
}
