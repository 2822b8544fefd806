"""The ruleset protocol and the registry of rulesets (found by name, like chess variants).

A ruleset is a class: its name, player counts and declared options are class attributes; an
instance is bound to its loaded data pack (loading is I/O, so it happens outside `domain/`).
The kernel functions are its methods: `legal_actions`, `decide`, `evolve`; `replay` is the
kernel's (`domain.core.kernel.replay`).
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from domain.core.chance import Chance
from domain.core.errors import (
    IllegalAction,
    InvalidOptions,
    InvalidPlayerCount,
    RulesetRevisionUnavailable,
    UnknownRuleset,
)
from domain.core.messages import Command, Event, Seat, registered_event_classes
from domain.core.narration import Namer, action_words, fields_in_words, plain_words
from domain.core.strategy import Strategy

S = TypeVar("S")


@dataclass(frozen=True)
class OptionSpec:
    """An option a game is created with: its name, type, default and allowed values."""

    name: str
    kind: type
    default: Any
    description: str
    allowed: tuple[Any, ...] | None = None
    rule: str = ""
    """The rule id a refused value of this option cites (empty: the ruleset's options rule)."""

    def check(self, value: Any, rule: str) -> Any:
        rule = self.rule or rule
        if self.kind is bool and not isinstance(value, bool):
            raise InvalidOptions(
                f"option {self.name!r} must be true or false", rule, {"option": self.name}
            )
        if self.kind is int and (not isinstance(value, int) or isinstance(value, bool)):
            raise InvalidOptions(
                f"option {self.name!r} must be a whole number", rule, {"option": self.name}
            )
        if self.kind is str and not isinstance(value, str):
            raise InvalidOptions(
                f"option {self.name!r} must be a string", rule, {"option": self.name}
            )
        if self.allowed is not None and value not in self.allowed:
            raise InvalidOptions(
                f"option {self.name!r} must be one of {list(self.allowed)}",
                rule,
                {"option": self.name, "allowed": list(self.allowed)},
            )
        return value

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": KINDS.get(self.kind, self.kind.__name__),
            "default": self.default,
            "allowed": list(self.allowed) if self.allowed is not None else None,
            "description": self.description,
        }


@dataclass(frozen=True)
class ArgSpec:
    """One argument of a command: its name, type and, where the ruleset knows them, the values
    it may take (ids from the data pack). Pure data: the API's schemas are built from it."""

    name: str
    kind: type
    description: str
    allowed: tuple[Any, ...] | None = None
    required: bool = True
    minimum: int | None = None

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": KINDS.get(self.kind, self.kind.__name__),
            "description": self.description,
            "allowed": list(self.allowed) if self.allowed is not None else None,
            "required": self.required,
            "minimum": self.minimum,
        }

    def misfit(self, value: Any) -> str | None:
        """Why `value` does not fit this argument's schema (None: it fits): its JSON type, the
        values allowed, the least value."""
        if type(value) is not self.kind:
            return f"Not a valid {KINDS.get(self.kind, self.kind.__name__)}."
        if self.allowed is not None and value not in self.allowed:
            shown = ", ".join(map(repr, self.allowed[:6])) + (
                ", ..." if len(self.allowed) > 6 else ""
            )
            return f"Not one of the {len(self.allowed)} values `{self.name}` takes ({shown})."
        if self.minimum is not None and isinstance(value, int) and value < self.minimum:
            return f"Must be at least {self.minimum}."
        return None


@dataclass(frozen=True)
class CommandSpec:
    """A command type a seat may post: its `type` and its arguments (a legal action is one)."""

    type: str
    description: str
    args: tuple[ArgSpec, ...] = ()

    def describe(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "description": self.description,
            "args": [arg.describe() for arg in self.args],
        }

    def misfits(self, body: Mapping[str, Any]) -> dict[str, str]:
        """Why a command body of this type breaks its schema, by argument (empty: it fits): a
        required argument missing, one of the wrong type or value, or one it does not take."""
        found: dict[str, str] = {}
        for arg in self.args:
            if arg.name in body:
                misfit = arg.misfit(body[arg.name])
                if misfit is not None:
                    found[arg.name] = misfit
            elif arg.required:
                found[arg.name] = "Missing data for required field."
        taken = {arg.name for arg in self.args}
        for name in body:
            if name != "type" and name not in taken:
                found[str(name)] = f"Unknown field: `{self.type}` takes no `{name}`."
        return found


