"""The lock: constraints.txt pins the exact version of every package CI installs (made by
`uv pip compile` from pyproject.toml's dependencies and its `[test]` extra; README, Quick
start, says how to refresh it). The committed lock keeps within pyproject's ranges, this
environment is the lock exactly, and a fresh compile against PyPI shows what the newest
releases would change (printed; a newer release is news, not a failure)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

REPO_ROOT = Path(__file__).resolve().parents[2]
LOCK = REPO_ROOT / "constraints.txt"
COMPILE = ["pip", "compile", "pyproject.toml", "--extra", "test", "--python-version", "3.11"]
"""`uv` followed by these (and `-o FILE`) makes the lock, as the README says."""
NOT_LOCKED = {"pip", "chronicle"}
"""The installer itself, and the project being installed."""


def pins(text: str) -> dict[str, Version]:
    found = re.findall(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)", text, re.M)
    return {canonicalize_name(name): Version(version) for name, version in found}


def declared() -> list[Requirement]:
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]
    lines = project["dependencies"] + project["optional-dependencies"]["test"]
    return [Requirement(line) for line in lines]


def test_the_lock_pins_every_declared_dependency_within_its_range():
    locked = pins(LOCK.read_text())
    for requirement in declared():
        name = canonicalize_name(requirement.name)
        assert name in locked, f"{requirement.name} is not in constraints.txt"
        assert requirement.specifier.contains(locked[name], prereleases=True), (
            f"constraints.txt pins {name}=={locked[name]}, outside pyproject's {requirement}"
        )
        for extra in requirement.extras:  # redis[hiredis], apispec[yaml]: their packages too
            wanted = metadata.distribution(requirement.name).requires or []
            for dependency in map(Requirement, wanted):
                if dependency.marker and dependency.marker.evaluate({"extra": extra}):
                    assert canonicalize_name(dependency.name) in locked, (requirement, dependency)


def reached_from_the_project() -> dict[str, str]:
    """Every distribution installing chronicle with its [test] extra brings in here (markers
    read for this interpreter), by canonical name, with its installed version."""
    seen: dict[str, str] = {}
    todo: list[tuple[str, set[str]]] = [("chronicle", {"test"})]
    while todo:
        name, extras = todo.pop()
        dist = metadata.distribution(name)
        for line in dist.requires or []:
            requirement = Requirement(line)
            marker = requirement.marker
            if marker and not any(marker.evaluate({"extra": e}) for e in extras | {""}):
                continue
            key = canonicalize_name(requirement.name)
            if key not in seen:
                seen[key] = metadata.version(requirement.name)
                todo.append((requirement.name, set(requirement.extras)))
            elif requirement.extras:
                todo.append((requirement.name, set(requirement.extras)))
    return seen


def test_this_environment_is_the_lock_exactly():
    """What chronicle[test] needs is installed at the locked versions, and nothing else is
    installed (a package added by hand, or left from an older lock, fails here)."""
    locked = pins(LOCK.read_text())
    needed = reached_from_the_project()
    off = {n: (v, str(locked.get(n))) for n, v in needed.items() if locked.get(n) != Version(v)}
    assert off == {}, f"installed (left) differs from constraints.txt (right): {off}"
    installed = {canonicalize_name(d.metadata["Name"]): d.version for d in metadata.distributions()}
    extra = sorted(set(installed) - set(needed) - NOT_LOCKED)
    assert extra == [], f"installed but neither needed nor locked: {extra}"
    unused = sorted(set(locked) - set(needed))
    print(f"\n{len(needed)} packages as locked; locked for other interpreters only: {unused}")


def test_a_fresh_compile_shows_what_the_newest_releases_would_change(tmp_path):
    """`uv pip compile --upgrade` against PyPI alone, into a temporary file: the diff is
    printed; it fails only when the newest releases could not be resolved within pyproject's
    ranges."""
    uv = shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv")
    assert uv, "uv is in the [test] extra"
    fresh = tmp_path / "constraints.txt"
    made = subprocess.run(
        [uv, *COMPILE, "--upgrade", "--no-header", "-q", "-o", str(fresh)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert made.returncode == 0, made.stderr[-3000:]
    old, new = pins(LOCK.read_text()), pins(fresh.read_text())
    changes = {n: (str(old.get(n)), str(new.get(n))) for n in old.keys() | new.keys()}
    changes = {n: c for n, c in sorted(changes.items()) if c[0] != c[1]}
    print(f"\nthe newest releases would change {len(changes)} of {len(old)} pins:")
    for name, (was, would) in changes.items():
        print(f"  {name}: {was} -> {would}")
    for requirement in declared():
        assert requirement.specifier.contains(new[canonicalize_name(requirement.name)], True)
