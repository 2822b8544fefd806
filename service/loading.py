"""Loading a game: the ruleset bound to its revision, then the state this process holds (an
LRU cache by version) or the latest usable snapshot, plus the events after it, folded; and
writing snapshots. What a game's status is, from its state."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from domain.core.kernel import Game, NeedsEarlierBase, replay
from domain.core.messages import Command, Recorded
from domain.core.ruleset import Ruleset
from domain.core.seated import is_over
from service.codec import canonical_json, decode_game, encode_game, recorded_from, state_hash
from store.errors import GameNotFound
from store.records import Snapshot
from store.redis_store import EventStore

TAIL_CHEAPER_THAN_SNAPSHOT = 48
"""Events a process folds rather than load a newer snapshot: reading and folding one costs
about 16 µs, loading a mid-game snapshot about 0.7 ms."""
MAX_SYSTEM_STEPS = 100
UNSTARTED_MAX_EVENTS = 200
"""A game with more events than this is taken as started without reading them."""


class StateCache:
    """The latest known game of each recently used game id, evicted least-recently-used."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._games: OrderedDict[str, Game[Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> Game[Any] | None:
        with self._lock:
            game = self._games.get(game_id)
            if game is not None:
                self._games.move_to_end(game_id)
            return game

    def clear(self) -> None:
        with self._lock:
            self._games.clear()

    def drop(self, game_id: str) -> None:
        with self._lock:
            self._games.pop(game_id, None)

    def put(self, game_id: str, game: Game[Any]) -> None:
        with self._lock:
            current = self._games.get(game_id)
            if current is not None and current.version > game.version:
                return
            self._games[game_id] = game
            self._games.move_to_end(game_id)
            while len(self._games) > self.size:
                self._games.popitem(last=False)


class VersionOutOfRange(Exception):
    def __init__(self, version: int, current: int) -> None:
        super().__init__(f"version {version} is outside 1..{current}")
        self.version = version
        self.current = current


def system_step(rules: Ruleset[Any], game: Game[Any]) -> Command | None:
    """The step no seat takes that the game waits for (None: none, or the game is over)."""
    return None if is_over(rules, game) else rules.system_action(game.state)


def status_of(rules: Ruleset[Any], game: Game[Any]) -> str:
    """`finished`, `closing` while a step no seat takes is due (e.g. an epoch closing; seats
    get 409 game_busy meanwhile), else `active`."""
    if is_over(rules, game):
        return "finished"
    if game.seating is not None and not game.seating.started:
        return "open"
    return "closing" if system_step(rules, game) is not None else "active"


def meta_of(rules: Ruleset[Any], game: Game[Any]) -> dict[str, Any]:
    started = game.seating is None or game.seating.started
    return {
        "awaiting": sorted(rules.awaited_seats(game.state)) if started else [],
        "seed_revealed": game.seed_revealed is not None,
    }


