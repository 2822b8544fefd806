"""Accessibility checks in a real page: axe-core (vendored, test side only) run through WebDriver,
and the keyboard: every control reachable with Tab shows where the focus is."""

from __future__ import annotations

import base64
import hashlib
from functools import cache
from pathlib import Path
from typing import Any

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
AXE_SRI = "sha256-KTSJmUUM3yhJqOcLeRL8LahahJ2jnA0NU5T1HUqe2Vw="
"""axe-core 4.14.1's axe.min.js, as its package's sri-history.json lists it."""
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


@cache
def axe_source() -> str:
    data = AXE.read_bytes()
    digest = "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode()
    if digest != AXE_SRI:
        raise RuntimeError(f"{AXE} is not axe-core 4.14.1 ({digest})")
    return data.decode("utf-8")


def axe_violations(driver: Any) -> list[dict[str, Any]]:
    """axe-core's WCAG 2 A/AA violations of the page as it stands (each with its nodes)."""
    if not driver.execute_script("return typeof window.axe === 'object'"):
        driver.execute_script(axe_source())
    result = driver.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        const only = {runOnly: {type: 'tag', values: arguments[0]}, resultTypes: ['violations']};
        axe.run(document, only)
          .then((r) => done(r.violations.map((v) => ({
            id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 5).map((n) => ({target: n.target, summary: n.failureSummary})),
          }))))
          .catch((e) => done([{id: 'axe-error', help: String(e), nodes: []}]));
        """,
        TAGS,
    )
    return list(result)


STARTING_POINT = """
window.scrollTo(0, 0);
const first = document.createElement('span');
first.tabIndex = -1;
document.body.prepend(first);
first.focus();
first.addEventListener('blur', () => first.remove(), {once: true});
"""
"""Start Tab from the very top of the page (a throw-away focus point before everything)."""


def tab_stops(driver: Any, limit: int = 400) -> list[dict[str, Any]]:
    """Press Tab from the top of the page until the focus comes round again: each element the
    keyboard reaches, with whether it shows a visible focus indicator (an outline)."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    driver.execute_script(STARTING_POINT)
    stops: list[dict[str, Any]] = []
    seen: set[str] = set()
    for _ in range(limit):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        stop = driver.execute_script(
            """
            const e = document.activeElement;
            if (!e || e === document.body) return null;
            const s = getComputedStyle(e);
            const path = [];
            for (let n = e; n && n.nodeType === 1; n = n.parentElement) {
              path.unshift(n.tagName + (n.id ? '#' + n.id : '') + ':' +
                Array.prototype.indexOf.call(n.parentElement ? n.parentElement.children : [], n));
            }
            return {path: path.join('>'), tag: e.tagName.toLowerCase(), id: e.id,
                    cls: (e.getAttribute('class') || ''),
                    name: e.getAttribute('aria-label') || e.textContent.trim().slice(0, 60),
                    outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0};
            """
        )
        if stop is None:
            continue
        if stop["path"] in seen:
            break
        seen.add(stop["path"])
        stops.append(stop)
    return stops
