"""Driving Chronicle's web table in a real browser (Selenium on headless Debian Chromium), the
way a person does: wait until the page is ready, read what it shows, click its buttons and the
lands of its map, and keep a screenshot of every step."""

from __future__ import annotations

import itertools
import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from domain.core.geometry import Box
from tests.support.browser import jpeg_screenshot
from tests.support.words import NOT_WORDS, SLUG

REPO_ROOT = Path(__file__).resolve().parents[2]


def artifacts_dir(name: str) -> Path:
    """Where a test keeps its screenshots: $CHRONICLE_ARTIFACTS/<name>, else
    tests/artifacts/<name> (git-ignored); emptied first."""
    root = Path(os.environ.get("CHRONICLE_ARTIFACTS") or REPO_ROOT / "tests" / "artifacts")
    target = root / name
    target.mkdir(parents=True, exist_ok=True)
    for old in target.glob("*.jpg"):
        old.unlink()
    return target


@dataclass
class Shots:
    """Numbered screenshots of one test, one per step."""

    directory: Path
    count: int = 0
    taken: list[Path] = field(default_factory=list)

    def take(self, driver: Any, what: str) -> Path:
        self.count += 1
        slug = re.sub(r"[^a-z0-9]+", "-", what.lower()).strip("-")[:60]
        path = jpeg_screenshot(driver, self.directory / f"{self.count:04d}-{slug}.jpg")
        self.taken.append(path)
        return path


def dataset(driver: Any) -> dict[str, str]:
    return dict(driver.execute_script("return Object.assign({}, document.body.dataset)"))


def wait_until(driver: Any, test: Any, timeout: float = 20.0, what: str = "the page") -> Any:
    """Poll `test(driver)` until it is truthy; fail with the page's state after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        value = test(driver)
        if value:
            return value
        if time.monotonic() > deadline:
            state = dataset(driver)
            message = driver.execute_script(
                "const m = document.querySelector('#message, .error');"
                " return m ? m.textContent : ''"
            )
            raise AssertionError(f"timed out waiting for {what}: {state} {message}")
        time.sleep(0.03)


def ready(driver: Any, view: str | None = None) -> bool:
    state = dataset(driver)
    return state.get("ready") == "true" and (view is None or state.get("view") == view)


def wait_ready(driver: Any, view: str | None = None, timeout: float = 20.0) -> dict[str, str]:
    wait_until(driver, lambda d: ready(d, view), timeout, f"the {view or 'page'} to be ready")
    return dataset(driver)


ACTIONS_JS = """
return Array.from(document.querySelectorAll('#actions button.action:not(.table)')).map((b) => ({
  key: b.dataset.action, type: b.dataset.type, args: JSON.parse(b.dataset.args || '{}'),
  label: b.textContent}));
"""
TARGETS_JS = """
return Array.from(document.querySelectorAll('#board .target')).map(
  (n) => n.dataset.land || n.dataset.water);
"""
POINT_JS = """
const id = arguments[0];
const node = document.querySelector(`#board [data-land="${CSS.escape(id)}"],`
  + ` #board [data-water="${CSS.escape(id)}"]`);
