"""Driving Chronicle's web table in a real browser (Selenium on headless Debian Chromium), the
way a person does: wait until the page is ready, read what it shows, click its buttons and the
lands of its map, and keep a screenshot of every step."""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.support.browser import jpeg_screenshot

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
    chain = ActionChains(driver)
    chain.w3c_actions.pointer_action.move_to_location(int(point["x"]), int(point["y"]))
    chain.w3c_actions.pointer_action.click()
    chain.perform()


def click_css(driver: Any, selector: str) -> None:
    from selenium.webdriver.common.by import By

    element = driver.find_element(By.CSS_SELECTOR, selector)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


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


def dashboard_faults(driver: Any) -> list[str]:
    """Where the dashboard leaves the window (the page or the board scrolled to its end, each
    land or water of the map focused as Tab would) and where it covers a place one may click."""
    return list(driver.execute_script(DASHBOARD_IN_VIEW_JS))
