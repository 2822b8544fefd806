"""Who sits in each seat, on the game's own log: open seats claimed by players, the table
started (bots in the seats still empty), a seat handed to a bot and taken back, a seat resigned
or timed out, and the table abandoned once no person is left. Every one of these is an event
that replays and audits like a move.

A game created the classic way (every seat's token given to its creator) has no `Seating` until
one of these events happens: its log, its replay and its snapshots stay as they were.

Clocks: time enters only as the `recorded_at` of the events (set by the service, like a chance
outcome) and, to decide a timeout, as an instant read from a `Timepiece` (like the chance
source): this module imports no clock.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from domain.core.errors import GameOver, IllegalAction
from domain.core.messages import Command, Event, event

PERSON = ""
"""A seat's controller when a person plays it (else the name of the bot strategy)."""
BOT_STRATEGIES = ("random", "greedy")
LISTINGS = ("public", "private")
ON_TIMEOUT = ("bot", "resign")
PER_SEAT = "per_seat"
"""A clock's `waits` when each seat's time runs from the moment that seat became awaited (every
table opened since; `table_clock`). A table opened before it records no `waits`: its one wait
restarts on any command, as it did, so that its log folds as it always has."""
NOT_AWAITED = -1
"""A seat's wait (`Seating.waits_ms`) while the game does not await it."""
RESIGNED = "resigned"
TIMED_OUT = "timed_out"

CLAIM_SEAT = "claim_seat"
START_TABLE = "start_table"
HAND_TO_BOT = "hand_to_bot"
TAKE_BACK_SEAT = "take_back_seat"
RESIGN = "resign_seat"
TIME_OUT = "time_out_seat"
SEATING_COMMANDS = frozenset(
    {CLAIM_SEAT, START_TABLE, HAND_TO_BOT, TAKE_BACK_SEAT, RESIGN, TIME_OUT}
)


class Timepiece(Protocol):
    """Where the present instant comes from (milliseconds since the Unix epoch): the service
    passes a real clock, tests a fixed one."""

    def now_ms(self) -> int: ...


@event
class TableOpened(Event):
    """The game waits for players: `open_seats` are to be claimed (`listing`: public, in the
    lobby, or private, by invitation), under a clock (`clock`: none, a time bank or a per-move
    deadline) whose timeout hands the seat to a bot or resigns it (`on_timeout`)."""

    open_seats: tuple[int, ...]
    listing: str
    clock: Mapping[str, Any]
    on_timeout: str
    holders: tuple[str, ...] = ()
    """The player ids of the seats already held at creation ("" for open ones)."""
    names: tuple[str, ...] = ()
    """Their players' names."""


@event
class SeatClaimed(Event):
    seat: int
    player: str
    name: str


@event
class TableStarted(Event):
    """Play begins; the seats still open are played by bots of `strategy`."""

    bot_seats: tuple[int, ...]
    strategy: str


@event
class SeatHandedToBot(Event):
    seat: int
    strategy: str


@event
class SeatTakenBack(Event):
    seat: int


@event
class SeatResigned(Event):
    """The seat left the game: its pieces stay and a bot plays for it (the ruleset's reading of
    the rule cited), and the result ranks it last."""

    seat: int
    strategy: str


@event
class SeatTimedOut(Event):
    """The seat let its clock run out (`deadline_ms`, noticed at `noticed_ms`): a bot takes it
    over or it resigns, as the table chose when it was created (`then`)."""

    seat: int
    deadline_ms: int
    noticed_ms: int
    then: str
    strategy: str


@event
class TableAbandoned(Event):
    """No person is left at the table: the game ends."""


SEATING_EVENTS = (
    TableOpened,
    SeatClaimed,
    TableStarted,
    SeatHandedToBot,
    SeatTakenBack,
    SeatResigned,
    SeatTimedOut,
    TableAbandoned,
)


@dataclass(frozen=True, slots=True)
class Clock:
    """`bank`: each seat has `initial_ms` and gains `increment_ms` per move; `move`: each move
    must come within `per_move_ms` of the seat being awaited."""

    kind: str
    initial_ms: int = 0
    increment_ms: int = 0
    per_move_ms: int = 0
    per_seat: bool = False
    """Each seat's time runs only while it is awaited, from the moment it became awaited (a
    table opened before this records none: one wait for all, restarted by any command)."""

    @classmethod
    def from_mapping(cls, given: Mapping[str, Any]) -> Clock | None:
        if not given or given.get("kind", "none") == "none":
            return None
        return cls(
            str(given["kind"]),
            int(given.get("initial_ms", 0)),
            int(given.get("increment_ms", 0)),
            int(given.get("per_move_ms", 0)),
            given.get("waits") == PER_SEAT,
        )


