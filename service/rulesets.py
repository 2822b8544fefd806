"""Rulesets bound to their data packs, built once per process.

There is one registry of rulesets: the domain's (`domain.core.ruleset.register_ruleset`). This
module only fills it and binds what it holds:

- the rulesets Chronicle ships are declared once, as entry points of the group
  `chronicle.rulesets` in pyproject.toml (`name = "module:Class"`); `pip install -e .` writes
  them into the installed metadata, which `importlib.metadata` reads;
- $CHRONICLE_RULESET_MODULES (a comma list) names extra modules whose import registers more
  (tests.support.toy, a ruleset under development);
- a ruleset class declares its data pack (`data_pack`); the module of `packs/` that reads it
  registers its loader (`packs.register`), and `ruleset(name)` builds the class with what that
  loader returns.
"""

from __future__ import annotations

import gc
import hashlib
import importlib
import itertools
import os
import threading
from collections.abc import Sequence
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import packs
from domain.core.errors import InvalidOptions, UnknownRuleset
from domain.core.messages import Event, registered_event_classes
from domain.core.ruleset import Ruleset, find_ruleset, register_ruleset, ruleset_names
from packs.base import pack_dir

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


def load_pack(cls: type[Ruleset[Any]], root: Path | None = None) -> Any:
    """The data pack `cls` is built with (None when it has none), from `root` (None: data/),
    by the reader that `packs` registers for it."""
    if not cls.data_pack:
        return None
    try:
        found = packs.reader(cls.data_pack)
    except KeyError:
        raise RulesetSetupError(
            f"no module of packs/ reads the data pack {cls.data_pack}"
        ) from None
    return found.load(cls.data_pack, root)


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


def check_pack(name: str, root: Path | None = None) -> dict[str, Any]:
    """The `chronicle data check` summary of ruleset `name`'s data pack (or of a data pack some
    module of packs/ reads ahead of its ruleset): its reader's check. Never raises for a bad
    pack or an unknown ruleset (`errors` says what is wrong)."""

    def refused(message: str) -> dict[str, Any]:
        error = {"file": name, "entry": "", "field": "", "message": message}
        return {"ruleset": name, "valid": False, "errors": [error]}

    try:
        data_pack = find(name).data_pack
    except UnknownRuleset:
        if name not in packs.readable():
            return refused(f"unknown ruleset (known: {', '.join(available())})")
        data_pack = name
    if not data_pack:
        return refused("this ruleset has no data pack")
    summary: dict[str, Any] = packs.reader(data_pack).check(data_pack, root)
    return summary | {"ruleset": name}


def available() -> list[str]:
    import_rulesets()
    return ruleset_names()


def load_all_and_settle() -> None:
    """Every ruleset bound to its data pack, then the heap settled: one full collection, and
    everything alive after it moved to the collector's permanent generation (`gc.freeze`).
    The modules and the packs live as long as the process, and a full collection no longer
    walks them: in a web process serving Patchistory it took 41-61 ms before and 7-23 ms after
    (docs/benchmarks-history.md), a stall every request in flight waited out."""
    for name in available():
        ruleset(name)
    gc.collect()
    gc.freeze()


def built_in() -> list[str]:
    """The rulesets Chronicle ships (its entry points; not those added through
    $CHRONICLE_RULESET_MODULES or registered by tests): the ones its OpenAPI document
    describes."""
    return sorted(_built_in())


def rule_entry(rules: Ruleset[Any], rule_id: str) -> dict[str, Any] | None:
    """The rules-catalogue entry of a rule id, if the ruleset's pack has a catalogue."""
    catalogue = getattr(rules.pack, "rules", None)
    entry = catalogue.get(rule_id) if catalogue is not None else None
    if entry is None:
        return None
    fields = ("id", "page", "text", "reading", "departs_from", "citation")
    return {**{name: getattr(entry, name, "") for name in fields}, "section": entry.heading}


def served_rulesets() -> list[str]:
    """The rulesets this server plays: the built-in ones (those of the committed openapi.yaml)
    and any that $CHRONICLE_RULESET_MODULES or the process registered."""
    import_rulesets_once()
    return sorted(set(built_in()) | set(ruleset_names()))


def documented_events(names: Sequence[str]) -> list[type[Event]]:
    """The kernel's and the table's events, and each ruleset's own."""
    found = [cls for cls in registered_event_classes() if cls.__module__.startswith("domain.core")]
    for name in names:
        found += ruleset(name).event_types()
    return found


def refused_pairs(name: str) -> list[tuple[tuple[str, Any], tuple[str, Any]]]:
    """The pairs of option values the ruleset refuses together (asked of its own check, each
    pair with every other option at its default), so that the document says so and a
    schema-valid game is not refused for its options."""
    rules = ruleset(name)
    values = {
        option["name"]: option["allowed"]
        or ([False, True] if option["type"] == "boolean" else [option["default"]])
        for option in rules.describe()["options"]
    }
    refused = []
    for a, b in itertools.combinations(sorted(values), 2):
        for va, vb in itertools.product(values[a], values[b]):
            try:
                rules.check_options({a: va, b: vb})
            except InvalidOptions:
                refused.append(((a, va), (b, vb)))
    return refused