def command_misfits(specs: Mapping[str, CommandSpec], body: Mapping[str, Any]) -> dict[str, str]:
    """Why a command body breaks the schema of its type among `specs` (by type), by field
    (empty: it fits): an unknown `type`, or its type's `CommandSpec.misfits`."""
    kind = body.get("type")
    spec = specs.get(kind) if isinstance(kind, str) else None
    if spec is None:
        known = ", ".join(sorted(specs))
        return {"type": f"Unknown command type {kind!r}: one of {known}."}
    return spec.misfits(body)


KINDS: dict[type, str] = {bool: "boolean", int: "integer", str: "string"}


@dataclass(frozen=True)
class Revision:
    """One revision of a ruleset's rules: every game is decided, folded and scored under the
    revision it was created with, forever. A change that alters a decision, a fold or a score
    adds a revision (README: "Changing a rule")."""

    number: int
    summary: str
    rules: tuple[str, ...] = ()
    """The rules-catalogue ids whose reading changed with this revision."""

    def describe(self) -> dict[str, Any]:
        return {"revision": self.number, "summary": self.summary, "rules": list(self.rules)}


FIRST_REVISION = Revision(1, "The rules as first recorded.")


@dataclass(frozen=True)
class Setup:
    """What a game is created with; fixed for its whole life."""

    ruleset: str
    players: tuple[str, ...]
    options: Mapping[str, Any]
    seed_commitment: str
    revision: int = 1
    """The revision of the ruleset's rules the game is played under."""
    pack_digest: str = ""
    """SHA-256 of the data pack the game was created with (empty: the ruleset has none, or the
    game was created before digests were recorded)."""

    @property
    def seats(self) -> range:
        return range(len(self.players))


@dataclass(frozen=True, slots=True)
class Decision(Generic[S]):
    """The events a command produces and, when the ruleset has it at hand, the state they
    lead to (exactly the fold of the events onto the state decided on)."""

    events: list[Event]
    state: S | None = None


