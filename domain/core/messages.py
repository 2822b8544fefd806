"""Commands in, events out.

Commands are plain requests (`type` plus arguments) so that the legal-action list can be posted
back as it is. Events are frozen dataclasses named in the past tense, one type per fact
(contracts §2); their envelope carries the rule that produced them, who may see them, and the
chance draws they used.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar, dataclass_transform

from domain.core.chance import Draw
from domain.core.errors import EventSchemaUnavailable

Seat = int
"""A seat is the player's position at the table: 0 .. players-1."""

SYSTEM = "system"
WORKER = "worker"
Actor = int | str
"""Who issued a command: a seat, or `system` / `worker`."""


def frozen_value(value: Any) -> Any:
    """JSON values made hashable: lists become tuples, dicts become sorted item tuples."""
    if isinstance(value, list | tuple):
        return tuple(frozen_value(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((str(k), frozen_value(v)) for k, v in value.items()))
    return value


_SCALARS = frozenset({str, int, float, bool, type(None)})


def plain_value(value: Any) -> Any:
    """The JSON form of a value: tuples become lists, frozensets sorted lists."""
    if type(value) in _SCALARS:
        return value
    if isinstance(value, tuple | list):
        return [plain_value(v) for v in value]
    if isinstance(value, frozenset | set):
        return sorted(plain_value(v) for v in value)
    if isinstance(value, Mapping):
        return {str(k): plain_value(v) for k, v in value.items()}
    return value


@dataclass(frozen=True, slots=True)
class Command:
    """A request to act: its `type` and its arguments, hashable so it can be compared."""

    type: str
    args: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, type_: str, **args: Any) -> Command:
        return cls(type_, tuple(sorted((k, frozen_value(v)) for k, v in args.items())))

    @classmethod
    def from_dict(cls, body: Mapping[str, Any]) -> Command:
        """`{"type": "place_army", "land": "tigris"}` → Command. Any argument name is taken as
        data (not passed as a keyword, where `cls` or `type_` would collide)."""
        args = sorted((str(k), frozen_value(v)) for k, v in body.items() if k != "type")
        return cls(str(body["type"]), tuple(args))

    def arg(self, name: str, default: Any = None) -> Any:
        for key, value in self.args:
            if key == name:
                return value
        return default

    def as_dict(self) -> dict[str, Any]:
        return {"type": self.type, **{k: plain_value(v) for k, v in self.args}}


@dataclass(frozen=True, slots=True)
class Visibility:
    """Who may see an event. Private events show `redacted` to everyone else."""

    seats: frozenset[int] | None = None
    redacted: Mapping[str, Any] | None = None

    @property
    def is_public(self) -> bool:
        return self.seats is None

    def shows_to(self, viewer: int | None) -> bool:
        return self.seats is None or (viewer is not None and viewer in self.seats)

    def as_dict(self) -> dict[str, Any]:
        if self.seats is None:
            return {"scope": "public"}
        return {
            "scope": "private",
            "seats": sorted(self.seats),
            "redacted": plain_value(self.redacted or {}),
        }

    @classmethod
    def from_dict(cls, body: Mapping[str, Any]) -> Visibility:
        if body.get("scope", "public") == "public":
            return PUBLIC
        return cls(frozenset(body["seats"]), dict(body.get("redacted") or {}))


PUBLIC = Visibility()


def private_to(*seats: int, redacted: Mapping[str, Any] | None = None) -> Visibility:
    """Visible in full to `seats`; everyone else sees `redacted` (no draws)."""
    return Visibility(frozenset(seats), dict(redacted or {}))


ENVELOPE_FIELDS = frozenset({"rule", "visibility", "draws", "cites"})

E = TypeVar("E", bound="Event")
_EVENT_TYPES: dict[str, type[Event]] = {}
_UNQUALIFIED: dict[str, str] = {}
"""A family event's class name → its namespaced type name, for logs recorded before event
types were namespaced (read only; new events are stored under the namespaced name)."""
Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
_UPCASTERS: dict[tuple[str, int], Upcaster] = {}