def table_clock(given: Mapping[str, Any]) -> dict[str, Any]:
    """A new table's clock as its `TableOpened` records it: each seat's own wait."""
    if not given or given.get("kind", "none") == "none":
        return dict(given)
    return {**given, "waits": PER_SEAT}


@dataclass(frozen=True, slots=True)
class Seating:
    holders: tuple[str, ...]
    """Per seat, the id of the player holding it ("" when open or held by its token alone)."""
    names: tuple[str, ...]
    controllers: tuple[str, ...]
    """Per seat, PERSON or the bot strategy that plays it."""
    left: tuple[str, ...]
    """Per seat, "" or why it left (RESIGNED, TIMED_OUT)."""
    open_seats: tuple[int, ...] = ()
    started: bool = True
    abandoned: bool = False
    listing: str = "private"
    on_timeout: str = "bot"
    clock: Clock | None = None
    banks_ms: tuple[int, ...] = ()
    since_ms: int = 0
    """The `recorded_at` of the last event that moved the clock (a table opened before per-seat
    waits: when the seats now awaited began to be awaited)."""
    seated_bots: tuple[int, ...] = ()
    """The seats bots took when the table started (no person's seats)."""
    waits_ms: tuple[int, ...] = ()
    """Per seat, under a per-seat clock: when the game began to await it (NOT_AWAITED: it does
    not). Another seat's command neither restarts nor charges it."""

    def bot_seats(self) -> tuple[int, ...]:
        return tuple(s for s, c in enumerate(self.controllers) if c != PERSON)

    def people_left(self) -> tuple[int, ...]:
        """The people's seats still in the game (a seat handed to a bot for a while is one)."""
        return tuple(
            s for s in range(len(self.left)) if not self.left[s] and s not in self.seated_bots
        )

    def waited_since_ms(self, seat: int) -> int:
        """When the game began to await `seat` (if it does)."""
        clock = self.clock
        if clock is not None and clock.per_seat and 0 <= seat < len(self.waits_ms):
            began = self.waits_ms[seat]
            return self.since_ms if began == NOT_AWAITED else began
        return self.since_ms

    def deadline_ms(self, seat: int) -> int | None:
        """When `seat`, if awaited now, runs out of time (None: no clock, or a bot plays it)."""
        clock = self.clock
        if clock is None or self.controllers[seat] != PERSON or not self.started:
            return None
        if clock.kind == "move":
            return self.waited_since_ms(seat) + clock.per_move_ms
        return self.waited_since_ms(seat) + self.banks_ms[seat]


def classic_seating(seats: int) -> Seating:
    """The seating of a game created with every seat's token given to its creator."""
    return Seating(("",) * seats, ("",) * seats, (PERSON,) * seats, ("",) * seats)


def seating_after(seating: Seating | None, seats: int, ev: Event) -> Seating:
    """Fold one seating event."""
    base = seating or classic_seating(seats)
    if isinstance(ev, TableOpened):
        clock = Clock.from_mapping(ev.clock)
        holders = tuple(ev.holders) or ("",) * seats
        return Seating(
            holders,
            tuple(ev.names) or ("",) * seats,
            (PERSON,) * seats,
            ("",) * seats,
            open_seats=tuple(ev.open_seats),
            started=not ev.open_seats,
            listing=ev.listing,
            on_timeout=ev.on_timeout,
            clock=clock,
            banks_ms=(clock.initial_ms,) * seats if clock else (),
        )
    if isinstance(ev, SeatClaimed):
        return replace(
            base,
            holders=_put(base.holders, ev.seat, ev.player),
            names=_put(base.names, ev.seat, ev.name),
            open_seats=tuple(s for s in base.open_seats if s != ev.seat),
        )
    if isinstance(ev, TableStarted):
        controllers = tuple(
            ev.strategy if s in ev.bot_seats else c for s, c in enumerate(base.controllers)
        )
        return replace(
            base,
            controllers=controllers,
            open_seats=(),
            started=True,
            seated_bots=tuple(ev.bot_seats),
        )
    if isinstance(ev, SeatHandedToBot):
        return replace(base, controllers=_put(base.controllers, ev.seat, ev.strategy))
    if isinstance(ev, SeatTakenBack):  # the person's wait, if awaited, starts now
        return replace(
            base,
            controllers=_put(base.controllers, ev.seat, PERSON),
            waits_ms=_put(base.waits_ms, ev.seat, NOT_AWAITED) if base.waits_ms else (),
        )
    if isinstance(ev, SeatResigned):
        return replace(
            base,
            controllers=_put(base.controllers, ev.seat, ev.strategy),
            left=_put(base.left, ev.seat, RESIGNED),
        )
    if isinstance(ev, SeatTimedOut):
        left = base.left if ev.then == "bot" else _put(base.left, ev.seat, TIMED_OUT)
        return replace(base, controllers=_put(base.controllers, ev.seat, ev.strategy), left=left)
    if isinstance(ev, TableAbandoned):
        return replace(base, abandoned=True)
    return base


