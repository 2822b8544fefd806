"""The web table's script (api/web/*.js) as ES modules with JSDoc types: its API types are
generated from openapi.yaml by openapi-typescript (api/web/api.d.ts, committed, matching a fresh
generation), `tsc --noEmit` checks every module (checkJs, strict), Biome lints and formats it
(check mode, warnings count), and its pure functions pass their `node --test` unit tests. The
tools are the exact versions of api/web/package-lock.json, installed there by `npm ci` the
first time (as examples/typescript/run.sh does)."""

from __future__ import annotations

import fcntl
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.shape import circles

WEB = Path(__file__).resolve().parents[2] / "api" / "web"
BIN = WEB / "node_modules" / ".bin"
MODULES = sorted(WEB.glob("*.js"))
MAX_LINES = 600


def npm_installed() -> None:
    """The pinned tools in api/web/node_modules: `npm ci` once, one worker at a time."""
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.fail("Node 20 and npm are needed to check the web table (api/web/package.json)")
    with open(WEB / "package-lock.json") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        marker = WEB / "node_modules" / ".package-lock.json"
        pinned = (WEB / "package-lock.json").stat().st_mtime
        if not marker.exists() or marker.stat().st_mtime < pinned:
            run(["npm", "ci", "--no-audit", "--no-fund", "--silent"])


def run(command: list[str]) -> str:
    done = subprocess.run(command, cwd=WEB, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    return done.stdout


def page_imports(source: str) -> set[str]:
    """The page's own modules a module imports (`import {a, b} from './x.js';`, over lines)."""
    return set(re.findall(r"^import [^;]*? from '\./([\w-]+\.js)';", source, re.M | re.S))


def test_no_import_circle_among_the_modules_of_the_page():
    """The modules drawing a table ask it to refresh through the table itself (`t.refresh`),
    not by importing the module that owns the refresh."""
    imports = {module.name: page_imports(module.read_text()) for module in MODULES}
    assert imports["main.js"] >= {"table.js", "lobby.js"}, imports["main.js"]
    assert not circles(imports), circles(imports)
    assert circles({"a.js": page_imports("import {x,\n y} from './b.js';"), "b.js": {"a.js"}})


def test_every_module_of_the_page_is_type_checked_and_under_the_size_cap():
    assert len(MODULES) >= 10, [m.name for m in MODULES]
    for module in MODULES:
        lines = module.read_text().splitlines()
        assert lines[0] == "// @ts-check", module.name
        assert len(lines) < MAX_LINES, f"{module.name}: {len(lines)} lines"
    page = (WEB / "index.html").read_text()
    assert '<script type="module" src="/web/main.js"></script>' in page


def test_the_api_types_are_a_fresh_generation_from_openapi_yaml(tmp_path: Path):
    npm_installed()
    fresh = tmp_path / "api.d.ts"
    run([str(BIN / "openapi-typescript"), "../../openapi.yaml", "--output", str(fresh), "--silent"])
    assert (WEB / "api.d.ts").read_text() == fresh.read_text(), (
        "api/web/api.d.ts drifted from openapi.yaml: run `npm run types` in api/web"
    )


def test_tsc_finds_no_type_error_in_any_module():
    npm_installed()
    run([str(BIN / "tsc"), "-p", "."])


def test_biome_finds_nothing_to_lint_or_format():
    npm_installed()
    run([str(BIN / "biome"), "ci", "--error-on-warnings", "--colors=off", "."])


def test_the_pure_functions_pass_their_node_unit_tests():
    out = run(["node", "--test", "tests/"])
    assert "# fail 0" in out, out[-3000:]
    passed = int(out.split("# pass ")[1].split()[0])
    assert passed >= 30, out[-3000:]