@dataclass(frozen=True, kw_only=True, slots=True)
class Event:
    """Base of every event. Subclasses add their data fields and register with `@event`."""

    SCHEMA_VERSION: ClassVar[int] = 1
    FAMILY: ClassVar[str] = ""
    """The ruleset family whose vocabulary the event belongs to: its type is stored as
    `<family>.<ClassName>`, so two games may each have a `GameEnded` (empty: the kernel's)."""
    TYPE_NAME: ClassVar[str] = ""
    READS_BARE_NAMES: ClassVar[bool] = False
    """The family whose logs were recorded before event types were namespaced: a bare stored
    name (`ArmyPlaced`) reads as its event, whatever other family was imported first."""
    REVEALS_HIDDEN: ClassVar[bool] = False
    """A public event that turns a hidden item face up (an undo cannot go back past it)."""

    rule: str
    visibility: Visibility = PUBLIC
    draws: tuple[Draw, ...] = field(default=())
    cites: tuple[str, ...] = field(default=())
    """The other rules that decided the event, beside `rule` (e.g. the fort's die in an
    invasion the terrain tie frustrated); stored only when there are any."""

    @property
    def type(self) -> str:
        return self.TYPE_NAME or type(self).__name__

    def data(self) -> dict[str, Any]:
        return {name: plain_value(getattr(self, name)) for name in _data_fields(type(self))}


_DATA_FIELDS: dict[type[Event], tuple[str, ...]] = {}


def _data_fields(cls: type[Event]) -> tuple[str, ...]:
    """The names of an event type's own fields (those outside the envelope), in order."""
    names = _DATA_FIELDS.get(cls)
    if names is None:
        names = tuple(f.name for f in dataclasses.fields(cls) if f.name not in ENVELOPE_FIELDS)
        _DATA_FIELDS[cls] = names
    return names


@dataclass_transform(frozen_default=True, kw_only_default=True)
def event(cls: type[E]) -> type[E]:
    """Declare an event type: the one way, for every ruleset. It becomes a frozen, keyword-only,
    slotted dataclass and is registered under its name: the class name (past tense), namespaced
    by its ruleset family (`hotw.ArmyPlaced`); the kernel's own events are not namespaced."""
    if "__dataclass_fields__" not in cls.__dict__:
        cls = dataclass(frozen=True, kw_only=True, slots=True)(cls)
    name = f"{cls.FAMILY}.{cls.__name__}" if cls.FAMILY else cls.__name__
    if name in _EVENT_TYPES and _EVENT_TYPES[name] is not cls:
        raise ValueError(f"event type {name} registered twice")
    cls.TYPE_NAME = name
    _EVENT_TYPES[name] = cls
    if cls.FAMILY and cls.READS_BARE_NAMES:
        _UNQUALIFIED.setdefault(cls.__name__, name)
    return cls