if (!node) return null;
const svg = node.ownerSVGElement;
const place = () => {
  const p = svg.createSVGPoint();
  p.x = Number(node.dataset.x); p.y = Number(node.dataset.y);
  return p.matrixTransform(svg.getScreenCTM());
};
let at = place();
const bar = document.getElementById('dashboard');
const top = bar ? Math.max(40, bar.getBoundingClientRect().bottom + 20) : 40;
if (at.y < top || at.y > window.innerHeight - 40) {
  window.scrollBy(0, at.y - (top + window.innerHeight) / 2);
  at = place();
}
const area = node.closest('#board-area');  // the board scrolls inside itself, under the dashboard
const seen = area ? area.getBoundingClientRect() : null;
if (seen && (at.y < seen.top + 20 || at.y > seen.bottom - 20)) {
  area.scrollTop += at.y - (seen.top + seen.bottom) / 2;
  at = place();
}
const hit = document.elementFromPoint(at.x, at.y);
const owner = hit && hit.closest('[data-land], [data-water]');
return {x: at.x, y: at.y, hits: owner ? (owner.dataset.land || owner.dataset.water) : null};
"""


def actions(driver: Any) -> list[dict[str, Any]]:
    return list(driver.execute_script(ACTIONS_JS))


def targets(driver: Any) -> list[str]:
    return list(driver.execute_script(TARGETS_JS))


def click_place(driver: Any, place: str) -> None:
    """Click the map where a land (or water) is: a real pointer click at its place."""
    from selenium.webdriver.common.action_chains import ActionChains

    point = driver.execute_script(POINT_JS, place)
    assert point is not None, f"{place} is not on the map"
    assert point["hits"] == place, f"clicking {place} would hit {point['hits']}"
    chain = ActionChains(driver, duration=0)  # the pointer goes straight there (Selenium's
    # default glides for 250 ms: a quarter of a second a click, a third of a whole game's test)
    chain.w3c_actions.pointer_action.move_to_location(int(point["x"]), int(point["y"]))
    chain.w3c_actions.pointer_action.click()
    chain.perform()


def click_css(driver: Any, selector: str, tries: int = 3) -> None:
    """Click the element `selector` finds. The page redraws as the game's stream moves on (a
    bot's move, a seat joining), which can replace the element between finding and clicking
    it: then the one drawn in its place is clicked, as a person would click what is shown."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    for attempt in range(tries):
        element = driver.find_element(By.CSS_SELECTOR, selector)
        try:
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
            element.click()
            return
        except StaleElementReferenceException:
            if attempt == tries - 1:
                raise


def action_selector(key: str, within: str = "#actions") -> str:
    return f"{within} button.action[data-action={json.dumps(key)}]"


DASHBOARD_IN_VIEW_JS = """
const faults = [];
const dash = document.getElementById('dashboard');
const inView = (what) => {
  const r = dash.getBoundingClientRect();
  if (r.height < 20 || r.top < -1 || r.bottom > window.innerHeight + 1) {
    const span = `${Math.round(r.top)}..${Math.round(r.bottom)} of ${window.innerHeight}`;
    faults.push(`the dashboard is out of view ${what} (${span})`);
  }
};
window.scrollTo(0, 0);
inView('at the top');
window.scrollTo(0, document.documentElement.scrollHeight);
inView('at the bottom');
const area = document.getElementById('board-area');
if (area) { area.scrollTop = area.scrollHeight; }
inView('with the board scrolled to its end');
for (const node of document.querySelectorAll('#board .target')) {
  const id = node.dataset.land || node.dataset.water;
  if (!id || node.dataset.x === undefined) continue;
  window.scrollTo(0, document.documentElement.scrollHeight);  // from the far end of the page
  node.focus();  // as Tab brings it into view
  const svg = node.ownerSVGElement;
  const p = svg.createSVGPoint();
  p.x = Number(node.dataset.x); p.y = Number(node.dataset.y);
  const at = p.matrixTransform(svg.getScreenCTM());
  const hit = document.elementFromPoint(at.x, at.y);
  const owner = hit && hit.closest('[data-land], [data-water]');
  const under = hit && hit.closest('#dashboard');
  if (!hit || under || !owner || (owner.dataset.land || owner.dataset.water) !== id) {
    const what = under ? 'the dashboard' : (hit ? (hit.id || hit.tagName) : 'nothing');
    faults.push(`${id}, brought into view, is under ${what} at (${at.x | 0}, ${at.y | 0})`);
  }
  inView(`with ${id} in view`);
}
window.scrollTo(0, 0);
return faults;
"""


LAID_OUT_JS = """
const done = arguments[arguments.length - 1];
requestAnimationFrame(() => requestAnimationFrame(() => {
  const dash = document.getElementById('dashboard');
  const kept = getComputedStyle(document.documentElement).getPropertyValue('--dash-h').trim();
  done(!dash || kept === `${Math.ceil(dash.getBoundingClientRect().height)}px`);
}));
"""


