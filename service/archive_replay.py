"""Re-deciding an archived game in memory, entry by entry (docs/archive-format.md): the game's
creation from its setup and seed, each seat's command as its index among that seat's legal
actions, the steps no seat takes, undos, the seed's reveal, and what none of them re-decides as
a literal copy of its events. The encoder takes the same path as the decoder, so a record is
written only when its entries re-decide the log it was made from."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from domain.core.chance import Chance, ScriptedChance
from domain.core.kernel import (
    Game,
    NeedsEarlierBase,
    SeedRevealed,
    creation_events,
    decision,
    fold_decided,
    replay,
)
from domain.core.messages import SYSTEM, WORKER, Actor, Command, Event, Recorded, plain_value
from domain.core.ruleset import Ruleset
from service import chance as chance_source
from service.archive_bytes import ArchiveRefused, iso_of
from service.codec import canonical_json
from service.loading import system_step

SEAT_IMPLIED, SEAT_NAMED, OP = 0, 1, 2
"""An entry's kind, the low two bits of its head: a legal action of the one awaited seat, a
legal action of a named seat, or an operation (the head's other bits: the index, or the op)."""
CREATE, WORKER_STEP, SYSTEM_STEP, UNDO, REVEAL, REVEAL_EARLY, LITERAL, CREATE_THEN = range(8)
LAST_OP = CREATE_THEN
WITH_LITERAL = frozenset({LITERAL, CREATE_THEN})
"""The ops followed by a literal (CREATE_THEN: the creation, then events it does not decide,
such as a table's TableOpened, kept literally)."""
UNDO_COMMAND = Command.of("undo")


@dataclass(frozen=True)
class Setting:
    """What a record keeps of a game's setup."""

    ruleset: str
    revision: int
    pack_digest: str
    players: tuple[str, ...]
    options: Mapping[str, Any]
    seed: bytes
    start: int
    """`recorded_at` of the game's first event, in whole seconds since 1970."""
    events: int


@dataclass(frozen=True)
class Entry:
    """One command of the log: `kind`, `value` (an index or an op), the seat it names (if
    any), a literal command's JSON, and when it was recorded (whole seconds since 1970)."""

    kind: int
    value: int
    seat: int | None
    literal: str
    seconds: int

    @staticmethod
    def names_seat(kind: int, value: int) -> bool:
        return kind == SEAT_NAMED or (kind == OP and value == UNDO)


Decided = tuple[Actor, list[Event], Any]


class Redecision:
    """A game re-decided in memory: its ruleset at its revision, the game so far and its log
    as served once archived."""

    def __init__(self, rules: Ruleset[Any], setting: Setting) -> None:
        self.rules = rules
        self.setting = setting
        self.game: Game[Any] | None = None
        self.history: list[Recorded] = []
        self.log: list[dict[str, Any]] = []
        self._legal: dict[int, list[Command]] = {}
        self.boundaries: list[Game[Any]] = []
        """The game after each command so far (an undo folds from the one before it)."""
        self._attempted: tuple[Entry, Decided] | None = None
        self.learned: dict[str, set[str]] = {}
        """Event type → the command types whose first event it was so far (the encoder tries
        those first: a command's first event nearly always tells its type)."""

    def attempt(self, entry: Entry) -> list[dict[str, Any]] | None:
        """The served events `entry` would add (None when the rules refuse it), taking
        nothing."""
        try:
            decided = self.decided(entry)
        except Exception:  # a candidate the rules refuse or cannot decide is simply not it
            return None
        self._attempted = (entry, decided)
        return [r.as_dict() for r in self.recorded(decided[0], decided[1], entry.seconds)]

    def commit(self, entry: Entry) -> None:
        """Decide `entry` on the game so far, append its events and fold them."""
        attempted, self._attempted = self._attempted, None
        actor, events, state = (
            attempted[1] if attempted and attempted[0] == entry else self.decided(entry)
        )
        if not events:
            raise ArchiveRefused("an entry that decides no event")
        if entry.kind != OP and self.game is not None:
            seat = entry.seat if entry.seat is not None else self.implied_seat(self.game)
            chosen = self.legal(self.game, seat)[entry.value].type
            self.learned.setdefault(events[0].type, set()).add(chosen)
        self._legal = {}
        recorded = self.recorded(actor, events, entry.seconds)
        self.history += recorded
        self.game = self.folded(recorded, state)
        self.boundaries.append(self.game)
        self.log += [r.as_dict() for r in recorded]

    def recorded(self, actor: Actor, events: Sequence[Event], seconds: int) -> list[Recorded]:
        first = len(self.log) + 1
        at = iso_of(seconds)
        return [Recorded(first + i, e, actor, f"v{first}", at) for i, e in enumerate(events)]

    def folded(self, recorded: list[Recorded], state: Any) -> Game[Any]:
        if self.game is None:
            return replay(self.rules, recorded)
        try:
            return fold_decided(self.rules, self.game, recorded, state)
        except NeedsEarlierBase as taken_back:  # an undo: from the game before what it takes
            return self.refolded(taken_back.version)

    def refolded(self, version: int) -> Game[Any]:
        """The game after the whole history, folded from the game before `version` (or from
        before the earliest version some undo or rewind of the rest takes back)."""
        while True:
            base = self.game_before(version)
            if base is None:
                return replay(self.rules, self.history)
            try:
                return replay(self.rules, self.history[base.version :], base)
            except NeedsEarlierBase as earlier:
                version = min(earlier.version, base.version)

    def game_before(self, version: int) -> Game[Any] | None:
        """The game as it stood after the last command that ended before `version` (as the
        service folds an undo onto its latest snapshot before it)."""
        for game in reversed(self.boundaries):
            if game.version < version:
                return game
        return None

    def chance(self, game: Game[Any]) -> Chance:
        if game.chance_script is not None:
            return ScriptedChance(game.chance_script, game.draws)
        return Chance(chance_source.HmacSource(self.setting.seed), game.draws)

    def decided(self, entry: Entry) -> Decided:
        if entry.kind == OP and entry.value == CREATE:
            return self.created()
        if entry.kind == OP and entry.value == CREATE_THEN:
            actor, events, _ = self.created()
            return actor, events + literal_events(entry.literal)[1], None
        if entry.kind == OP and entry.value == LITERAL:
            return literal_events(entry.literal)
        game = self.game
        if game is None:
            raise ArchiveRefused("the record's first entry does not create the game")
        if entry.kind == OP:
            return self.operation(game, entry)
        seat = entry.seat if entry.seat is not None else self.implied_seat(game)
        legal = self.legal(game, seat)
        if entry.value >= len(legal):
            raise ArchiveRefused(f"seat {seat} has {len(legal)} legal actions, not {entry.value}")
        done = decision(self.rules, game, seat, legal[entry.value], self.chance(game))
        return seat, done.events, done.state

    def legal(self, game: Game[Any], seat: int) -> list[Command]:
        """The seat's legal actions in the game so far (listed once however often asked)."""
        known = self._legal.get(seat)
        if known is None:
            known = self._legal[seat] = list(self.rules.legal_actions(game.state, seat))
        return known

    def implied_seat(self, game: Game[Any]) -> int:
        awaited = sorted(self.rules.awaited_seats(game.state))
        if len(awaited) != 1:
            raise ArchiveRefused(f"an entry that names no seat while {awaited} are awaited")
        return int(awaited[0])

    def created(self) -> Decided:
        setting = self.setting
        chance = Chance(chance_source.HmacSource(setting.seed), 0)
        commitment = chance_source.commitment(setting.seed)
        events = creation_events(
            self.rules, setting.players, dict(setting.options), commitment, chance
        )
        # the pack's digest as the game recorded it (an edit since that changes no decision
        # changes the digest too)
        events[0] = replace(events[0], pack_digest=setting.pack_digest)  # type: ignore[call-arg]
        return SYSTEM, events, None

    def operation(self, game: Game[Any], entry: Entry) -> Decided:
        rules = self.rules
        if entry.value in (WORKER_STEP, SYSTEM_STEP):
            actor: Actor = WORKER if entry.value == WORKER_STEP else SYSTEM
            due = system_step(rules, game)
            if due is None:
                raise ArchiveRefused("a step no seat takes where none is due")
            done = decision(rules, game, actor, due, self.chance(game))
            return actor, done.events, done.state
        if entry.value == UNDO and entry.seat is not None:
            done = decision(rules, game, entry.seat, UNDO_COMMAND, self.chance(game))
            return entry.seat, done.events, done.state
        if entry.value in (REVEAL, REVEAL_EARLY):
            revealed = SeedRevealed(
                rule=rules.chance_rule or rules.end_rule,
                seed=self.setting.seed.hex(),
                early=entry.value == REVEAL_EARLY,
            )
            return SYSTEM, [revealed], None
        raise ArchiveRefused(f"an entry of unknown operation {entry.value}")


def literal_events(literal: str) -> Decided:
    """A literal command's actor and events, from its JSON."""
    try:
        body = json.loads(literal)
        actor = body["actor"]
        events = [
            Recorded.from_dict({**event, "version": 0, "actor": actor}).event
            for event in body["events"]
        ]
    except (ValueError, KeyError, TypeError) as exc:
        raise ArchiveRefused(f"a literal entry that is not a command's events: {exc}") from None
    return actor, events, None


# --- what an encoder tries, cheapest first ------------------------------------------------------


def candidates(
    redecision: Redecision, group: list[dict[str, Any]], seconds: int
) -> Iterator[Entry]:
    """The entries that may re-decide `group` (a command of the served log), likeliest first."""
    actor, first = group[0]["actor"], group[0]
    game = redecision.game
    if first["version"] == 1:
        yield Entry(OP, CREATE, None, "", seconds)
        decided = len(redecision.created()[1])
        if len(group) > decided:
            yield Entry(OP, CREATE_THEN, None, literal_of(group[decided:]), seconds)
        return
    if game is None:
        return
    if actor in (WORKER, SYSTEM):
        if first["type"] == "SeedRevealed":
            early = bool(first["data"].get("early"))
            yield Entry(OP, REVEAL_EARLY if early else REVEAL, None, "", seconds)
        else:
            yield Entry(OP, WORKER_STEP if actor == WORKER else SYSTEM_STEP, None, "", seconds)
        return
    if not isinstance(actor, int) or isinstance(actor, bool):
        return
    if first["type"] == "ActionsUndone":
        yield Entry(OP, UNDO, actor, "", seconds)
        return
    yield from legal_candidates(redecision, game, actor, group, seconds)


def legal_candidates(
    redecision: Redecision, game: Game[Any], seat: int, group: list[dict[str, Any]], seconds: int
) -> Iterator[Entry]:
    """The seat's legal actions as entries, those whose arguments the events mention most
    first (a command's events nearly always name what it chose)."""
    rules = redecision.rules
    if seat not in rules.awaited_seats(game.state):
        return
    implied = len(rules.awaited_seats(game.state)) == 1
    said = canonical_json([e.get("data") for e in group])
    legal = redecision.legal(game, seat)
    known = redecision.learned.get(group[0]["type"], set())
    ranked = sorted(
        range(len(legal)), key=lambda i: (legal[i].type not in known, -mentions(legal[i], said))
    )
    for index in ranked:
        if implied:
            yield Entry(SEAT_IMPLIED, index, None, "", seconds)
        else:
            yield Entry(SEAT_NAMED, index, seat, "", seconds)


def literal_of(group: list[dict[str, Any]]) -> str:
    """A command kept as its events (what no legal action, step or procedure re-decides)."""
    unstated = {"version", "actor", "command_id", "recorded_at"}
    events = [{k: v for k, v in e.items() if k not in unstated} for e in group]
    return canonical_json({"actor": group[0]["actor"], "events": events})


def mentions(command: Command, said: str) -> int:
    return sum(canonical_json(plain_value(value)) in said for _, value in command.args)