def upcaster(type_name: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
    """Register the function that lifts a stored event's data from schema `from_version` to the
    next one (the one registry every reader goes through: `event_from_record`)."""

    def register(fn: Upcaster) -> Upcaster:
        if (type_name, from_version) in _UPCASTERS:
            raise ValueError(f"two upcasters of {type_name} from schema {from_version}")
        _UPCASTERS[(type_name, from_version)] = fn
        return fn

    return register


def upcasters() -> dict[tuple[str, int], Upcaster]:
    """Every registered upcaster, by (event type, schema version it reads)."""
    return dict(_UPCASTERS)


def upcast(cls: type[Event], data: Mapping[str, Any], version: int) -> dict[str, Any]:
    """Stored data of schema `version` lifted to `cls`'s current schema, one step at a time.
    A version newer than the server knows is refused, never misread."""
    if version > cls.SCHEMA_VERSION:
        raise EventSchemaUnavailable(cls.TYPE_NAME, version, cls.SCHEMA_VERSION)
    lifted = dict(data)
    while version < cls.SCHEMA_VERSION:
        step = _UPCASTERS.get((cls.TYPE_NAME, version))
        if step is None:
            raise EventSchemaUnavailable(cls.TYPE_NAME, version, cls.SCHEMA_VERSION)
        lifted = step(lifted)
        version += 1
    return lifted


def event_type(name: str) -> type[Event]:
    """The event type stored under `name` (an unqualified family name of an older log is read
    as the first family's that registered it: History of the World's, the only one then)."""
    found = _EVENT_TYPES.get(name) or _EVENT_TYPES.get(_UNQUALIFIED.get(name, ""))
    if found is None:
        raise EventSchemaUnavailable(name, None, None)
    return found


def registered_event_types() -> Iterator[str]:
    return iter(sorted(_EVENT_TYPES))


def registered_event_classes() -> tuple[type[Event], ...]:
    """Every registered event type (of whatever module has been imported)."""
    return tuple(_EVENT_TYPES.values())


def event_record(ev: Event) -> dict[str, Any]:
    """The stored form of an event's own part of the envelope (contracts §2)."""
    record: dict[str, Any] = {
        "type": ev.type,
        "schema_version": ev.SCHEMA_VERSION,
        "data": ev.data(),
        "rule": ev.rule,
        "visibility": ev.visibility.as_dict(),
    }
    if ev.draws:
        record["draws"] = [[d.k, d.n, d.result] for d in ev.draws]
        if ev.draws[0].scripted:
            record["scripted"] = True  # a sandbox's scripted chance, not the committed seed's
    if ev.cites:
        record["cites"] = list(ev.cites)
    return record


def _tuples_for_lists(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples_for_lists(v) for v in value)
    if isinstance(value, dict):
        return {k: _tuples_for_lists(v) for k, v in value.items()}
    return value


def event_from_record(record: Mapping[str, Any]) -> Event:
    """Rebuild an event from its stored form, lifting old shapes through the upcasters."""
    cls = event_type(record["type"])
    data = upcast(cls, record.get("data") or {}, int(record.get("schema_version", 1)))
    kwargs = {k: _tuples_for_lists(v) for k, v in data.items()}
    scripted = bool(record.get("scripted"))
    draws = tuple(Draw(int(k), int(n), int(r), scripted) for k, n, r in record.get("draws") or ())
    return cls(
        rule=record["rule"],
        visibility=Visibility.from_dict(record.get("visibility") or {}),
        draws=draws,
        cites=tuple(record.get("cites") or ()),
        **kwargs,
    )


@dataclass(frozen=True, slots=True)
class Recorded:
    """An event as it stands in a game's log: the event plus the rest of its envelope."""

    version: int
    event: Event
    actor: Actor
    command_id: str = ""
    recorded_at: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            **event_record(self.event),
            "actor": self.actor,
            "command_id": self.command_id,
            "recorded_at": self.recorded_at,
        }

    @classmethod
    def from_dict(cls, body: Mapping[str, Any]) -> Recorded:
        return cls(
            version=int(body["version"]),
            event=event_from_record(body),
            actor=body.get("actor", SYSTEM),
            command_id=body.get("command_id", ""),
            recorded_at=body.get("recorded_at", ""),
        )

    def seen_by(self, viewer: int | None, envelope: dict[str, Any] | None = None) -> dict[str, Any]:
        """The envelope as `viewer` (a seat, or None for a spectator) may see it; `envelope`:
        this record's `as_dict()` when already built (it is not changed)."""
        whole = envelope if envelope is not None else self.as_dict()
        if self.event.visibility.shows_to(viewer):
            return whole
        body = dict(whole)
        body["data"] = plain_value(self.event.visibility.redacted or {})
        body.pop("draws", None)
        body.pop("scripted", None)
        body["redacted"] = True
        return body
