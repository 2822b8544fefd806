"""Rulesets bound to their data packs, built once per process."""

from __future__ import annotations

import importlib
import os
import threading
from typing import Any

from domain.core.ruleset import Ruleset, find_ruleset, ruleset_names

# Modules whose import registers rulesets. Each ruleset's package registers itself.
RULESET_MODULES: tuple[str, ...] = ("domain.hotw.editions.hotw_2024",)

_lock = threading.Lock()
_bound: dict[str, Ruleset[Any]] = {}


def import_rulesets() -> None:
    """Import the built-in rulesets and any named in $CHRONICLE_RULESET_MODULES (comma list)."""
    extra = [m.strip() for m in os.environ.get("CHRONICLE_RULESET_MODULES", "").split(",")]
    for module in (*RULESET_MODULES, *filter(None, extra)):
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


def load_pack(name: str) -> Any:
    from schemas.packs import load_pack as load

    return load(name)


def ruleset(name: str) -> Ruleset[Any]:
    """The registered ruleset `name`, bound to its loaded data pack."""
    bound = _bound.get(name)
    if bound is not None:
        return bound
    with _lock:
        if name not in _bound:
            import_rulesets()
            cls = find_ruleset(name)
            pack = load_pack(cls.data_pack) if cls.data_pack else None
            _bound[name] = cls(pack)
        return _bound[name]


def available() -> list[str]:
    import_rulesets()
    return ruleset_names()


def built_in() -> list[str]:
    """The rulesets Chronicle ships (not those added through $CHRONICLE_RULESET_MODULES or
    registered by tests): the ones its OpenAPI document describes."""
    import_rulesets()
    return [name for name in ruleset_names() if find_ruleset(name).__module__ in RULESET_MODULES]
