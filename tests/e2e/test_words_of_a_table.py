"""A table's log read as people read it (issue 48, point 4): a table opened, claimed, started
with a bot, a seat handed to a bot and taken back, a clock run out, everyone resigned and the
table abandoned, all through the API, then read through `GET /narrative` and Explain: every
entry a sentence with names, and every seating event among them."""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest

from domain.core.seating import SEATING_EVENTS
from service.rulesets import ruleset
from service.tables import fire_timeouts
from service.wiring import game_service
from tests.support.words import NOT_SENTENCES, NOT_WORDS, SLUG, key_value_dump


def player(api, name: str) -> str:
    answer = api.post("/players", json={"name": name})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()["player_key"]


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def flaws(text: str, event_type: str) -> list[str]:
    found = [what for pattern, what in NOT_WORDS if what != SLUG and pattern.search(text)]
    found += [what for pattern, what in NOT_SENTENCES if pattern.search(text)]
    return found + (["its type and fields"] if key_value_dump(text, event_type) else [])


def played_table(api, redis_url: str) -> tuple[str, Any]:
    """A hotw-2024 table taken through every seating event by its people, through the API."""
    ada, bob = player(api, "Ada"), player(api, "Bob")
    table = api.post(
        "/tables",
        json={
            "ruleset": "hotw-2024",
            "players": ["Ada", "Bob", "Cy"],
            "listing": "private",
            "clock": {"kind": "move", "per_move_ms": 1000},
            "on_timeout": "bot",
        },
        headers=bearer(ada),
    ).get_json()
    game_id = table["game_id"]
    claim = {"invitation": table["invitation"]}
    assert api.post(f"/games/{game_id}/claims", json=claim, headers=bearer(bob)).status_code == 201
    started = api.post(f"/games/{game_id}/start", json={"strategy": "greedy"}, headers=bearer(ada))
    assert started.status_code == 200, started.get_json()
    handed = api.post(f"/games/{game_id}/bot", json={"strategy": "random"}, headers=bearer(bob))
    assert handed.status_code == 200, handed.get_json()
    assert api.delete(f"/games/{game_id}/bot", headers=bearer(bob)).status_code == 200
    time.sleep(1.2)  # the awaited person's move deadline passes: the worker's watch times it out
    assert fire_timeouts(game_service(redis_url), game_id) == 1
    for key in (ada, bob):
        resigned = api.post(f"/games/{game_id}/resign", headers=bearer(key))
        assert resigned.status_code in (200, 422), resigned.get_json()
    return game_id, api.get(f"/games/{game_id}/narrative?limit=500").get_json()


def test_a_tables_log_from_opening_to_abandonment_reads_in_sentences(api, redis_url) -> None:
    _, narrative = played_table(api, redis_url)
    entries = narrative["entries"]
    kinds = {e["type"] for e in entries}
    assert {cls.__name__ for cls in SEATING_EVENTS} <= kinds, sorted(kinds)
    wrong = [
        f"{e['type']}: {e['words']!r}: {flaw}"
        for e in entries
        for flaw in flaws(e["words"], e["type"])
    ]
    assert wrong == [], "\n".join(wrong)
    said = {e["type"]: e["words"] for e in entries}
    assert said["TableOpened"].startswith("The table opened: Ada sits down and 2 seats are open")
    assert "Bob took a seat" in said["SeatClaimed"]
    assert "Bob resigned" in said.get("SeatResigned", "") or "Ada resigned" in said["SeatResigned"]
    assert said["TableAbandoned"] == "No person is left at the table: the game ends here."


def test_explain_gives_a_seating_events_inputs_in_words(api, redis_url) -> None:
    game_id, narrative = played_table(api, redis_url)
    names = ruleset("hotw-2024").names()
    wrong = []
    for entry in narrative["entries"]:
        if entry["type"] not in {cls.__name__ for cls in SEATING_EVENTS} and entry["version"] > 12:
            continue
        explained = api.get(f"/games/{game_id}/events/{entry['version']}/explain").get_json()
        assert explained["words"] == entry["words"]
        for item in explained["inputs"]["words"]:
            if item["label"] in ("Pack digest", "Seed commitment", "Seed"):
                continue  # hex by nature: what an audit checks against
            found = [w for p, w in NOT_SENTENCES[1:] if p.search(item["value"])]
            found += [f"the id {v}" for v in names if v in item["value"].split()]
            wrong += [f"{entry['type']} {item}: {what}" for what in found]
    assert wrong == [], "\n".join(wrong)
    claimed = next(e for e in narrative["entries"] if e["type"] == "SeatClaimed")
    inputs = api.get(f"/games/{game_id}/events/{claimed['version']}/explain").get_json()["inputs"]
    assert {"label": "Seat", "value": "Bob"} in inputs["words"]


