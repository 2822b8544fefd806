"""Who may know what in a hotw-2024 game, version by version, worked out from its event log by
the rulebook (p3 Setting up, p4 Epoch organization, p9 Endgame) and not by asking the views or
trusting the events' own `visibility`. The leak tests hold every response to it.

Hidden items and who knows them:

- an Area token drawn, chosen, or on offer: the seat holding it (a token passed on is known to
  the seat that passed it and the one it was passed to); a face-down Endgame token: the seat
  that left it there. Public once played, revealed, or placed face up. Tokens in the bag are
  known to nobody: a state view that names one tells, by elimination, what the seats hold.
- an Event or Empire card counted out at setup: nobody, until it is displayed (Empire cards) or
  dealt (Event cards: then the seat dealt it) and revealed. The cards removed unseen: nobody.
  Under Option 1 (Event cards) and Option 2 (Empire cards) the epoch's cards are taken by one
  seat and passed on: each card is known to every seat it passed through, and an Empire card
  chosen in secret becomes public when it is revealed at its turn.
- a Paired Area token (Option 4): the seat that drew it, until played; the ones left over:
  nobody.
- the order of every Honor stack, as far as it is still the order it was shuffled in: nobody
  (an Honor played goes to the bottom of its stack in public). Honor ids are the same for every
  seat, so this is checked as lists in that order, not as ids.
- the chance seed: nobody, until SeedRevealed.

A command's events are appended together, so no answer can be about a version inside a command
before the whole command is in the log: an item may be shown about such a version to whoever
knows it once the command is done (the seat passed a hand of Area tokens sees it in
`state?at=` the version where the passer kept its own, one event before the pass). The orders
of Honor stacks are checked at the version itself.
"""

from __future__ import annotations

import functools
import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.core.kernel import Game, fold
from domain.core.messages import Recorded
from domain.hotw.editions.hotw_2024.pack import HotwPack
from service.rulesets import ruleset

RULES = ruleset("hotw-2024")
PACK: HotwPack = RULES.pack  # type: ignore[assignment]

BAG = "bag"
PUBLIC = "public"
NOBODY: frozenset[int] = frozenset()
Status = str | frozenset[int]
"""BAG, PUBLIC, or the seats that know the item (NOBODY: known to no one)."""

TOKENS = frozenset(t for area in PACK.board.areas.values() for t in area.area_tokens) | frozenset(
    PACK.board.paired_area_tokens
)
CARDS = frozenset(
    card.id
    for deck in (*PACK.cards.empires_by_epoch.values(), *PACK.cards.events_by_epoch.values())
    for card in deck
)
PLACE_NAMES = frozenset(
    {*PACK.board.lands, *PACK.board.areas, *PACK.board.seas, *PACK.board.wastelands}
)
SEARCHED_CARDS = CARDS - PLACE_NAMES
"""Two cards share their id with a land (`britain`, `persia`): a response naming the land says
nothing about the card, so those two are left out of the text search. Their events are still
checked field by field (`entitled`)."""
HONORS = frozenset(honor.id for honor in PACK.cards.honors)

SECRET_TYPES = frozenset(
    {
        "hotw.HonorStackShuffled",
        "hotw.CardsCountedOut",
        "PositionLoaded",
        "hotw.AreaTokenDrawn",
        "hotw.AreaTokensDrawn",
        "hotw.AreaTokenChosen",
        "hotw.AreaTokensPassed",
        "hotw.EndgameTokenPlaced",
        "hotw.EventCardDealt",
        "hotw.EventCardsTaken",
        "hotw.EventCardChosen",
        "hotw.EventCardsPassed",
        "hotw.EmpireCardsTaken",
        "hotw.HiddenEmpireCardChosen",
        "hotw.EmpireCardsPassed",
        "hotw.PairedAreaTokenDrawn",
    }
)
REVEALING_TYPES = frozenset(
    {
        "hotw.EmpireCardsDisplayed",
        "hotw.EventRevealed",
        "hotw.AreaTokenPlayed",
        "hotw.EndgameTokenRevealed",
        "hotw.EmpireCardRevealed",
    }
)
WORD = re.compile(r"[a-z0-9+-]+")
"""Ids as words: `+` joins the two areas of a Paired Area token's id."""
STRING_LIST = re.compile(r'\[\s*"[a-z0-9-]+"(?:\s*,\s*"[a-z0-9-]+")+\s*\]')


