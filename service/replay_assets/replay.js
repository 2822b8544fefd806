const D = JSON.parse(document.getElementById('replay-data').textContent);
const N = D.events.length;
const KEY = 100;
const keyframes = [];
function blank() { return {lands: {}, fleets: [], gold: [], epoch: null, stage: null, seat: null}; }
function apply(f, c) {
  const g = {lands: Object.assign({}, f.lands), fleets: f.fleets, gold: f.gold,
             epoch: f.epoch, stage: f.stage, seat: f.seat};
  if (c.lands) for (const [land, v] of Object.entries(c.lands)) {
    if (v === null) delete g.lands[land]; else g.lands[land] = v; }
  for (const k of ['fleets', 'gold', 'epoch', 'stage', 'seat']) if (k in c) g[k] = c[k];
  return g;
}
let f = blank();
for (let i = 0; i < N; i++) { f = apply(f, D.changes[i]); if (i % KEY === 0) keyframes.push(f); }
function frameAt(v) {
  const i = v - 1, k = Math.floor(i / KEY);
  let g = keyframes[k];
  for (let j = k * KEY + 1; j <= i; j++) g = apply(g, D.changes[j]);
  return g;
}
const SVGNS = 'http://www.w3.org/2000/svg';
const svg = document.querySelector('#board svg');
const layer = document.createElementNS(SVGNS, 'g');
layer.setAttribute('id', 'pieces');
if (svg) svg.appendChild(layer);
function mark(tag, attrs, parent) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  parent.appendChild(e); return e;
}
function anchor(place) {
  // where the map keeps room for a place's pieces (data-px/py), else the place itself
  const node = svg && svg.querySelector(`[data-land="${CSS.escape(place)}"], [data-water="${CSS.escape(place)}"]`);
  if (node && node.dataset.px) return [Number(node.dataset.px), Number(node.dataset.py)];
  return D.places[place];
}
function draw(g) {
  layer.textContent = '';
  for (const [land, [owner, army, buildings, wall]] of Object.entries(g.lands)) {
    const p = anchor(land); if (!p) continue;
    const grp = mark('g', {'class': 'land-pieces', 'data-land': land,
      'data-owner': owner === null ? '' : owner, 'data-kind': owner === null ? '' : (army ? 'army' : 'garrison'),
      'data-buildings': buildings.join(' ')}, layer);
    if (owner !== null) {
      const colour = D.colours[owner];
      // within the row the map keeps free for a land's pieces (centred on its place)
      if (army) mark('rect', {x: p[0] - 20, y: p[1] - 5, width: 7, height: 10, fill: colour, stroke: '#000'}, grp);
      else mark('rect', {x: p[0] - 21, y: p[1] - 2, width: 10, height: 5, fill: colour, stroke: '#000'}, grp);
    }
    buildings.forEach((b, i) => {
      const t = mark('text', {x: p[0] - 10 + 9 * i, y: p[1] + 4, 'font-size': 9, 'class': 'building'}, grp);
      t.textContent = {capital: 'C', city: 'c', monument: 'M', fort: wall ? 'W' : 'F'}[b] || '?';
    });
  }
  for (const [water, seat] of g.fleets) {
    const p = anchor(water); if (!p) continue;
    mark('path', {d: `M${p[0] - 8},${p[1] - 4} l16,0 l-4,6 l-8,0 z`, fill: D.colours[seat] || '#000',
      stroke: '#000', 'class': 'fleet', 'data-water': water, 'data-owner': seat}, layer);
  }
}
function gold(g) {
  const box = document.getElementById('gold'); box.textContent = '';
  const top = Math.max(1, ...g.gold);
  g.gold.forEach((amount, seat) => {
    const row = document.createElement('div'); row.className = 'gold-row';
    const name = document.createElement('span');
    name.style.width = '70px'; name.textContent = String(D.players[seat]);
    const bar = document.createElement('span'); bar.className = 'gold-bar';
    bar.style.width = `${Math.round(180 * Number(amount) / top)}px`; bar.style.background = D.colours[seat];
    const figure = document.createElement('span');
    figure.id = `gold-${seat}`; figure.dataset.gold = String(amount);
    figure.textContent = `${amount} (space ${amount % 100 || 100})`;
    row.append(name, bar, figure);
    box.appendChild(row);
  });
}
function show(v) {
  v = Math.max(1, Math.min(N, v));
  const g = frameAt(v), e = D.events[v - 1];
  document.getElementById('version').textContent = v;
  document.getElementById('slider').value = v;
  document.getElementById('epoch').textContent = g.epoch ?? '';
  document.getElementById('stage').textContent = g.stage ?? '';
  document.getElementById('seat').textContent = g.seat ?? '-';
  document.getElementById('event-type').textContent = e.type;
  document.getElementById('event-rule').textContent = e.rule;
  document.getElementById('event-text').textContent = e.text ? (e.where ? `${e.text} (${e.where})` : e.text) : '';
  document.getElementById('event-data').textContent = JSON.stringify(e.data);
  draw(g); gold(g);
  const log = document.getElementById('log'); log.textContent = '';
  for (let i = Math.max(0, v - 15); i < Math.min(N, v + 5); i++) {
    const line = document.createElement('div');
    line.textContent = `${D.events[i].v} ${D.events[i].type} [${D.events[i].rule}]`;
    if (i === v - 1) line.className = 'now';
    log.appendChild(line);
  }
  current = v;
}
let current = 1;
document.getElementById('total').textContent = N;
const slider = document.getElementById('slider'); slider.max = N;
slider.addEventListener('input', () => show(+slider.value));
document.getElementById('first').addEventListener('click', () => show(1));
document.getElementById('prev').addEventListener('click', () => show(current - 1));
document.getElementById('next').addEventListener('click', () => show(current + 1));
document.getElementById('last').addEventListener('click', () => show(N));
const params = new URLSearchParams(location.hash.slice(1));
show(params.has('v') ? +params.get('v') : N);
for (let i = 0; i < (+params.get('next') || 0); i++) document.getElementById('next').click();
for (let i = 0; i < (+params.get('prev') || 0); i++) document.getElementById('prev').click();