def resized_to(driver: Any, width: int, height: int) -> None:
    """The window resized and the page laid out again as a person then sees it: two frames
    painted, in which the board moved under the dashboard's new height (a ResizeObserver's
    work, done at the next frame, which the checks had sometimes run before)."""
    driver.set_window_size(width, height)
    wait_until(driver, lambda d: d.execute_script("return innerWidth") <= width, what="the size")
    wait_until(driver, lambda d: d.execute_async_script(LAID_OUT_JS), what="the layout")


def dashboard_faults(driver: Any) -> list[str]:
    """Where the dashboard leaves the window (the page or the board scrolled to its end, each
    land or water of the map focused as Tab would) and where it covers a place one may click."""
    return list(driver.execute_script(DASHBOARD_IN_VIEW_JS))


# --- what every whole game checks on the way (shared by the browser game tests) ---------------

CHOICES_JS = """
const held = new Set(Array.from(document.querySelectorAll('#dashboard .hand-card.target'))
  .map((n) => n.dataset.card));
const seats = new Set(Array.from(document.querySelectorAll('#dashboard .dash-player.target'))
  .map((n) => Number(n.dataset.seat)));
const places = new Set(Array.from(document.querySelectorAll('#board .target'))
  .map((n) => n.dataset.land || n.dataset.water).filter(Boolean));
const drawn = new Set(Array.from(document.querySelectorAll('#board [data-land], [data-water]'))
  .map((n) => n.dataset.land || n.dataset.water));
const cards = new Set(Array.from(document.querySelectorAll('#dashboard .hand-card'))
  .map((n) => n.dataset.card));
const on = (selector) => document.querySelector(selector) !== null;
return Array.from(document.querySelectorAll('#actions button.action:not(.table)')).map((b) => {
  const args = JSON.parse(b.dataset.args || '{}');
  const values = Object.entries(args);
  const place = values.map(([, v]) => v).find((v) => typeof v === 'string' && places.has(v));
  const card = values.map(([, v]) => v).find((v) => typeof v === 'string' && held.has(v));
  const seat = values.find(([k, v]) => ['to', 'seat', 'target_seat'].includes(k) && seats.has(v));
  const square = b.dataset.square && on(`#board .target[data-square="${b.dataset.square}"]`);
  const offer = b.dataset.offer && on(`#board .offer.target[data-offer="${b.dataset.offer}"]`);
  return {key: b.dataset.action, type: b.dataset.type, args, label: b.textContent,
          place: place || null, card: card || null, seat: seat ? seat[1] : null,
          square: square ? b.dataset.square : null, offer: offer ? b.dataset.offer : null,
          unclickable: [[drawn, places], [cards, held]].some(([shown, live]) =>
            values.some(([, v]) => shown.has(v)) && !values.some(([, v]) => live.has(v)))};
});
"""


def choices(driver: Any) -> list[dict[str, Any]]:
    """The seat's actions, each with what a person clicks for it: the place of the drawing, the
    card of the hand, the player of the dashboard, the square or the Tile offered (else None:
    its button); `unclickable` where it names a place drawn or a card shown that is no target."""
    return list(driver.execute_script(CHOICES_JS))