def entitled(event_type: str, data: Mapping[str, Any]) -> frozenset[int] | None:
    """The seats the rules let see an event in full; None when everybody may."""
    if event_type in ("hotw.HonorStackShuffled", "hotw.CardsCountedOut", "PositionLoaded"):
        return NOBODY
    if event_type in (
        "hotw.AreaTokenDrawn",
        "hotw.AreaTokensDrawn",
        "hotw.AreaTokenChosen",
        "hotw.EventCardDealt",
        "hotw.EventCardsTaken",
        "hotw.EventCardChosen",
        "hotw.EmpireCardsTaken",
        "hotw.HiddenEmpireCardChosen",
        "hotw.PairedAreaTokenDrawn",
    ):
        return frozenset({data["seat"]})
    if event_type in ("hotw.AreaTokensPassed", "hotw.EventCardsPassed", "hotw.EmpireCardsPassed"):
        return frozenset({data["from_seat"], data["to_seat"]})
    if event_type == "hotw.EndgameTokenPlaced" and not data["face_up"]:
        return frozenset(data["known_by"])
    return None


def knows(status: Status, viewer: int | None) -> bool:
    if status == PUBLIC:
        return True
    return isinstance(status, frozenset) and viewer is not None and viewer in status


@dataclass(frozen=True)
class Knowledge:
    """Who knows each hidden item at one version."""

    tokens: Mapping[str, Status]
    cards: Mapping[str, Status]
    seed_public: bool

    def hidden_in_views(self, viewer: int | None) -> set[str]:
        tokens = {t for t, s in self.tokens.items() if s == BAG or not knows(s, viewer)}
        return tokens | self.unseen_cards(viewer)

    def hidden_in_events(self, viewer: int | None) -> set[str]:
        tokens = {t for t, s in self.tokens.items() if s != BAG and not knows(s, viewer)}
        return tokens | self.unseen_cards(viewer)

    def unseen_cards(self, viewer: int | None) -> set[str]:
        return {c for c in SEARCHED_CARDS if not knows(self.cards[c], viewer)}


@dataclass(frozen=True, eq=False)
class Moment:
    """What is hidden, and from whom, once the event of `version` has happened."""

    version: int
    exact: Knowledge
    done: Knowledge
    """Knowledge once the command that made `version` is done (see the module's docstring)."""
    stacks: tuple[tuple[str, ...], ...]
    """Each seat's Honor stack, top first."""
    shuffled: tuple[tuple[str, ...], ...]
    """The top of each stack that is still in the order it was shuffled in: known to nobody
    (an Honor played goes to the bottom of the stack in public)."""

    @property
    def seed_public(self) -> bool:
        return self.exact.seed_public

    @functools.cache  # noqa: B019  (a Moment lives as long as its test)
    def hidden_in_views(self, viewer: int | None) -> frozenset[str]:
        """Ids a state-like answer (state, summary, legal actions, result, errors) may not name
        to `viewer`: tokens in the bag or held by others, cards it has not seen."""
        return frozenset(self.exact.hidden_in_views(viewer) & self.done.hidden_in_views(viewer))

    @functools.cache  # noqa: B019
    def hidden_in_events(self, viewer: int | None) -> frozenset[str]:
        """Ids an event may not name to `viewer`: tokens held by others (tokens going into the
        bag are named in public), cards it has not seen."""
        return frozenset(self.exact.hidden_in_events(viewer) & self.done.hidden_in_events(viewer))

    @functools.cache  # noqa: B019
    def own_secrets(self, seat: int) -> frozenset[str]:
        """Ids `seat` knows and some other seat does not (to show the test is not vacuous)."""
        others = set(range(len(self.stacks))) - {seat}
        return frozenset(
            item
            for statuses in (self.exact.tokens, self.exact.cards)
            for item, s in statuses.items()
            if isinstance(s, frozenset) and seat in s and others - s
        )

    def hidden_orders(self) -> list[tuple[str, ...]]:
        """Lists that would tell an order nobody knows: a stack's shuffled top, or the whole
        stack while it holds two shuffled Honors or more (three at least, so that no public
        list of Honors, such as another seat's track, matches one by chance)."""
        orders = [top for top in self.shuffled if len(top) >= 3]
        orders += [
            stack
            for stack, top in zip(self.stacks, self.shuffled, strict=True)
            if len(top) >= 2 and len(stack) >= 3
        ]
        return orders