def test_the_lobbys_option_help_and_the_rules_cited_read_in_words(api) -> None:
    """What `GET /rulesets` says of each option, and where Explain says a rule stands: no rule
    id, no repository path, no file name."""
    from tests.unit.test_words_not_ids import RULE_ID

    wrong = []
    for listed in api.get("/rulesets").get_json()["rulesets"]:
        for option in listed["options"]:
            text = option["description"]
            found = ["a rule id"] if RULE_ID.search(text) else []
            found += [what for pattern, what in NOT_SENTENCES if pattern.search(text)]
            found += ["a path"] if "/" in text else []
            wrong += [f"{listed['name']} {option['name']}: {text!r}: {what}" for what in found]
    assert wrong == [], "\n".join(wrong)
    rules = ruleset("hotw-ah2001")
    variant = [entry for entry in rules.pack.rules if entry.id.startswith("ah2001.variant.")]
    assert variant and all(".txt" not in e.citation and ".txt" not in e.heading for e in variant)
    assert any(e.citation.startswith("Simultaneous Empires variant, rule") for e in variant)


# --- battles and conquests name the Empire (issue 48, point 4) -------------------------------

FIGHTS = {
    "hotw-2024": {"hotw.InvasionSucceeded", "hotw.InvasionFrustrated", "hotw.LandConquered"},
    "hotw-ah2001": {"ah2001.BattleFought"},
    "brief-2009": {"brief.InvasionRolled", "brief.LandOverrun"},
}


def empire_names(name: str) -> set[str]:
    """The Empires of a ruleset by name (with AH2001's and Brief's Event cards that raise one)."""
    rules: Any = ruleset(name)
    if name == "hotw-2024":
        return {spec.name for card in rules.pack.cards.all_empires() for spec in card.empires}
    return {e.name for e in rules.tables.empires} | {c.name for c in rules.tables.events}


def played_until_fights(api, redis_url, name: str, options: dict[str, Any], fights: int) -> str:
    """A game of `name` played through the API by random legal moves until `fights` battles
    (invasions, conquests) are logged."""
    made = game_service(redis_url).create_game(
        name, ["Ada", "Bot 1", "Cy"], options, seed=b"e" * 32
    )
    url, rng, seen = f"/games/{made.game_id}", random.Random(48), 0
    while seen < fights:
        summary = api.get(url).get_json()
        assert summary["status"] != "finished", f"only {seen} fights in a whole game"
        seat = rng.choice(summary["awaiting"])
        head = bearer(made.tokens.seats[seat])
        legal = api.get(f"{url}/legal-actions", headers=head).get_json()
        moves = [a for a in legal["actions"] if a["command"]["type"] not in ("resign",)]
        posted = api.post(f"{url}/commands", json=rng.choice(moves), headers=head)
        assert posted.status_code == 201, posted.get_json()
        seen += sum(e["type"] in FIGHTS[name] for e in posted.get_json()["events"])
    return made.game_id


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("hotw-2024", {}),
        ("hotw-ah2001", {}),
        ("hotw-ah2001", {"simultaneous_empires": True}),
        ("brief-2009", {}),
    ],
    ids=["hotw-2024", "hotw-ah2001", "simultaneous-empires", "brief-2009"],
)
def test_the_log_says_whose_empire_fought_in_every_page_and_in_explain(
    api, redis_url, name, options
):
    """`Bot 1's Mongols attacked Cy in ...`: each battle, invasion and conquest names the
    attacker's Empire as well as its player, read whole or a short page from mid-game (each
    page knows the Empires in play from the game before its first event), and Explain says
    the same."""
    game_id = played_until_fights(api, redis_url, name, options, fights=3)
    whole = api.get(f"/games/{game_id}/narrative?limit=500").get_json()["entries"]
    fights = [e for e in whole if e["type"] in FIGHTS[name]]
    by_empires = [e for e in fights if e["data"].get("pool") != "event"]  # not an Event's pieces
    assert by_empires
    empires = empire_names(name)
    for entry in by_empires:
        assert re.match(r"(Ada|Bot 1|Cy)'s ", entry["words"]), entry["words"]
        named = entry["words"].split("'s ", 1)[1]
        assert any(named.startswith(empire + " ") for empire in empires), entry["words"]
    told = {e["version"]: e["words"] for e in whole}
    start = fights[0]["version"] - 2
    page = api.get(f"/games/{game_id}/narrative?from={start}&limit=5").get_json()["entries"]
    assert [e["words"] for e in page] == [told[e["version"]] for e in page]
    explained = api.get(f"/games/{game_id}/events/{fights[-1]['version']}/explain").get_json()
    assert explained["words"] == fights[-1]["words"]
