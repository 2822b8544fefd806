"""Where a command's CPU goes, by the layers it passes through: each layer's function wrapped
with a process-time counter (a microsecond's overhead a call, against cProfile's several-fold
inflation of call-heavy code), for `python -m bench.profile_command --sections`."""

from __future__ import annotations

import functools
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib import import_module
from typing import Any

SECTIONS = (
    ("flask.testing:FlaskClient.open", "the request, test client included"),
    ("flask.app:Flask.wsgi_app", "Flask (routing, hooks, the answer's encoding)"),
    ("flask.app:Flask.dispatch_request", "the view"),
    ("flask.app:Flask.preprocess_request", "before-request hooks"),
    ("flask.app:Flask.make_response", "the answer made a response (JSON encoding)"),
    ("flask.app:Flask.process_response", "after-request hooks (security headers)"),
    ("service.access:Access.seat_to_confirm", "the seat's token"),
    ("api.games:json_body", "the body read and loaded by its schema"),
    ("service.games:GameService.play", "the service's play"),
    ("service.games:decision", "the rules' decision"),
    ("service.games:GameService._append", "recording the events and appending them"),
    ("service.games:fold_decided", "folding the new events"),
    ("service.games:stored_payload", "each event's stored JSON"),
    ("store.redis_store:pack_event", "each event deflated"),
    ("store.redis_store:EventStore.append", "the store's append"),
    ("redis.commands.core:Script.__call__", "the Lua append through redis-py (fsync waited)"),
    ("service.subscribers:schedule_steps", "the steps due (inline: closing epochs)"),
    ("api.games:seen_events", "the events as the seat sees them"),
)
"""(module:attribute path, what it is), outermost first."""


@contextmanager
def counted() -> Iterator[Counter[str]]:
    """Counts CPU seconds into each section while the block runs, then restores them."""
    spent: Counter[str] = Counter()
    restored: list[Callable[[], None]] = []
    for path, what in SECTIONS:
        module_name, _, dotted = path.partition(":")
        owner: Any = import_module(module_name)
        *parents, name = dotted.split(".")
        for parent in parents:
            owner = getattr(owner, parent)
        original = owner.__dict__[name]
        setattr(owner, name, _timed(original, what, spent))
        restored.append(functools.partial(setattr, owner, name, original))
    try:
        yield spent
    finally:
        for restore in reversed(restored):
            restore()


def _timed(original: Any, what: str, spent: Counter[str]) -> Any:
    function = original.__func__ if isinstance(original, staticmethod) else original

    @functools.wraps(function)
    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent[what] += time.process_time() - started

    return staticmethod(timed) if isinstance(original, staticmethod) else timed


def table(spent: Counter[str], commands: int) -> list[str]:
    """One line per section: its CPU milliseconds a command."""
    return [
        f"{1000 * spent[what] / max(commands, 1):7.3f} ms  {what}"
        for _, what in SECTIONS
        if what in spent
    ]