def clock_after_command(
    seating: Seating, seat: int | None, at_ms: int, awaited: Collection[int] | None = None
) -> Seating:
    """The clock after a command recorded at `at_ms` (by `seat`, or by the system; `awaited`:
    the seats the game awaits after it).

    Per seat (`Clock.per_seat`): a seat's clock runs only while the game awaits it, from the
    moment it became awaited. Its own move stops it (a bank loses the time the move took and
    gains the increment) and, if the game awaits it again, starts it anew; another seat's
    command neither restarts nor charges it (in a simultaneous phase each seat's time runs
    from the phase's start until its own choice). A table opened before that: one wait for
    every seat, restarted by any command (how its log has always folded)."""
    clock = seating.clock
    if clock is None or not seating.started:
        return seating
    banks = seating.banks_ms
    if not clock.per_seat or awaited is None:
        if clock.kind == "bank" and seat is not None and 0 <= seat < len(banks):
            spent = max(0, at_ms - seating.since_ms)
            banks = _put(banks, seat, banks[seat] - spent + clock.increment_ms)
        return replace(seating, banks_ms=banks, since_ms=at_ms)
    seats = len(seating.controllers)
    waits = list(seating.waits_ms) if len(seating.waits_ms) == seats else [NOT_AWAITED] * seats
    if seat is not None and 0 <= seat < seats and waits[seat] != NOT_AWAITED:
        if clock.kind == "bank" and seat < len(banks):
            spent = max(0, at_ms - waits[seat])
            banks = _put(banks, seat, banks[seat] - spent + clock.increment_ms)
        waits[seat] = NOT_AWAITED  # its move is made: a wait of its own starts if awaited still
    for s in range(seats):
        if s not in awaited:
            waits[s] = NOT_AWAITED
        elif waits[s] == NOT_AWAITED:
            waits[s] = at_ms
    return replace(seating, banks_ms=banks, since_ms=at_ms, waits_ms=tuple(waits))


def _put(values: tuple[Any, ...], at: int, value: Any) -> tuple[Any, ...]:
    return (*values[:at], value, *values[at + 1 :])


# --- deciding -------------------------------------------------------------------------------


def decide_seating(
    seating: Seating | None,
    seats: int,
    actor: int | str,
    command: Command,
    rule: str,
    awaited: Sequence[int],
    timepiece: Timepiece | None = None,
) -> list[Event]:
    """The events of a seating command. `actor`: the seat (hand to a bot, take back, resign),
    `system` (claims, checked by the service against the player and invitation), `admin`
    (start), `worker` (timeouts)."""
    current = seating or classic_seating(seats)
    if current.abandoned:
        raise GameOver("the table was abandoned: every person left", rule)
    kind = command.type
    if kind == CLAIM_SEAT:
        return [_claimed(current, command, rule)]
    if kind == START_TABLE:
        return [_started(current, command, rule)]
    if kind == TIME_OUT:
        return _timed_out(current, command, rule, awaited, timepiece)
    if not isinstance(actor, int):
        raise IllegalAction(f"{kind} is for a seat", rule)
    if kind == HAND_TO_BOT:
        strategy = _strategy(command.arg("strategy", "random"), rule)
        if current.left[actor]:
            raise IllegalAction("this seat has left the game", rule, {"seat": actor})
        return [SeatHandedToBot(rule=rule, seat=actor, strategy=strategy)]
    if kind == TAKE_BACK_SEAT:
        if current.left[actor] or current.controllers[actor] == PERSON:
            raise IllegalAction("no bot plays this seat for you", rule, {"seat": actor})
        return [SeatTakenBack(rule=rule, seat=actor)]
    if kind == RESIGN:
        if current.left[actor]:
            raise IllegalAction("this seat has already left the game", rule, {"seat": actor})
        resigned: Event = SeatResigned(rule=rule, seat=actor, strategy="random")
        return [resigned, *_abandoned_if_nobody_left(current, actor, rule)]
    raise IllegalAction(f"unknown seating command {kind!r}", rule)


