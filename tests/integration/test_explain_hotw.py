"""Explaining a ruling of History of the World: every rule that decided it, the readings that
depart from the rulebook's text, and the cards, lands and numbers it used, each printed in the
rulebook or reconstructed."""

from __future__ import annotations

import random

import pytest

from service.games import GameService
from service.queries import GameQueries
from service.rulesets import ruleset

INVASIONS = ("hotw.InvasionSucceeded", "hotw.InvasionFrustrated")


@pytest.fixture()
def played(store, vault) -> tuple[GameQueries, str, list]:
    """A 3-player game played with random legal actions until a few invasions are in its log."""
    service = GameService(store, vault, rulesets=ruleset)
    rules = ruleset("hotw-2024")
    created = service.create_game("hotw-2024", ["a", "b", "c"], {})
    rng = random.Random(3)
    for _ in range(400):
        service.run_system_steps(created.game_id)
        _, game = service.load(created.game_id)
        if rules.is_over(game.state):
            break
        seat = min(rules.awaited_seats(game.state))
        service.handle(
            created.game_id, seat, rng.choice(list(rules.legal_actions(game.state, seat)))
        )
        log = service.events(created.game_id)
        if sum(r.event.type in INVASIONS for r in log) >= 3:
            break
    log = service.events(created.game_id)
    return GameQueries(service), created.game_id, log


def test_an_invasion_with_dice_cites_both_rolls_beside_its_outcome(played):
    queries, game_id, log = played
    invasion = next(r for r in log if r.event.type in INVASIONS)
    explained = queries.explain(game_id, invasion.version, None)
    assert explained["rule"].startswith("hotw24.invasion.dice.")
    assert "hotw24.invasion.dice.enemy-roll" in explained["cites"]
    assert {"hotw24.invasion.dice.empire-roll", "hotw24.invasion.dice.leader"} & set(
        explained["cites"]
    )
    assert [e["id"] for e in explained["cited_entries"]] == explained["cites"]
    assert all(e["page"] and e["text"] for e in explained["cited_entries"])


def test_explain_says_which_land_and_numbers_an_invasion_used_and_where_they_come_from(played):
    queries, game_id, log = played
    invasion = next(r for r in log if r.event.type in INVASIONS)
    used = queries.explain(game_id, invasion.version, None)["data_used"]
    (land,) = [u for u in used if u["what"] == "land"]
    assert land["id"] == invasion.event.land
    assert land["provenance"] == ruleset("hotw-2024").pack.board.lands[land["id"]].provenance
    assert land["printed"] or land["reconstructed"]
    (dice,) = [u for u in used if u["what"] == "numbers"]
    assert dice["id"] == "invasion_dice" and dice["printed"] is True
    assert dice["rule"] == "hotw24.invasion.dice.enemy-roll"


def test_explain_of_an_event_card_reveal_names_the_card_and_its_provenance(played):
    queries, game_id, log = played
    revealed = next(r for r in log if r.event.type == "hotw.EventRevealed")
    used = queries.explain(game_id, revealed.version, None)["data_used"]
    (card,) = [u for u in used if u["what"] == "event card"]
    assert card["id"] == revealed.event.card
    assert card["reconstructed"] is ("reconstructed" in card["provenance"].lower())


def test_explain_shows_the_reading_that_departs_from_the_text_where_it_decided(played):
    """The Epoch I Endgame token is drawn before the players' tokens, the reverse of the
    printed order (hotw24.organization.area-tokens.epoch-one departs from the text): explain
    quotes the words it departs from; an event decided by no departing reading shows none."""
    queries, game_id, log = played
    placed = next(r for r in log if r.event.type == "hotw.EndgameTokenPlaced")
    explained = queries.explain(game_id, placed.version, None)
    assert explained["rule"] == "hotw24.organization.area-tokens.epoch-one"
    (departure,) = explained["departures"]
    assert departure["id"] == "hotw24.organization.area-tokens.epoch-one"
    assert departure["departs_from"] == "One further token is then drawn and shown to all players."
    assert "reverse of the printed order" in departure["reading"]
    invasion = next(r for r in log if r.event.type in INVASIONS)
    assert queries.explain(game_id, invasion.version, None)["departures"] == []
