"""Events in words, for people following or replaying a game.

`plain_words` tells any event (as a viewer sees it: `type`, `data`, `actor`, `redacted`) in a
sentence: the kernel's own events (creation, undo, rewinds, the seed) in words of their own,
any other as its type in words followed by its data, with seats named by their players and pack
ids by their names. A ruleset's `narrate` hook does better for its own events and falls back on
this.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

SEAT_KEYS = frozenset(
    {"seat", "from_seat", "to_seat", "enemy", "owner", "winner", "first", "next", "start",
     "defender", "giver"}
)  # fmt: skip
"""Data fields that hold a seat number (a negative one: nobody)."""
SEATS_KEYS = frozenset({"order", "known_by", "ranking", "winners", "seats"})
"""Data fields that hold a list of seats (or of groups of seats, best first)."""
COLOUR_KEYS = frozenset({"colour", "from_colour", "removed_colour"})
"""Data fields that hold a colour (a player's set of pieces: Brief's two-player variant gives
each player two)."""
SKIPPED_KEYS = frozenset({"context"})
COLOUR_NAMES = ("red", "blue", "green", "orange", "purple", "brown")
"""The name of seat (or colour) n's colour, as the boards draw it."""


def humanised(type_name: str) -> str:
    """`hotw.ArmyPlaced` → `Army placed`; `ToyBidSealed` → `Toy bid sealed`."""
    bare = type_name.rsplit(".", 1)[-1]
    words = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+", bare)
    text = " ".join(w if w.isupper() and len(w) > 1 else w.lower() for w in words)
    return text[:1].upper() + text[1:]


class Namer:
    """Names for seats (their players) and pack ids (their names), for use in sentences;
    `empires`: the Empire each seat (or colour, where the ruleset's events name colours) plays
    at the moment of the event told, by its name (`Ruleset.empires_in_play`)."""

    def __init__(
        self,
        players: Sequence[str],
        names: Mapping[str, str],
        seat_keys: frozenset[str] = SEAT_KEYS,
        seats_keys: frozenset[str] = SEATS_KEYS,
        empires: Mapping[int, str] | None = None,
    ) -> None:
        self.players = list(players)
        self.names = names
        self.seat_keys = seat_keys
        self.seats_keys = seats_keys
        self.empires: Mapping[int, str] = empires or {}

    def side(self, value: Any, player: str | None = None) -> str:
        """A seat (or a colour) with the Empire it plays now: `Bot 1's Mongols`; its player
        alone (`player`, else `seat`'s name) when no Empire is in play for it."""
        who = self.seat(value) if player is None else player
        if isinstance(value, bool) or not isinstance(value, int):
            return who
        empire = self.empires.get(value)
        return f"{who}'s {empire}" if empire else who

    def seat(self, value: Any) -> str:
        if isinstance(value, bool) or not isinstance(value, int):
            return "nobody" if value is None else str(value)
        if 0 <= value < len(self.players):
            return self.players[value]
        if value < 0:
            return "nobody"
        return f"player {value + 1}"

    def colour(self, value: Any) -> str:
        """A colour by its name and its player: `blue (bob)`."""
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            return "no colour"
        name = COLOUR_NAMES[value % len(COLOUR_NAMES)]
        if not self.players:
            return name
        return f"{name} ({self.players[value % len(self.players)]})"

    def seats(self, value: Any) -> str:
        if not isinstance(value, list | tuple):
            return self.seat(value)
        if not value:
            return "nobody"
        if all(isinstance(v, list | tuple) for v in value):  # a ranking: groups, best first
            return "; ".join(
                f"{place} {listed([self.seat(s) for s in group])}"
                for place, group in zip(PLACES, value, strict=False)
            )
        return listed([self.seat(v) for v in value])

    def actor(self, value: Any) -> str:
        if isinstance(value, int) and not isinstance(value, bool):
            return self.seat(value)
        return {"system": "the rules", "worker": "the rules", "admin": "the admin"}.get(
            str(value), str(value)
        )

    def thing(self, value: Any) -> str:
        """A pack id by its name; other values as they read."""
        if isinstance(value, str):
            return self.names.get(value, value.replace("-", " ").replace("_", " "))
        if isinstance(value, bool):
            return "yes" if value else "no"
        if value is None:
            return "none"
        if isinstance(value, list | tuple) and value and all(_keyed(v) for v in value):
            return "; ".join(f"{self.key(k)} {self.thing(v)}" for k, v in value)  # a mapping
        if isinstance(value, list | tuple):
            return listed([self.thing(v) for v in value]) if value else "none"
        if isinstance(value, Mapping):
            return (
                "; ".join(f"{self.key(str(k))} {self.thing(v)}" for k, v in value.items()) or "none"
            )
        return str(value)

    def key(self, key: str) -> str:
        """A field's name (or a mapping's key: a pack id) in words."""
        return self.names.get(key, key.replace("_", " ").replace("-", " "))

    def field(self, key: str, value: Any) -> str:
        if key in self.seat_keys and isinstance(value, int | None):
            return self.seat(value)
        if key in self.seats_keys and isinstance(value, list | tuple) and _seats(value):
            return self.seats(value)
        if key in COLOUR_KEYS and isinstance(value, int | None):
            return self.colour(value)
        if key.endswith("colours") and isinstance(value, list | tuple):
            return listed([self.colour(v) for v in value]) if value else "none"
        return self.thing(value)