def unclickable(found: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """The actions that name a land, water or card the page shows but does not offer to click."""
    return [(c["label"], c["args"]) for c in found if c["unclickable"]]


BAD_WORDS = [(pattern, what) for pattern, what in NOT_WORDS if what != SLUG]

TEXT_JS = """
const parts = ['#actions', '#log', '#dashboard', '#status', '#chooser'];
return parts.map((s) => { const n = document.querySelector(s); return n ? n.innerText : ''; })
  .join('\\n');
"""


def pack_ids(rules: Any) -> set[str]:
    """The ids of a ruleset's pack that a page must name by their words instead."""
    names = rules.names()
    return {i for i in names if "-" in i and names[i] != i}


def assert_words_not_ids(driver: Any, ids: set[str], where: str) -> None:
    """No button, log line or dashboard shows a pack id, a bare seat number, -1, an empty field
    or "p. ?"."""
    text = str(driver.execute_script(TEXT_JS))
    for pattern, what in BAD_WORDS:
        found = pattern.search(text)
        assert found is None, (
            f"{where}: {what} in {text[max(0, found.start() - 80) : found.end() + 80]!r}"
        )
    words = set(re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)+", text))
    assert not words & ids, f"{where}: ids {sorted(words & ids)[:5]} shown"


PLAYING_JS = "const n = document.getElementById('dash-playing'); return n ? n.textContent : ''"


def playing(driver: Any) -> str:
    """What the dashboard says is being played ("Now: <Empire>, played by <player>")."""
    return str(driver.execute_script(PLAYING_JS))


def empires_named(said: set[str]) -> set[str]:
    """The Empires the dashboard named in what `playing` read."""
    return {m[1] for p in said if (m := re.match(r"Now: (.+), played by \S", p))}


# --- the drawing as the browser shows it ---------------------------------------------------------

NAME_BOXES_JS = """
const svg = document.querySelector('#board svg');
const rect = (e) => { const r = e.getBoundingClientRect();
  return {x: r.left, y: r.top, w: r.width, h: r.height}; };
const boxes = (sel) => Array.from(document.querySelectorAll(sel)).map((e) => Object.assign(
  rect(e), {id: e.dataset.for || e.closest('[data-place]').dataset.place}));
const strokes = [];
const skip = 'defs, pattern, marker, .legend, .pieces, .power-icon, .tracks';
for (const e of svg ? svg.querySelectorAll('line, path, polyline') : []) {
  if (e.closest(skip) || e.matches('.region, .terrain')) continue;
  const style = getComputedStyle(e);
  if (style.stroke === 'none' || style.visibility === 'hidden') continue;
  const m = e.getScreenCTM();
  const at = (x, y) => ({x: m.a * x + m.c * y + m.e, y: m.b * x + m.d * y + m.f});
  let points = [];
  if (e.tagName === 'line') {
    points = [at(e.x1.baseVal.value, e.y1.baseVal.value),
              at(e.x2.baseVal.value, e.y2.baseVal.value)];
  } else if (e.tagName === 'polyline') {
    points = Array.from(e.points).map((p) => at(p.x, p.y));
  } else {
    const length = e.getTotalLength();
    const n = Math.max(1, Math.ceil(length / 3));
    for (let k = 0; k <= n; k++) {
      const p = e.getPointAtLength(length * k / n);
      points.push(at(p.x, p.y));
    }
  }
  const owner = e.closest('[data-for]');
  const cls = e.getAttribute('class') || (e.parentNode.getAttribute('class') || e.tagName);
  strokes.push({id: `${cls}${owner ? ' of ' + owner.dataset.for : ''}`,
                of: owner ? owner.dataset.for : null, points});
}
return {labels: boxes('#board text.label'), pieces: boxes('#board .pieces .piece'), strokes};
"""


def _meet(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["w"] - 0.5
        and b["x"] < a["x"] + a["w"] - 0.5
        and a["y"] < b["y"] + b["h"] - 0.5
        and b["y"] < a["y"] + a["h"] - 0.5
    )


def _crosses(p: dict[str, float], q: dict[str, float], box: dict[str, float]) -> bool:
    """Whether the segment p-q passes through the box (shrunk by half a pixel on each side)."""
    inner = Box(box["x"] + 0.5, box["y"] + 0.5, box["w"] - 1, box["h"] - 1)
    return inner.segment_span((p["x"], p["y"]), (q["x"], q["y"])) is not None


def overlapping_names(driver: Any) -> list[tuple[str, str]]:
    """As the browser draws the map: the names that overlap another name, cover a piece, or
    are crossed by a line of the drawing (a link, strait, sea link or leader: every stroked
    line or path but the outlines of regions, the pieces and the legend; a leader may touch
    its own name)."""
    found = driver.execute_script(NAME_BOXES_JS)
    labels, pieces, strokes = found["labels"], found["pieces"], found["strokes"]
    assert labels, "the map names its places"
    pairs = [(a, b) for i, a in enumerate(labels) for b in labels[i + 1 :]]
    clash = [(a["id"], b["id"]) for a, b in pairs if _meet(a, b)]
    clash += [(a["id"], p["id"]) for a in labels for p in pieces if _meet(a, p)]
    for line in strokes:
        points = line["points"]
        for label in labels:
            if line["of"] == label["id"]:
                continue
            if any(_crosses(p, q, label) for p, q in itertools.pairwise(points)):
                clash.append((label["id"], line["id"]))
    return clash


TEXT_BOXES_JS = """
return Array.from(document.querySelectorAll('#board svg text')).filter(
  (e) => e.textContent.trim() && getComputedStyle(e).visibility !== 'hidden').map((e) => {
  const r = e.getBoundingClientRect();
  return {id: e.textContent.trim().slice(0, 40), x: r.left, y: r.top, w: r.width, h: r.height};
}).filter((b) => b.w > 0 && b.h > 0);
"""


def overlapping_texts(driver: Any) -> list[tuple[str, str]]:
    """As the browser draws the board: every two of its texts whose boxes overlap."""
    boxes = driver.execute_script(TEXT_BOXES_JS)
    assert boxes, "the board has texts"
    return [(a["id"], b["id"]) for i, a in enumerate(boxes) for b in boxes[i + 1 :] if _meet(a, b)]


SMALLEST_TEXT_JS = """
const sizes = [];
for (const e of document.querySelectorAll('#board svg text')) {
  const words = e.textContent.trim();
  if (!words) continue;
  const box = e.getBoundingClientRect();
  if (box.width === 0 || box.height === 0) continue;
  const m = e.getScreenCTM();
  const scale = Math.sqrt(m.a * m.a + m.b * m.b);
  sizes.push({size: parseFloat(getComputedStyle(e).fontSize) * scale, words: words.slice(0, 40),
              cls: e.getAttribute('class') || ''});
}
sizes.sort((a, b) => a.size - b.size);
return {count: sizes.length, smallest: sizes.slice(0, 5),
        width: document.querySelector('#board svg').getBoundingClientRect().width};
"""


def smallest_board_text(driver: Any) -> dict[str, Any]:
    """The board's texts as rendered: how many, the five smallest (font size in CSS pixels:
    the computed font size times the drawing's scale on screen) and the drawing's width."""
    return dict(driver.execute_script(SMALLEST_TEXT_JS))


# --- whose turn it is, and the page after a click -----------------------------------------------


def whose_turn(driver: Any, handles: list[str], timeout: float = 60.0) -> int | None:
    """The seat whose window says it is its turn (switched to it), or None once every window
    shows the game finished. Each window learns of the others' moves from the stream."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        finished = 0
        for seat, handle in enumerate(handles):
            driver.switch_to.window(handle)
            state = dataset(driver)
            if state.get("ready") != "true":
                continue
            if state.get("status") == "finished":
                finished += 1
            elif state.get("yourTurn") == "true":
                return seat
        if finished == len(handles):
            return None
        time.sleep(0.03)
    states = []
    for handle in handles:
        driver.switch_to.window(handle)
        states.append(dataset(driver))
    raise AssertionError(f"no window shows whose turn it is: {states}")


def settled_after(driver: Any, before: int, timeout: float = 30.0) -> str:
    """Wait until the page has played the click: "played" (a new version) or "message"."""
    from selenium.webdriver.common.by import By

    def done(d: Any) -> str | None:
        state = dataset(d)
        if state.get("ready") != "true":
            return None
        if int(state.get("version", "0")) > before:
            return "played"
        if d.find_elements(By.CSS_SELECTOR, "#message .error, #message .notice"):
            return "message"
        return None

    return str(wait_until(driver, done, timeout, "the move to be played"))