class GameLoader:
    """A game's ruleset and state, from the store (and this process's cache of states); and
    the games nobody started, let go of."""

    status_of = staticmethod(status_of)
    meta_of = staticmethod(meta_of)
    _system_step = staticmethod(system_step)

    def __init__(
        self,
        store: EventStore,
        rulesets: Callable[[str], Ruleset[Any]],
        cache: StateCache | None = None,
    ) -> None:
        self.store = store
        self.rulesets = rulesets
        self.cache = cache or StateCache()

    def ruleset_of(self, game_id: str) -> Ruleset[Any]:
        """The game's ruleset, bound to the revision the game was created under (a game from
        before revisions were recorded is of revision 1)."""
        meta = self.store.meta(game_id)
        revision = meta.extra.get("revision")
        if revision is None:  # not in the game's meta: its GameCreated says
            first = self.store.read(game_id, 1, 1)
            created = recorded_from(first[0]).event if first else None
            revision = getattr(created, "revision", 1)
        return self.rules_at(meta.ruleset, int(revision))

    def rules_at(self, name: str, revision: int) -> Ruleset[Any]:
        """Ruleset `name` at `revision` (RulesetRevisionUnavailable if this server lacks it)."""
        return self.rulesets(name).at_revision(revision)

    def rules_of(self, game: Game[Any]) -> Ruleset[Any]:
        return self.rules_at(game.setup.ruleset, game.setup.revision)

    def load(self, game_id: str) -> tuple[Ruleset[Any], Game[Any]]:
        """The current game: cached or snapshot state, plus the events after it."""
        cached = self.cache.get(game_id)
        if cached is not None:
            rules = self.rules_of(cached)
            tail = [recorded_from(s) for s in self.store.read(game_id, cached.version + 1)]
            try:
                game = replay(rules, tail, cached) if tail else cached
            except NeedsEarlierBase:
                game = self._load_from_snapshot(rules, game_id, None)
        else:
            rules = self.ruleset_of(game_id)
            game = self._load_from_snapshot(rules, game_id, None)
        self.cache.put(game_id, game)
        return rules, game

    def load_at(self, game_id: str, version: int) -> tuple[Ruleset[Any], Game[Any]]:
        """The game as it stood after event `version`."""
        rules = self.ruleset_of(game_id)
        current = self.store.version(game_id)
        if version < 1 or version > current:
            raise VersionOutOfRange(version, current)
        return rules, self._load_from_snapshot(rules, game_id, version)

    def _load_from_snapshot(
        self,
        rules: Ruleset[Any],
        game_id: str,
        at: int | None,
        pending: tuple[Recorded, ...] = (),
        newest: tuple[int, set[int]] | None = None,
    ) -> Game[Any]:
        """The game after `at` (None: all stored events, then `pending` ones not yet stored),
        from the latest usable snapshot. A snapshot taken inside a range that a later undo or
        rewind took back cannot serve: the load then starts from an earlier one. `newest`: the
        newest snapshot's version and the untrusted versions, when the caller has read them."""
        bound = at
        first, untrusted = newest if newest is not None else (None, None)
        while True:
            if first is not None:
                snapshot, first = self.store.snapshot(game_id, first), None
            else:
                snapshot = self.store.latest_snapshot(game_id, bound)
            if snapshot is not None:
                untrusted = (
                    self.store.untrusted_snapshots(game_id) if untrusted is None else untrusted
                )
                if snapshot.version in untrusted:
                    bound = snapshot.version - 1
                    continue
            base = self._game_from_snapshot(rules, game_id, snapshot) if snapshot else None
            start = base.version + 1 if base else 1
            tail = [recorded_from(s) for s in self.store.read(game_id, start, at)]
            if base is None and not tail:
                raise GameNotFound(game_id)
            try:
                return replay(rules, [*tail, *pending], base)
            except NeedsEarlierBase as earlier:
                bound = earlier.version - 1

    def _game_from_snapshot(
        self, rules: Ruleset[Any], game_id: str, snapshot: Snapshot
    ) -> Game[Any] | None:
        """Snapshots are a cache: one whose hash does not match its own content is ignored."""
        body = json.loads(snapshot.state)
        if state_hash(body) != snapshot.state_hash:
            return None
        return decode_game(rules, body)

    def events(
        self,
        game_id: str,
        from_version: int = 1,
        to_version: int | None = None,
        limit: int | None = None,
    ) -> list[Recorded]:
        self.store.meta(game_id)
        return [recorded_from(s) for s in self.store.read(game_id, from_version, to_version, limit)]

    # --- acting ---------------------------------------------------------------------------
    def system_step_due(self, game_id: str) -> bool:
        """Whether the game waits for a step no seat takes (e.g. closing an epoch)."""
        rules, game = self.load(game_id)
        return system_step(rules, game) is not None

    def _load_newest(self, game_id: str) -> tuple[Ruleset[Any], Game[Any], int | None]:
        """The current game, from its newest snapshot when that is further ahead of the state
        this process holds than folding the events between is cheap; and the version of that
        snapshot, None if it is marked untrusted."""
        newest = self.store.newest_snapshot_version(game_id)
        untrusted = self.store.untrusted_snapshots(game_id) if newest is not None else set()
        usable = None if newest is None or newest in untrusted else newest
        cached = self.cache.get(game_id)
        if (
            usable is None
            or cached is None
            or usable - cached.version <= TAIL_CHEAPER_THAN_SNAPSHOT
        ):
            return *self.load(game_id), usable
        rules = self.rules_of(cached)
        game = self._load_from_snapshot(rules, game_id, None, newest=(usable, untrusted))
        self.cache.put(game_id, game)
        return rules, game, usable

    def _state_after(self, game_id: str, version: int) -> Game[Any]:
        """The game as this process's own append left it at `version` (read again only if the
        cache has let it go since)."""
        cached = self.cache.get(game_id)
        if cached is not None and cached.version == version:
            return cached
        return self.load_at(game_id, version)[1]

    # --- snapshots ------------------------------------------------------------------------

    def write_snapshot(self, game_id: str, version: int | None = None) -> int:
        rules, game = self.load(game_id) if version is None else self.load_at(game_id, version)
        return self.save_snapshot(rules, game_id, game)

    def save_snapshot(self, rules: Ruleset[Any], game_id: str, game: Game[Any]) -> int:
        body = encode_game(rules, game)
        self.store.save_snapshot(game_id, game.version, canonical_json(body), state_hash(body))
        return game.version

    def expire_unstarted(self, ttl_s: float, now: float, limit: int = 500) -> list[str]:
        """Delete the games created more than `ttl_s` ago that no seat ever acted in (only the
        creation's events, and steps the system took, in their logs); returns their ids. A game
        a seat has acted in is never deleted: it leaves the list of candidates, and a command
        appended while this runs keeps its game (the delete checks the version it read)."""
        expired: list[str] = []
        started: list[str] = []
        self.store.ensure_indexed()  # games made before the unstarted list are put on it
        for game_id in self.store.unstarted_before(now - ttl_s, limit):
            try:
                version = self.store.version(game_id)
            except GameNotFound:
                started.append(game_id)  # gone already: nothing to keep on the list
                continue
            if self._a_seat_acted(game_id, version):
                started.append(game_id)
            elif self.store.expire_game(game_id, version):
                self.cache.drop(game_id)
                expired.append(game_id)
        self.store.forget_unstarted(*started)
        return expired

    def _a_seat_acted(self, game_id: str, version: int) -> bool:
        """Whether any event of the game was recorded for a seat's command (or its log is too
        long to tell cheaply, which counts as acted: never expire on a guess)."""
        if version > UNSTARTED_MAX_EVENTS:
            return True
        return any(
            isinstance(stored.decoded().get("actor"), int)
            for stored in self.store.read(game_id, 1, version)
        )