def _claimed(current: Seating, command: Command, rule: str) -> Event:
    seat, player = command.arg("seat"), str(command.arg("player", ""))
    if not isinstance(seat, int) or not 0 <= seat < len(current.holders):
        raise IllegalAction("no such seat", rule, {"seat": seat})
    if current.started or seat not in current.open_seats:
        raise IllegalAction("this seat is taken", rule, {"seat": seat, "reason": "seat_taken"})
    if player and player in current.holders:
        raise IllegalAction(
            "you already hold a seat at this table", rule, {"reason": "one_seat_per_player"}
        )
    return SeatClaimed(rule=rule, seat=seat, player=player, name=str(command.arg("name", "")))


def _started(current: Seating, command: Command, rule: str) -> Event:
    if current.started:
        raise IllegalAction("the game has already started", rule, {"reason": "started"})
    strategy = _strategy(command.arg("strategy", "random"), rule)
    return TableStarted(rule=rule, bot_seats=tuple(current.open_seats), strategy=strategy)


def _timed_out(
    current: Seating,
    command: Command,
    rule: str,
    awaited: Sequence[int],
    timepiece: Timepiece | None,
) -> list[Event]:
    seat = command.arg("seat")
    if timepiece is None or not isinstance(seat, int) or seat not in awaited:
        raise IllegalAction("that seat is not awaited", rule, {"seat": seat})
    deadline = current.deadline_ms(seat)
    now = timepiece.now_ms()
    if deadline is None or now < deadline:
        raise IllegalAction("that seat's time has not run out", rule, {"seat": seat})
    then = current.on_timeout
    timed_out: Event = SeatTimedOut(
        rule=rule, seat=seat, deadline_ms=deadline, noticed_ms=now, then=then, strategy="random"
    )
    gone = _abandoned_if_nobody_left(current, seat, rule) if then == "resign" else []
    return [timed_out, *gone]


def _abandoned_if_nobody_left(current: Seating, leaving: int, rule: str) -> list[Event]:
    if set(current.people_left()) <= {leaving}:
        return [TableAbandoned(rule=rule)]
    return []


def _strategy(given: Any, rule: str) -> str:
    if given not in BOT_STRATEGIES:
        raise IllegalAction(
            f"unknown bot strategy {given!r}; known: {', '.join(BOT_STRATEGIES)}", rule
        )
    return str(given)


def ranked_last(order: Sequence[int], seating: Seating | None) -> list[int]:
    """A result's order of seats with the seats that left moved to the end (in their order)."""
    if seating is None:
        return list(order)
    stayed = [s for s in order if not seating.left[s]]
    return stayed + [s for s in order if seating.left[s]]


def instant_ms(iso: str) -> int:
    """Milliseconds since the Unix epoch of an ISO 8601 UTC instant as the service records it
    (`2026-01-02T03:04:05.678901Z`); 0 when it is not one."""
    try:
        date, _, clock = iso.rstrip("Z").partition("T")
        year, month, day = (int(p) for p in date.split("-"))
        hours, minutes, seconds = clock.split(":")
        whole, _, fraction = seconds.partition(".")
    except ValueError:
        return 0
    days = _days_from_civil(year, month, day)
    ms = int((fraction + "000")[:3]) if fraction else 0
    return ((days * 24 + int(hours)) * 60 + int(minutes)) * 60_000 + int(whole) * 1000 + ms


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm)."""
    year -= month <= 2
    era = year // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def encoded_seating(seating: Seating) -> dict[str, Any]:
    """A seating as JSON (a snapshot's)."""
    clock = seating.clock
    return {
        "holders": list(seating.holders),
        "names": list(seating.names),
        "controllers": list(seating.controllers),
        "left": list(seating.left),
        "open_seats": list(seating.open_seats),
        "started": seating.started,
        "abandoned": seating.abandoned,
        "listing": seating.listing,
        "on_timeout": seating.on_timeout,
        "clock": None
        if clock is None
        else [clock.kind, clock.initial_ms, clock.increment_ms, clock.per_move_ms]
        + ([True] if clock.per_seat else []),
        "banks_ms": list(seating.banks_ms),
        "since_ms": seating.since_ms,
        "seated_bots": list(seating.seated_bots),
        # only under a per-seat clock: older tables' snapshots keep their shape
        **({"waits_ms": list(seating.waits_ms)} if seating.waits_ms else {}),
    }


def decoded_seating(body: Mapping[str, Any]) -> Seating:
    clock = body.get("clock")
    return Seating(
        tuple(body["holders"]),
        tuple(body["names"]),
        tuple(body["controllers"]),
        tuple(body["left"]),
        tuple(body["open_seats"]),
        bool(body["started"]),
        bool(body["abandoned"]),
        str(body["listing"]),
        str(body["on_timeout"]),
        None if clock is None else Clock(*clock),
        tuple(body["banks_ms"]),
        int(body["since_ms"]),
        tuple(body.get("seated_bots", ())),
        tuple(int(w) for w in body.get("waits_ms", ())),
    )