class Ruleset(ABC, Generic[S]):
    """A rule system. Subclass, set the class attributes, implement the kernel methods."""

    name: ClassVar[str]
    title: ClassVar[str]
    player_counts: ClassVar[tuple[int, ...]]
    options: ClassVar[tuple[OptionSpec, ...]] = ()
    data_pack: ClassVar[str | None] = None
    turn_rule: ClassVar[str]
    """Rule id cited when a seat acts out of turn."""
    end_rule: ClassVar[str]
    """Rule id cited when anything is played after the game has ended."""
    setup_rule: ClassVar[str]
    """Rule id cited for refused player counts (and options, when `options_rule` is empty)."""
    setup_cites: ClassVar[tuple[str, ...]] = ()
    """Rule ids that fix the state a game starts in (cited by GameCreated)."""
    options_rule: ClassVar[str] = ""
    """Rule id cited for unknown or ill-typed options (an option may name its own rule)."""
    chance_rule: ClassVar[str] = ""
    die_sides: ClassVar[int] = 6
    """The faces of the ruleset's die: a sandbox's scripted faces are 1 to this."""
    """Rule id cited when the chance seed is revealed (the end rule when empty)."""
    undo_rule: ClassVar[str] = ""
    seat_rule: ClassVar[str] = ""
    """The catalogue's reading of seats at a Chronicle table: claimed, played by a bot, resigned
    or timed out (what a resigned seat's pieces do); "" falls back on `turn_rule`."""
    """Rule id cited by undo and rewind (the table procedure; the turn rule when empty)."""
    revisions: ClassVar[tuple[Revision, ...]] = (FIRST_REVISION,)
    """Every revision of the rules, oldest first, numbered 1, 2, 3 …; new games get the last."""

    def __init__(self, pack: Any = None) -> None:
        self.pack = pack
        self.revision = self.newest_revision()
        """The revision this instance decides, folds and scores by (`at_revision`)."""
        self.pack_digest = ""
        """SHA-256 of the data pack it was bound to (set by whoever loaded the pack)."""
        self._at_revision: dict[int, Ruleset[S]] = {self.revision: self}

    @classmethod
    def newest_revision(cls) -> int:
        return cls.revisions[-1].number

    @classmethod
    def revision_numbers(cls) -> tuple[int, ...]:
        return tuple(r.number for r in cls.revisions)

    def at_revision(self, revision: int) -> Ruleset[S]:
        """This ruleset bound to an earlier (or its own) revision: the same pack, with every
        revision gate (`since`) answering for `revision`. Refuses a revision it does not have."""
        found = self._at_revision.get(revision)
        if found is not None:
            return found
        if revision not in self.revision_numbers():
            raise RulesetRevisionUnavailable(self.name, revision, self.revision_numbers())
        bound = copy.copy(self)
        bound.revision = revision
        bound.pack = self.pack_at(revision)
        bound._at_revision = self._at_revision
        bound.bound_to_revision()
        self._at_revision[revision] = bound
        return bound

    def since(self, revision: int) -> bool:
        """Whether a rule introduced at `revision` holds in this game (a revision gate)."""
        return self.revision >= revision

    def pack_at(self, revision: int) -> Any:
        """The data pack in force at `revision` (override where a revision froze a copy of
        data that changed later; by default the pack is the same for every revision)."""
        return self.pack

    def bound_to_revision(self) -> None:
        """Called on a copy bound to another revision (override to drop caches built for the
        revision it was copied from)."""

    # --- creation -------------------------------------------------------------------------

    def check_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Declared options with defaults filled in; unknown or ill-typed ones refused."""
        specs = {spec.name: spec for spec in self.options}
        unknown = sorted(set(given) - set(specs))
        rule = self.options_rule or self.setup_rule
        if unknown:
            raise InvalidOptions(
                f"unknown option(s) {unknown} for {self.name}",
                rule,
                {"unknown": unknown, "known": sorted(specs)},
            )
        chosen = {name: spec.default for name, spec in specs.items()}
        for name, value in given.items():
            chosen[name] = specs[name].check(value, rule)
        self.check_option_combination(chosen)
        return chosen

    def event_types(self) -> tuple[type[Event], ...]:
        """The ruleset's own event types, as the API documents them (by default those defined
        beside the ruleset class or a class it derives from; the kernel's and the table's are
        everybody's)."""
        homes = {base.__module__ for base in type(self).__mro__} - {__name__, "abc", "typing"}
        return tuple(cls for cls in registered_event_classes() if cls.__module__ in homes)

    def out_of_turn_rule(self, command: Command) -> str:
        """The rule id cited when a seat the game is not waiting for sends `command` (a rule of
        the command's own may say more than the turn rule)."""
        return self.turn_rule

    def check_option_combination(self, options: Mapping[str, Any]) -> None:
        """Refuse combinations of options the rules do not allow (override where needed)."""

    def check_players(self, players: Sequence[str]) -> None:
        if len(players) not in self.player_counts:
            raise InvalidPlayerCount(
                f"{self.title} is played by {self._counts_text()} players, not {len(players)}",
                self.setup_rule,
                {"players": len(players), "allowed": list(self.player_counts)},
            )

    def _counts_text(self) -> str:
        counts = sorted(self.player_counts)
        if counts == list(range(counts[0], counts[-1] + 1)):
            return f"{counts[0]}–{counts[-1]}"
        return ", ".join(map(str, counts))

    @abstractmethod
    def initial_state(self, setup: Setup) -> S:
        """The state before anything is set up (folded from the kernel's GameCreated)."""

    def set_up(self, state: S, chance: Chance) -> list[Event]:
        """The setting-up events that need chance (shuffles, random orders). None by default."""
        return []

    # --- play -----------------------------------------------------------------------------

    @abstractmethod
    def awaited_seats(self, state: S) -> frozenset[Seat]:
        """The seats the game waits for now (several at once for sealed, simultaneous choices)."""

    @abstractmethod
    def legal_actions(self, state: S, seat: Seat) -> Iterable[Command]:
        """Every legal action of `seat`, in a deterministic order. The single source of truth."""

    def is_legal(self, state: S, seat: Seat, command: Command) -> bool:
        """Whether `legal_actions` lists `command` (override only with a quicker way to the
        same answer: the list stays the single source of truth)."""
        return any(action == command for action in self.legal_actions(state, seat))

    @abstractmethod
    def decide(self, state: S, seat: Seat, command: Command, chance: Chance) -> list[Event]:
        """The events a legal command produces. Called only for commands `legal_actions` lists."""

    def decision(self, state: S, seat: Seat, command: Command, chance: Chance) -> Decision[S]:
        """`decide`, with the state its events lead to when the ruleset worked it out on the
        way (override where deciding evolves the state anyway; None: the kernel folds them)."""
        return Decision(self.decide(state, seat, command, chance))

    @abstractmethod
    def evolve(self, state: S, event: Event) -> S:
        """Apply one event. Never checks, never draws."""

    def refusal(self, state: S, seat: Seat, command: Command) -> Exception:
        """Why a command that `legal_actions` does not list is refused (override to be precise)."""
        return IllegalAction(
            f"{command.type!r} is not a legal action for seat {seat} now",
            self.turn_rule,
            {"command": command.as_dict()},
        )

    def undo_scope(self, state: S) -> Hashable:
        """What a seat's undo stays within: its current turn. Commands made under another
        scope cannot be undone (override with the ruleset's notion of a turn)."""
        return frozenset(self.awaited_seats(state))

    def system_action(self, state: S) -> Command | None:
        """A command the system must run now with no seat acting (e.g. closing an epoch)."""
        return None

    def decide_system(self, state: S, command: Command, chance: Chance) -> list[Event]:
        raise NotImplementedError(f"{self.name} has no system commands")

    def system_decision(self, state: S, command: Command, chance: Chance) -> Decision[S]:
        """`decide_system`, with the state its events lead to (as `decision`)."""
        return Decision(self.decide_system(state, command, chance))

    @abstractmethod
    def is_over(self, state: S) -> bool: ...

    def result(self, state: S) -> dict[str, Any]:
        """The result of a finished game, as
        `{"scores": [per seat], "ranking": [{"seat", "place", "score", ...}, best first; tied
        seats share a place], "tie_breaks": [what decided ties, in order], "details": {...}}`.
        """
        raise NotImplementedError(f"{self.name} does not report results")

    # --- views and snapshots ---------------------------------------------------------------

    @abstractmethod
    def view(self, state: S, viewer: Seat | None) -> dict[str, Any]:
        """The state as `viewer` may see it (None: a spectator). Hides what the viewer may not."""

    @abstractmethod
    def summary(self, state: S) -> dict[str, Any]:
        """Public facts for game lists: phase, current seat(s), round or epoch."""

    @abstractmethod
    def encode_state(self, state: S) -> Any:
        """A JSON-able form of the whole state, for snapshots."""

    @abstractmethod
    def decode_state(self, data: Any) -> S: ...

    # --- hooks for the tools around the rules (selfplay, bots, drawings, conformance kit) -----

    def invariant_failures(self, state: S) -> list[str]:
        """What is wrong with `state` by the ruleset's own bookkeeping (pieces and gold
        conserved, ...), in words; empty when nothing is (selfplay and the conformance kit
        check it after every event)."""
        return []

    def data_used(self, event_type: str, data: Mapping[str, Any]) -> list[dict[str, Any]]:
        """What of the data pack an event used (given its data as the caller sees it): each
        card, land or number with its provenance, printed in the rulebook or reconstructed
        (`{what, id, name, provenance, printed, reconstructed}`). Empty by default."""
        return []

    def draw_board(self, state: S, viewer: Seat | None) -> str | None:
        """An SVG picture (a whole SVG document) of the table as `viewer` may see it (None: a
        spectator); drawn from `initial_state`, the bare board. None: the ruleset draws
        nothing."""
        return None

    def names(self) -> Mapping[str, str]:
        """The name people read for each id the ruleset's commands and events name (lands,
        cards, ...), from its data pack. Empty by default: ids are shown as they are."""
        return {}

    def card_texts(self) -> Mapping[str, str]:
        """What each card (or tile, token) a player may hold says, in a line of our own words,
        by its id: the web table shows a hand as cards with their text. Empty by default."""
        return {}

    def empires_in_play(self, state: S) -> Mapping[int, str]:
        """The Empire each seat plays at this moment, by its name, as everyone may see it
        (keyed by colour where the ruleset's events name colours): the log says whose Empire
        fought or took a land. Empty by default (a game without Empires)."""
        return {}

    def narrate(
        self,
        event: Mapping[str, Any],
        players: Sequence[str],
        empires: Mapping[int, str] | None = None,
    ) -> str:
        """An event, as a viewer sees it (its envelope: `type`, `data`, `actor`, `redacted`),
        told in a sentence for people following the game. By default the kernel's events in
        words of their own, any other as its type and data in words (`names` for ids).
        `empires`: `empires_in_play` of the state the event happened in."""
        namer = Namer(players, self.names(), empires=empires)
        return plain_words(event, players, self.names(), namer=namer)

    def data_words(self, event: Mapping[str, Any], players: Sequence[str]) -> list[dict[str, str]]:
        """Each field of an event's data as `{label, value}` in words (seats by their players,
        ids by their names): the inputs Explain shows."""
        return fields_in_words(event, Namer(players, self.names()))

    def action_words(
        self, state: S, command: Mapping[str, Any], players: Sequence[str]
    ) -> tuple[str, str]:
        """A legal action in words for its button: the whole sentence and the part after its
        type (ids by their names, seats by their players)."""
        return action_words(command, Namer(players, self.names()))

    def strategy(self) -> Strategy[S] | None:
        """What a one-move-ahead bot needs beyond the kernel functions to play this ruleset
        well (`domain.core.strategy.Strategy`; None: bots play from `legal_actions` alone)."""
        return None

    def command_schemas(self) -> tuple[CommandSpec, ...]:
        """Every command type a seat of this ruleset may post, with its arguments: what its
        `legal_actions` can list, as data (the API documents and types commands with it; the
        kernel's table commands, undo and rewinds, are `domain.core.table.TABLE_COMMAND_SPECS`).
        Empty: the ruleset does not describe its commands (the API then documents them as any
        `type` with any arguments)."""
        return ()

    @classmethod
    def describe(cls) -> dict[str, Any]:
        return {
            "name": cls.name,
            "title": cls.title,
            "player_counts": list(cls.player_counts),
            "options": [spec.describe() for spec in cls.options],
            "revision": cls.newest_revision(),
            "revisions": [r.describe() for r in cls.revisions],
        }


_REGISTRY: dict[str, type[Ruleset[Any]]] = {}


def register_ruleset(cls: type[Ruleset[Any]]) -> type[Ruleset[Any]]:
    if cls.name in _REGISTRY and _REGISTRY[cls.name] is not cls:
        raise ValueError(f"ruleset {cls.name} registered twice")
    _REGISTRY[cls.name] = cls
    return cls


def find_ruleset(name: str) -> type[Ruleset[Any]]:
    try:
        return _REGISTRY[name]
    except KeyError:
        raise UnknownRuleset(name) from None


def ruleset_names() -> list[str]:
    return sorted(_REGISTRY)
