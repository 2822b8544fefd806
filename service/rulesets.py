"""Rulesets bound to their data packs, built once per process.

There is one registry of rulesets: the domain's (`domain.core.ruleset.register_ruleset`). This
module only fills it and binds what it holds:

- the rulesets Chronicle ships are declared once, as entry points of the group
  `chronicle.rulesets` in pyproject.toml (`name = "module:Class"`); `pip install -e .` writes
  them into the installed metadata, which `importlib.metadata` reads;
- $CHRONICLE_RULESET_MODULES (a comma list) names extra modules whose import registers more
  (tests.support.toy, a ruleset under development);
- a ruleset class declares its data pack (`data_pack`) and the function that loads it
  (`pack_loader = "module:function"`, called as `function(data_pack, root)`); `ruleset(name)`
  builds the class with what that returns.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import threading
from collections.abc import Callable
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from domain.core.errors import UnknownRuleset
from domain.core.ruleset import Ruleset, find_ruleset, register_ruleset, ruleset_names
from schemas.pack_base import pack_dir

ENTRY_POINT_GROUP = "chronicle.rulesets"

_lock = threading.Lock()
_bound: dict[str, Ruleset[Any]] = {}


class RulesetSetupError(RuntimeError):
    """The installed metadata or a ruleset's declarations are wrong (not a user's mistake)."""


@cache
def _built_in() -> dict[str, type[Ruleset[Any]]]:
    """The shipped rulesets, by name, from the entry points (imported once per process)."""
    found: dict[str, type[Ruleset[Any]]] = {}
    for point in entry_points(group=ENTRY_POINT_GROUP):
        cls = point.load()
        if not (isinstance(cls, type) and issubclass(cls, Ruleset)):
            raise RulesetSetupError(f"entry point {point.name} = {point.value} is not a Ruleset")
        if cls.name != point.name:
            raise RulesetSetupError(
                f"entry point {point.name} = {point.value} names the ruleset {cls.name!r}"
            )
        found[point.name] = register_ruleset(cls)
    if not found:
        raise RulesetSetupError(
            f"no rulesets declared under the entry point group {ENTRY_POINT_GROUP!r}: Chronicle "
            "is not installed, or its installed metadata is older than pyproject.toml "
            "(run `pip install -e .`)"
        )
    return found


def import_rulesets() -> None:
    """Register the built-in rulesets and any named in $CHRONICLE_RULESET_MODULES."""
    _built_in()
    extra = [m.strip() for m in os.environ.get("CHRONICLE_RULESET_MODULES", "").split(",")]
    for module in filter(None, extra):
        importlib.import_module(module)


_imported = False


def import_rulesets_once() -> None:
    """import_rulesets(), the first time only: decoding a stored event needs its type, which the
    ruleset's module registers on import, and a fresh process may decode events (a feed, an
    audit, the repeat of an idempotent command) before it has loaded any ruleset."""
    global _imported
    if not _imported:
        import_rulesets()
        _imported = True


def find(name: str) -> type[Ruleset[Any]]:
    """The registered ruleset class `name` (raises UnknownRuleset)."""
    import_rulesets()
    return find_ruleset(name)


def pack_loader(cls: type[Ruleset[Any]]) -> Callable[[str, Path | None], Any]:
    """The function `cls.pack_loader` names."""
    if not cls.pack_loader:
        raise RulesetSetupError(f"{cls.name} has a data pack but declares no pack_loader")
    module, _, function = cls.pack_loader.partition(":")
    loader: Callable[[str, Path | None], Any] = getattr(importlib.import_module(module), function)
    return loader


def load_pack(cls: type[Ruleset[Any]], root: Path | None = None) -> Any:
    """The data pack `cls` is built with (None when it has none), from `root` (None: data/)."""
    if not cls.data_pack:
        return None
    return pack_loader(cls)(cls.data_pack, root)


def pack_digest(data_pack: str, root: Path | None = None) -> str:
    """SHA-256 over every file of `data/<data_pack>/` (its path and bytes, in path order): what
    a game records of the data it was created with."""
    folder = pack_dir(data_pack, root)
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def bind(cls: type[Ruleset[Any]], root: Path | None = None) -> Ruleset[Any]:
    """A new instance of `cls` bound to its data pack under `root` (uncached: `ruleset` keeps
    one per name for the default root), at its newest revision (`at_revision` for others)."""
    bound = cls(load_pack(cls, root))
    if cls.data_pack:
        bound.pack_digest = pack_digest(cls.data_pack, root)
    return bound


def ruleset(name: str, revision: int | None = None) -> Ruleset[Any]:
    """The registered ruleset `name`, bound to its loaded data pack, at `revision` (None: its
    newest; RulesetRevisionUnavailable for one it does not have)."""
    bound = _bound.get(name)
    if bound is None:
        with _lock:
            if name not in _bound:
                _bound[name] = bind(find(name))
            bound = _bound[name]
    return bound if revision is None else bound.at_revision(revision)


PACKS_WITHOUT_RULESET = {"hotw-ah2001": "schemas.ah2001_pack:check_tables"}
"""Data packs checked ahead of their ruleset (`module:function(root)` summarising the pack)."""


def check_pack(name: str, root: Path | None = None) -> dict[str, Any]:
    """The `chronicle data check` summary of ruleset `name`'s data pack: the loader module's own
    `check_pack(data_pack, root)` where it has one, else whether the pack loads. Never raises
    for a bad pack or an unknown ruleset (`errors` says what is wrong)."""

    def refused(message: str) -> dict[str, Any]:
        error = {"file": name, "entry": "", "field": "", "message": message}
        return {"ruleset": name, "valid": False, "errors": [error]}

    try:
        cls = find(name)
    except UnknownRuleset:
        if name in PACKS_WITHOUT_RULESET:
            module_name, _, function = PACKS_WITHOUT_RULESET[name].partition(":")
            ahead: dict[str, Any] = getattr(importlib.import_module(module_name), function)(root)
            return ahead
        return refused(f"unknown ruleset (known: {', '.join(available())})")
    if not cls.data_pack:
        return refused("this ruleset has no data pack")
    module = importlib.import_module(str(cls.pack_loader).partition(":")[0])
    checker = getattr(module, "check_pack", None)
    if checker is not None:
        summary: dict[str, Any] = checker(cls.data_pack, root)
        return summary | {"ruleset": name}
    try:
        load_pack(cls, root)
    except Exception as exc:  # the loader's own words for what is wrong
        return refused(str(exc))
    return {"ruleset": name, "valid": True, "errors": []}


def available() -> list[str]:
    import_rulesets()
    return ruleset_names()


def built_in() -> list[str]:
    """The rulesets Chronicle ships (its entry points; not those added through
    $CHRONICLE_RULESET_MODULES or registered by tests): the ones its OpenAPI document
    describes."""
    return sorted(_built_in())