def _keyed(value: Any) -> bool:
    """Whether a value is a mapping's item as an event stores it: a [pack id, number] pair
    ("area values [[northern-europe, 0], ...]" reads "Northern Europe 0; ...", not "... and 0")."""
    return (
        isinstance(value, list | tuple)
        and len(value) == 2
        and isinstance(value[0], str)
        and isinstance(value[1], int | float)
        and not isinstance(value[1], bool)
    )


def _seats(value: Sequence[Any]) -> bool:
    """Whether a list holds seats (numbers, or groups of numbers)."""
    return all(
        (isinstance(v, int) and not isinstance(v, bool))
        or (isinstance(v, list | tuple) and _seats(v))
        for v in value
    )


PLACES = ("first", "second", "third", "fourth", "fifth", "sixth")


def listed(items: Sequence[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def generic(event: Mapping[str, Any], namer: Namer) -> str:
    """The event's type in words, then each field of its data."""
    data = event.get("data")
    data = data if isinstance(data, Mapping) else {}
    parts = [
        namer.field(key, value)
        if key in ("seat", "colour")
        else f"{namer.key(key)} {namer.field(key, value)}"
        for key, value in data.items()
        if key not in SKIPPED_KEYS and value != "" and value != []
    ]
    head = humanised(str(event.get("type", "")))
    return head + (": " + ", ".join(parts) if parts else "") + "."


Teller = Callable[[Mapping[str, Any], Namer], str]


def _created(event: Mapping[str, Any], namer: Namer) -> str:
    data = event.get("data") or {}
    players = listed([str(p) for p in data.get("players", [])])
    options = data.get("options") or {}
    chosen = listed(
        [
            namer.key(str(k)) if v is True else f"{namer.key(str(k))} {namer.thing(v)}"
            for k, v in options.items()
            if v is not False and v is not None and v != ""
        ]
    )
    return (
        f"The game was created for {players}"
        + (f" (options: {chosen})" if chosen else "")
        + "; the chance seed's SHA-256 was published."
    )


def _seed(event: Mapping[str, Any], namer: Namer) -> str:
    data = event.get("data") or {}
    early = " early, by the admin" if data.get("early") else ""
    return f"The chance seed was revealed{early}: anyone can now verify every roll and draw again."


def _undone(event: Mapping[str, Any], namer: Namer) -> str:
    data = event.get("data") or {}
    return (
        f"{namer.seat(data.get('seat'))} took back their last command "
        f"(versions {data.get('undone_from')} to {data.get('undone_through')} no longer count)."
    )


def _proposed(event: Mapping[str, Any], namer: Namer) -> str:
    data = event.get("data") or {}
    return (
        f"{namer.seat(data.get('seat'))} proposed to take the game back to version "
        f"{data.get('to_version')}; every other seat must accept."
    )


def _answered(event: Mapping[str, Any], namer: Namer) -> str:
    data = event.get("data") or {}
    answer = "accepted" if data.get("accepted") else "refused"
    return f"{namer.seat(data.get('seat'))} {answer} the rewind proposed."


def _rewound(event: Mapping[str, Any], namer: Namer) -> str:
    data = event.get("data") or {}
    by = "by the admin's order" if data.get("ordered_by") == "admin" else "as the table agreed"
    return (
        f"The game went back to version {data.get('to_version')} {by} (versions up to "
        f"{data.get('undone_through')} after it no longer count)."
    )


def _loaded(event: Mapping[str, Any], namer: Namer) -> str:
    data = event.get("data") or {}
    source = data.get("source_game")
    return (
        "The game starts from a given position" + (f" (of game {source})" if source else "") + "."
    )


def _scripted(event: Mapping[str, Any], namer: Namer) -> str:
    script = (event.get("data") or {}).get("script") or []
    given = ", ".join(
        str(result + 1) if n == 6 else f"{result + 1} of {n}" for n, result in script[:12]
    )
    more = f" and {len(script) - 12} more" if len(script) > 12 else ""
    return (
        f"A what-if: this sandbox's chance is scripted, not drawn from a committed seed; its "
        f"next {len(script)} outcomes are given ({given}{more})."
    )


STRATEGY_WORDS = {
    "random": "a bot that plays any legal move",
    "greedy": "a bot that looks one move ahead",
}
"""The bots a seat may be handed to (`domain.core.seating.BOT_STRATEGIES`), in words."""


def _bot(strategy: Any) -> str:
    return STRATEGY_WORDS.get(str(strategy), "a bot")


def _clock_words(clock: Any) -> str:
    """A table's clock in words: none, a time bank or a deadline for each move."""
    if not isinstance(clock, Mapping) or clock.get("kind", "none") == "none":
        return "without a clock"
    if clock.get("kind") == "bank":
        initial, more = int(clock.get("initial_ms", 0)), int(clock.get("increment_ms", 0))
        gain = f", gaining {duration(more)} a move" if more else ""
        return f"with a time bank of {duration(initial)} a player{gain}"
    return f"with {duration(int(clock.get('per_move_ms', 0)))} for each move"


def duration(ms: int) -> str:
    """`90 seconds`, `5 minutes`, `2 hours`, `3 days`."""
    seconds = ms // 1000
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            return counted(seconds // size, unit)
    return counted(seconds, "second")


def counted(n: Any, noun: str, plural: str | None = None) -> str:
    """`1 army`, `2 armies` (`plural` when the noun does not just take an s)."""
    many = plural or (
        noun[:-1] + "ies" if noun.endswith("y") and noun[-2:-1] not in "aeiou" else noun + "s"
    )
    return f"{n} {noun if n == 1 else many}"


def _table_opened(event: Mapping[str, Any], namer: Namer) -> str:
    data = event.get("data") or {}
    seated = [str(n) for n in data.get("names", ()) if n]
    open_seats = len(data.get("open_seats", ()))
    who = f"{listed(seated)} {'sits' if len(seated) == 1 else 'sit'} down and " if seated else ""
    seats = f"{open_seats} seat is" if open_seats == 1 else f"{open_seats} seats are"
    listing = (
        "listed in the lobby for anyone to claim"
        if data.get("listing") == "public"
        else "kept private, for those invited"
    )
    then = (
        "a bot takes over the seat of a player whose time runs out"
        if data.get("on_timeout") == "bot"
        else "a player whose time runs out resigns"
    )
    clock = _clock_words(data.get("clock"))
    if clock == "without a clock":
        return f"The table opened: {who}{seats} open, {listing}; it plays without a clock."
    return f"The table opened: {who}{seats} open, {listing}; it plays {clock}, and {then}."


def _seat_claimed(event: Mapping[str, Any], namer: Namer) -> str:
    data = event.get("data") or {}
    name = str(data.get("name") or "") or namer.seat(data.get("seat"))
    return f"{name} took a seat at the table."


def _table_started(event: Mapping[str, Any], namer: Namer) -> str:
    data = event.get("data") or {}
    bots = [namer.seat(s) for s in data.get("bot_seats", ())]
    if not bots:
        return "Play began, every seat held by a person."
    bot = _bot(data.get("strategy"))
    return f"Play began: {bot} plays for {listed(bots)}."


def _handed_to_bot(event: Mapping[str, Any], namer: Namer) -> str:
    data = event.get("data") or {}
    return f"{namer.seat(data.get('seat'))} handed their seat to {_bot(data.get('strategy'))}."


def _taken_back(event: Mapping[str, Any], namer: Namer) -> str:
    data = event.get("data") or {}
    return f"{namer.seat(data.get('seat'))} took their seat back from the bot."


def _resigned(event: Mapping[str, Any], namer: Namer) -> str:
    data = event.get("data") or {}
    return (
        f"{namer.seat(data.get('seat'))} resigned: {_bot(data.get('strategy'))} plays their "
        "pieces, and they rank last."
    )


def _timed_out(event: Mapping[str, Any], namer: Namer) -> str:
    data = event.get("data") or {}
    who = namer.seat(data.get("seat"))
    if data.get("then") == "resign":
        return f"{who}'s time ran out: they resign and rank last."
    return f"{who}'s time ran out: {_bot(data.get('strategy'))} plays for them now."


def _abandoned(event: Mapping[str, Any], namer: Namer) -> str:
    return "No person is left at the table: the game ends here."


KERNEL_TELLERS: dict[str, Teller] = {
    "TableOpened": _table_opened,
    "SeatClaimed": _seat_claimed,
    "TableStarted": _table_started,
    "SeatHandedToBot": _handed_to_bot,
    "SeatTakenBack": _taken_back,
    "SeatResigned": _resigned,
    "SeatTimedOut": _timed_out,
    "TableAbandoned": _abandoned,
    "GameCreated": _created,
    "SeedRevealed": _seed,
    "ActionsUndone": _undone,
    "RewindProposed": _proposed,
    "RewindAnswered": _answered,
    "GameRewound": _rewound,
    "PositionLoaded": _loaded,
    "ChanceScripted": _scripted,
}


def plain_words(
    event: Mapping[str, Any],
    players: Sequence[str],
    names: Mapping[str, str] | None = None,
    tellers: Mapping[str, Teller] | None = None,
    namer: Namer | None = None,
) -> str:
    """The event in a sentence: by its own teller if it has one (the ruleset's `tellers`, then
    the kernel's), else generically; a redacted event says that its details are hidden."""
    namer = namer or Namer(players, names or {})
    kind = str(event.get("type", ""))
    teller = (tellers or {}).get(kind) or KERNEL_TELLERS.get(kind)
    if event.get("redacted"):
        data = event.get("data")
        who = ""
        if isinstance(data, Mapping) and "seat" in data:
            who = f" ({namer.seat(data['seat'])})"
        return f"{humanised(kind)}{who}: the details are hidden from you."
    try:
        return teller(event, namer) if teller is not None else generic(event, namer)
    except (KeyError, TypeError, ValueError, AttributeError):
        return generic(event, namer)


NAMED_ARGS = frozenset(
    {"land", "water", "card", "target", "area", "token", "honor", "empire", "building", "ability"}
)
"""Arguments whose value is read alone (a land, a card): `Caucasus`, not `land Caucasus`."""


def action_words(command: Mapping[str, Any], namer: Namer) -> tuple[str, str]:
    """A command a seat may post, in words: the whole (`Expand: Caucasus, via land`) and the
    part after its type (`Caucasus, via land`; the type alone when it has no arguments)."""
    head = humanised(str(command.get("type", "")))
    parts = []
    for key, value in command.items():
        if key == "type" or value == "" or value is None or value == []:
            continue
        if key in namer.seat_keys or (key == "to" and isinstance(value, int)):
            parts.append(f"{'to' if key == 'to' else namer.key(key)} {namer.seat(value)}")
        elif key in COLOUR_KEYS:
            parts.append(namer.colour(value))
        elif key in NAMED_ARGS:
            parts.append(namer.thing(value))
        else:
            parts.append(f"{namer.key(key)} {namer.thing(value)}")
    if not parts:
        return head, head
    short = ", ".join(parts)
    return f"{head}: {short}", short


def dice(value: Any) -> str:
    """Faces rolled, as `[5, 4]` reads: `5 and 4` (`no dice` for none)."""
    if not isinstance(value, list | tuple) or not value:
        return "no dice"
    return listed([str(v) for v in value])


def ranked(ranking: Any, namer: Namer) -> str:
    """A ranking (groups of seats, best first) in words: `bob first, ann and cy tied second`."""
    told = []
    for place, group in zip(PLACES, ranking, strict=False):
        seats = group if isinstance(group, list | tuple) else [group]
        names = listed([namer.seat(s) for s in seats])
        told.append(f"{names} {'tied ' if len(seats) > 1 else ''}{place}")
    return listed(told)


def per_seat(values: Any, namer: Namer, unit: str = "") -> str:
    """One number per seat, each by its player: `ann 162 gold, bob 159 gold and cy 178 gold`."""
    said = f" {unit}" if unit else ""
    return listed([f"{namer.seat(seat)} {value}{said}" for seat, value in enumerate(values)])


Fields = Callable[[Mapping[str, Any], Namer], Mapping[str, str]]


class _Filled(dict[str, str]):
    """The values a sentence fills in; an unknown field raises KeyError (the generic form then)."""


def sentence_tellers(
    family: str, sentences: Mapping[str, str], fields: Fields
) -> dict[str, Teller]:
    """A teller for each `<family>.<Type>` from its sentence, its `{fields}` filled in by
    `fields` (each data field in words by default, by the namer). A player's name is left as
    the player wrote it, even at the head of a sentence."""

    def teller(template: str) -> Teller:
        def tell(event: Mapping[str, Any], namer: Namer) -> str:
            data = event.get("data")
            if not isinstance(data, Mapping):
                raise ValueError("no data")
            filled = _Filled({key: namer.field(key, value) for key, value in data.items()})
            filled.update(fields(data, namer))
            return template.format_map(filled)

        return tell

    prefix = f"{family}." if family else ""
    return {f"{prefix}{kind}": teller(text) for kind, text in sentences.items()}


UNSHOWN_DATA = {
    "TableOpened": frozenset({"holders"}),
    "SeatClaimed": frozenset({"player"}),
    "SeedRevealed": frozenset({"seed"}),
    "GameCreated": frozenset({"seed_commitment", "pack_digest"}),
}
"""Fields Explain's words leave out: the players' ids behind a table's names, and the seed, its
commitment and the pack's digest (hex for an audit, in the event's data alone)."""


def fields_in_words(event: Mapping[str, Any], namer: Namer) -> list[dict[str, str]]:
    """Each field of an event's data as a label and its value in words (seats by their
    players, ids by their names, yes or no for a flag): what Explain shows as its inputs."""
    data = event.get("data")
    if not isinstance(data, Mapping):
        return []
    told = []
    hidden = UNSHOWN_DATA.get(str(event.get("type")), frozenset())
    for key, value in data.items():
        if key in SKIPPED_KEYS or key in hidden:
            continue
        if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
            value = [v for v in value if v]  # a table's names: its open seats have none
        label = namer.key(key)
        said = namer.field(key, value)
        flags = isinstance(value, Mapping) and all(isinstance(v, bool) for v in value.values())
        if flags and value:
            said = listed([namer.key(str(k)) for k, on in value.items() if on]) or "none"
        if value == "" or value == [] or value is None:
            said = "none"
        told.append({"label": label[:1].upper() + label[1:], "value": said})
    return told