@dataclass
class Timeline:
    """The Moment after every version of a game's log, and each event's entitled seats."""

    moments: dict[int, Moment] = field(default_factory=dict)
    entitled: dict[int, frozenset[int] | None] = field(default_factory=dict)
    types: dict[int, str] = field(default_factory=dict)
    violations: list[str] = field(default_factory=list)
    """Public events that named an item still hidden (a leak in the event log itself)."""

    @classmethod
    def of(cls, log: Sequence[Recorded]) -> Timeline:
        timeline = cls()
        tokens: dict[str, Status] = {}
        cards: dict[str, Status] = dict.fromkeys(CARDS, NOBODY)
        seed_public = False
        game: Game[Any] | None = None
        known: dict[int, Knowledge] = {}
        stacks: dict[int, tuple[tuple[str, ...], ...]] = {}
        shuffled: dict[int, tuple[str, ...]] = {}
        tops: dict[int, tuple[tuple[str, ...], ...]] = {}
        for recorded in log:
            version, ev = recorded.version, recorded.event
            data = ev.data()
            who = entitled(ev.type, data)
            timeline.entitled[version] = who
            timeline.types[version] = ev.type
            match ev.type:
                case "hotw.AreasActivated":
                    tokens.update(dict.fromkeys(data["tokens"], BAG))
                case "hotw.AreaTokenDrawn" | "hotw.AreaTokenChosen" | "hotw.PairedAreaTokenDrawn":
                    tokens[data["token"]] = frozenset({data["seat"]})
                case "hotw.AreaTokensDrawn":
                    tokens.update(dict.fromkeys(data["tokens"], frozenset({data["seat"]})))
                case "hotw.AreaTokensPassed":
                    seats = frozenset({data["from_seat"], data["to_seat"]})
                    tokens.update(dict.fromkeys(data["tokens"], seats))
                case "hotw.EndgameTokenPlaced":
                    face_up = data["face_up"]
                    tokens[data["token"]] = PUBLIC if face_up else frozenset(data["known_by"])
                case "hotw.AreaTokenPlayed" | "hotw.EndgameTokenRevealed":
                    tokens[data["token"]] = PUBLIC
                case "hotw.EventCardDealt":
                    if cards[data["card"]] != PUBLIC:
                        cards[data["card"]] = frozenset({data["seat"]})
                case "hotw.EventCardsTaken" | "hotw.EmpireCardsTaken":
                    cards.update(dict.fromkeys(data["cards"], frozenset({data["seat"]})))
                case "hotw.EventCardsPassed" | "hotw.EmpireCardsPassed":
                    for card in data["cards"]:
                        cards[card] = cards[card] | {data["to_seat"]}  # type: ignore[operator]
                case "hotw.EmpireCardRevealed":
                    cards[data["card"]] = PUBLIC
                case "hotw.EmpireCardsDisplayed":
                    cards.update(dict.fromkeys(data["cards"], PUBLIC))
                case "hotw.EventRevealed":
                    cards[data["card"]] = PUBLIC
                case "SeedRevealed":
                    seed_public = True
                case "hotw.HonorStackShuffled":
                    shuffled[data["seat"]] = tuple(data["stack"])
                case "hotw.HonorTurnedUp" | "hotw.HonorAwarded":
                    top = shuffled.get(data["seat"], ())
                    shuffled[data["seat"]] = tuple(h for h in top if h != data["honor"])
            if who is None and ev.type not in ("hotw.AreasActivated", *REVEALING_TYPES):
                still_hidden = {
                    item
                    for item in words_in(data) & (TOKENS | SEARCHED_CARDS)
                    if tokens.get(item, BAG) not in (BAG, PUBLIC)
                    or cards.get(item, PUBLIC) != PUBLIC
                }
                if still_hidden:
                    timeline.violations.append(
                        f"public event {version} {ev.type} names {sorted(still_hidden)}"
                    )
            game = fold(RULES, game, recorded)
            known[version] = Knowledge(dict(tokens), dict(cards), seed_public)
            stacks[version] = tuple(player.honor_stack for player in game.state.players)
            tops[version] = tuple(shuffled.get(seat, ()) for seat in range(len(stacks[version])))
            assert all(
                stack[: len(top)] == top
                for stack, top in zip(stacks[version], tops[version], strict=True)
            ), f"the shuffled Honors are the top of each stack (version {version})"
        done: Knowledge | None = None
        for index in range(len(log) - 1, -1, -1):
            version = log[index].version
            if index == len(log) - 1 or log[index + 1].command_id != log[index].command_id:
                done = known[version]
            assert done is not None
            timeline.moments[version] = Moment(
                version, known[version], done, stacks[version], tops[version]
            )
        return timeline

    def at(self, version: int) -> Moment:
        return self.moments[version]


