"""The conformance kit itself: each of its checks passes the toy and fails a toy broken in the
way it looks for (so a green conformance run means something)."""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Any

from domain.core.chance import Chance
from domain.core.errors import IllegalAction
from domain.core.messages import Command, Event, event, private_to
from domain.core.ruleset import Decision
from tests.support import conformance as kit
from tests.support.toy import SealedBids, ToyBidSealed, ToyState

GAMES = range(6)
"""Six games: every player count, rounds from one to five, with and without the bonus."""
CATALOGUE = kit.load_catalogue(kit.CATALOGUE_FILES["toy-sealed-bids"])
BID_WORDS = ("nothing", "one-chip", "two-chips", "three-chips", "four-chips", "five-chips")


class Toy(SealedBids):
    name = "kit-toy"


class BreaksAnInvariant(Toy):
    name = "kit-breaks-an-invariant"

    def invariant_failures(self, state: ToyState) -> list[str]:
        return [f"round {state.round} is past the first"] if state.round > 1 else []


class DecidesAStaleState(Toy):
    name = "kit-decides-a-stale-state"

    def decision(self, state: ToyState, seat: int, command: Command, chance: Chance) -> Decision:
        return Decision(self.decide(state, seat, command, chance), state)


class ForgetsTheSeatingInItsJson(Toy):
    name = "kit-forgets-the-seating"

    def decode_state(self, data: Any) -> ToyState:
        return replace(super().decode_state(data), order=())


class ListsInAnotherOrderEachTime(Toy):
    name = "kit-lists-in-another-order"
    calls = itertools.count()

    def legal_actions(self, state: ToyState, seat: int) -> list[Command]:
        listed = list(super().legal_actions(state, seat))
        return listed[::-1] if next(self.calls) % 2 else listed


class RefusesABidOfNothing(Toy):
    name = "kit-refuses-a-bid-of-nothing"

    def is_legal(self, state: ToyState, seat: int, command: Command) -> bool:
        return command != Command.of("bid", chips=0) and super().is_legal(state, seat, command)

    def refusal(self, state: ToyState, seat: int, command: Command) -> Exception:
        return IllegalAction("no bid of nothing", "toy.bid")


class CitesAnUnknownRule(Toy):
    name = "kit-cites-an-unknown-rule"

    def refusal(self, state: ToyState, seat: int, command: Command) -> Exception:
        return IllegalAction("no", "toy.no-such-rule")


class ShowsEverySealedBid(Toy):
    name = "kit-shows-every-sealed-bid"

    def view(self, state: ToyState, viewer: int | None) -> dict[str, Any]:
        body = super().view(state, viewer)
        body["sealed"] = {str(s): c for s, c in (state.sealed or {}).items()}
        return body


class ShowsHowManyChipsAreSealed(Toy):
    """A subtler leak: no bid itself, only the total of the sealed bids."""

    name = "kit-shows-the-sealed-total"

    def view(self, state: ToyState, viewer: int | None) -> dict[str, Any]:
        return super().view(state, viewer) | {"sealed_total": sum((state.sealed or {}).values())}


@event
class KitWordBidSealed(ToyBidSealed):
    """A sealed bid that also names its bid in words (a string secret)."""

    word: str


class BidsInWords(Toy):
    name = "kit-bids-in-words"

    def _seal_bid(self, state: ToyState, seat: int, chips: int) -> list[Event]:
        sealed, *rest = super()._seal_bid(state, seat, chips)
        worded = KitWordBidSealed(
            rule=sealed.rule,
            seat=seat,
            chips=chips,
            word=BID_WORDS[chips],
            visibility=private_to(seat, redacted={"seat": seat}),
        )
        return [worded, *rest]


class ShowsTheLastBidInWords(BidsInWords):
    name = "kit-shows-the-last-bid-in-words"

    def view(self, state: ToyState, viewer: int | None) -> dict[str, Any]:
        bids = [BID_WORDS[c] for c in (state.sealed or {}).values()]
        return super().view(state, viewer) | {"last_bid": bids[-1] if bids else None}


def subject(cls: type[Toy]) -> kit.Subject:
    return _SUBJECTS.setdefault(cls, kit.Subject(cls(), CATALOGUE))


_SUBJECTS: dict[type[Toy], kit.Subject] = {}


def runs(cls: type[Toy]) -> list[kit.Playthrough]:
    return list(kit.playthroughs(subject(cls), GAMES))


def all_of(check, cls: type[Toy]) -> list[str]:
    """What `check` finds in the games of `cls` (checks answer a list, a (list, count) pair,
    or an object with `failures`)."""
    found: list[str] = []
    for run in runs(cls):
        result = check(run)
        if isinstance(result, tuple):
            result = result[0]
        found += result if isinstance(result, list) else result.failures
    return found


def test_the_toy_passes_every_check_of_the_kit():
    for check in (
        kit.replay_failures,
        kit.codec_failures,
        kit.legal_action_failures,
        kit.refusal_failures,
        kit.indistinguishable_failures,
        kit.hidden_word_failures,
        kit.position_failures,
    ):
        assert all_of(check, Toy) == [], check.__name__
    assert [f for run in runs(Toy) for f in run.failures] == []
    assert all_of(kit.indistinguishable_failures, BidsInWords) == []
    assert all_of(kit.hidden_word_failures, BidsInWords) == []


def test_the_kit_reports_a_broken_invariant_with_its_game_and_event():
    found = [f for run in runs(BreaksAnInvariant) for f in run.failures]
    assert found
    assert "kit-breaks-an-invariant game" in found[0] and "round 2 is past the first" in found[0]


def test_the_kit_reports_a_decision_whose_state_is_not_the_fold_of_its_events():
    found = all_of(kit.replay_failures, DecidesAStaleState)
    assert found and "not the fold of its events" in found[0]


def test_the_kit_reports_a_state_that_does_not_survive_its_json_form():
    assert all_of(kit.codec_failures, ForgetsTheSeatingInItsJson)
    found = all_of(kit.position_failures, ForgetsTheSeatingInItsJson)
    assert found and "has another state" in found[0]


def test_the_kit_reports_a_listing_in_another_order_and_a_listed_action_refused():
    assert any(
        "another order" in f for f in all_of(kit.legal_action_failures, ListsInAnotherOrderEachTime)
    )
    found = all_of(kit.legal_action_failures, RefusesABidOfNothing)
    assert any("is_legal refuses the listed" in f for f in found)


def test_the_kit_reports_a_refusal_citing_a_rule_missing_from_the_catalogue():
    found = all_of(kit.refusal_failures, CitesAnUnknownRule)
    assert found and all("'toy.no-such-rule', not in the catalogue" in f for f in found)


def test_the_kit_reports_a_view_that_shows_another_seats_sealed_bid():
    found = all_of(kit.indistinguishable_failures, ShowsEverySealedBid)
    assert found and "/view/sealed" in found[0]
    assert any(
        "/view/sealed_total" in f
        for f in all_of(kit.indistinguishable_failures, ShowsHowManyChipsAreSealed)
    )


def test_the_kit_reports_a_view_that_names_a_hidden_word():
    found = all_of(kit.hidden_word_failures, ShowsTheLastBidInWords)
    assert found and "from events hidden from it" in found[0]
