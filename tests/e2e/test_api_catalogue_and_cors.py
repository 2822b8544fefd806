"""Rules-catalogue entries in explanations and refusals; cross-origin headers."""

from __future__ import annotations

from types import SimpleNamespace

from api.app import create_app
from domain.core.catalogue import RuleEntry, RulesCatalogue
from service.rulesets import ruleset
from tests.support.api import TOY, bearer, create_toy

CATALOGUE = RulesCatalogue(
    TOY,
    {
        "toy.bid": RuleEntry("toy.bid", "2", "Bidding", "Seal a bid of at most your chips."),
        "toy.setup": RuleEntry("toy.setup", "1", "Setup", "Two to four players."),
    },
)


def test_explanations_and_refusals_cite_the_rules_catalogue_entry(api, monkeypatch):
    monkeypatch.setattr(ruleset(TOY), "pack", SimpleNamespace(rules=CATALOGUE))
    game = create_toy(api, players=2)
    headers = bearer(game["seat_tokens"][0])
    url = f"/games/{game['game_id']}/commands"
    api.post(url, json={"command": {"type": "bid", "chips": 1}}, headers=headers)
    explained = api.get(f"/games/{game['game_id']}/events/3/explain", headers=headers).get_json()
    assert explained["rule_entry"] == {
        "id": "toy.bid",
        "page": "2",
        "section": "Bidding",
        "text": "Seal a bid of at most your chips.",
        "reading": "",
        "departs_from": "",
        "citation": "p. 2, Bidding",
    }
    assert explained["cites"] == [] and explained["departures"] == []
    assert explained["data_used"] == []  # the toy has no data pack to cite
    seating = api.get(f"/games/{game['game_id']}/events/2/explain").get_json()
    assert seating["rule"] == "toy.seating" and seating["rule_entry"] is None
    refused = api.post(
        url, json={"command": {"type": "bid", "chips": 9}}, headers=bearer(game["seat_tokens"][1])
    ).get_json()
    assert refused["rule"] == "toy.bid"
    assert refused["details"]["rule_entry"]["text"] == "Seal a bid of at most your chips."


def test_any_origin_may_call_when_cors_allows_every_origin(redis_url):
    app = create_app(redis_url, CORS_ORIGINS=("*",))
    response = app.test_client().get("/rulesets", headers={"Origin": "http://a.example"})
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    error = app.test_client().get("/games/nope", headers={"Origin": "http://a.example"})
    assert error.status_code == 404 and error.headers["Access-Control-Allow-Origin"] == "*"


def test_without_configured_origins_no_cross_origin_headers_are_sent(api):
    response = api.get("/rulesets", headers={"Origin": "http://a.example"})
    assert response.status_code == 200
    assert "Access-Control-Allow-Origin" not in response.headers