def words_in(value: Any) -> set[str]:
    """Every word of a JSON value's text: ids whole (`"india-2"`) or inside longer strings
    (`"honor:recruit-1"`, a rule id); keys included."""
    text = value if isinstance(value, str) else json.dumps(value)
    return set(WORD.findall(text))


def string_lists_in(text: str) -> Iterator[list[str]]:
    """Every JSON list of two strings or more in a JSON text."""
    for match in STRING_LIST.finditer(text):
        yield json.loads(match.group(0))


@dataclass
class Findings:
    """What the checks found: leaks, and (to show they could find any) the caller's own
    secrets that its answers did show."""

    leaks: list[str] = field(default_factory=list)
    own_secrets_seen: Counter[int] = field(default_factory=Counter)
    redacted_seen: int = 0
    answers: int = 0

    def leak(self, where: str, what: str) -> None:
        if len(self.leaks) < 50:
            self.leaks.append(f"{where}: {what}")


class Oracle:
    """Checks answers given to one game's callers against its Timeline."""

    def __init__(self, timeline: Timeline, seed_hex: str, tokens: Iterable[str]) -> None:
        self.timeline = timeline
        self.seed_hex = seed_hex.lower()
        self.tokens = frozenset(tokens)
        self.findings = Findings()
        self.checked: set[tuple[str, int | None, str | None]] = set()

    def _common(self, where: str, text: str, own_token: str | None, seed_public: bool) -> None:
        self.findings.answers += 1
        if not seed_public and self.seed_hex in text.lower():
            self.findings.leak(where, "the chance seed")
        for token in self.tokens - {own_token}:
            if token in text:
                self.findings.leak(where, "another caller's token")

    def _items(
        self, where: str, text: str, hidden: frozenset[str], moment: Moment, viewer: int | None
    ) -> None:
        named = words_in(text)
        shown = named & hidden
        if shown:
            self.findings.leak(where, f"hidden items {sorted(shown)}")
        orders = moment.hidden_orders()
        for listed in string_lists_in(text) if orders else ():
            if tuple(listed) in orders or tuple(reversed(listed)) in orders:
                self.findings.leak(where, f"an Honor stack's order {listed}")
        if viewer is not None and named & moment.own_secrets(viewer):
            self.findings.own_secrets_seen[viewer] += 1

    def view(
        self, where: str, text: str, version: int, viewer: int | None, own_token: str | None
    ) -> None:
        """A state-like answer about the game as it stood after `version`."""
        moment = self.timeline.at(version)
        self._common(where, text, own_token, moment.seed_public)
        self._items(where, text, moment.hidden_in_views(viewer), moment, viewer)

    def event(
        self, where: str, served: Mapping[str, Any], viewer: int | None, own_token: str | None
    ) -> None:
        """One event as served to `viewer` (feed, export, stream, a command's answer)."""
        text = json.dumps(served, sort_keys=True)
        if (text, viewer, own_token) in self.checked:  # the same event, served again
            self.findings.answers += 1
            return
        self.checked.add((text, viewer, own_token))
        version = served["version"]
        moment = self.timeline.at(version)
        where = f"{where} v{version} {served.get('type')}"
        self._common(where, text, own_token, moment.seed_public)
        self._items(where, text, moment.hidden_in_events(viewer), moment, viewer)
        self._envelope(where, version, served, viewer, served.get("draws") or [])

    def event_in_full(self, where: str, text: str, own_token: str | None) -> None:
        """An event or explanation served once the game is over and its seed revealed: whole
        to everyone (no hidden items left), but never another caller's token."""
        self._common(where, text, own_token, seed_public=True)

    def explanation(self, where: str, text: str, viewer: int | None, own_token: str | None) -> None:
        body = json.loads(text)
        version = body["version"]
        moment = self.timeline.at(version)
        where = f"{where} v{version} {body.get('type')}"
        self._common(where, text, own_token, moment.seed_public)
        self._items(where, text, moment.hidden_in_events(viewer), moment, viewer)
        self._envelope(where, version, body, viewer, body["inputs"]["draws"])

    def _envelope(
        self, where: str, version: int, served: Mapping[str, Any], viewer: int | None, draws: Any
    ) -> None:
        """An event the rules hide from `viewer` is shown redacted, without its chance draws
        (a draw's result is an index into the bag or a shuffle: it would tell the secret)."""
        assert served["type"] == self.timeline.types[version], where
        who = self.timeline.entitled[version]
        if who is None or (viewer is not None and viewer in who):
            return
        self.findings.redacted_seen += 1
        if served.get("redacted") is not True:
            self.findings.leak(where, "shown unredacted")
        if draws:
            self.findings.leak(where, f"its chance draws {draws}")
