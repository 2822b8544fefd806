"""What-ifs: a sandbox takes scripted chance ("what if I had rolled a 6?"), a real game never.

Each ruleset is played at random in-process to the first seat's command that draws chance;
that position goes to a sandbox over HTTP with a script of other outcomes for the same draws,
and the command played there must use exactly the script, mark its events scripted, replay
from the sandbox's log, and be audited as scripted, never as committed."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from dataclasses import replace as dc_replace
from typing import Any

import pytest
import yaml

from cli.main import main
from domain.core.chance import Chance, ScriptedChance
from domain.core.kernel import creation_events, decide, fold, position_events, replay
from domain.core.messages import SYSTEM, Command, Recorded
from domain.hotw.editions.ah2001.model import Cell
from service.audit import audit_events
from service.chance import HmacSource
from service.replays import verify_game
from service.rulesets import ruleset
from service.wiring import game_service
from tests.support.api import bearer
from tests.support.spec_check import SpecCheck

SETUPS = [
    ("hotw-2024", ["ann", "bob", "cy"], {}),
    ("hotw-ah2001", ["ann", "bob", "cy"], {}),
    ("hotw-ah2001", ["ann", "bob", "cy"], {"simultaneous_empires": True}),
    ("brief-2009", ["ann", "bob", "cy"], {}),
    ("patchistory", ["ann", "bob"], {}),
]


@dataclass
class BeforeADraw:
    setup: dict[str, Any]
    state: Any
    seat: int
    command: Command
    ranges: list[int]
    """The range n of each draw the command makes, in order."""


def a_position_before_a_draw(name: str, players: list[str], options: dict[str, Any]) -> BeforeADraw:
    """Random legal play, in-process, up to the first command of a seat that draws chance."""
    rules: Any = ruleset(name)
    rng = random.Random(32)
    source = HmacSource(bytes(32))
    events = creation_events(rules, tuple(players), options, "", Chance(source, 0))
    game = replay(rules, [Recorded(i, e, SYSTEM) for i, e in enumerate(events, start=1)])
    for _ in range(5000):
        due = rules.system_action(game.state)
        if due is not None:
            decided = rules.decide_system(game.state, due, Chance(source, game.draws))
            actor: Any = SYSTEM
        else:
            seat = min(rules.awaited_seats(game.state))
            command = rng.choice(list(rules.legal_actions(game.state, seat)))
            trial = Chance(source, game.draws)
            decided = decide(rules, game, seat, command, trial)
            drawn = [d.n for e in decided for d in e.draws]
            if drawn:
                setup = {
                    "ruleset": name,
                    "players": players,
                    "options": dict(game.setup.options),
                    "revision": rules.revision,
                }
                return BeforeADraw(setup, rules.encode_state(game.state), seat, command, drawn)
            actor = seat
        for e in decided:
            game = fold(rules, game, Recorded(game.version + 1, e, actor))
    raise AssertionError(f"no seat of {name} drew chance in 5000 steps")


def a_position_before_a_step_that_draws(name: str, players: list[str]) -> BeforeADraw:
    """Random legal play, in-process, up to a seat's command after which a step no seat takes
    (an epoch closing) is due and draws chance; `ranges`: the draws of the seat's command."""
    rules: Any = ruleset(name)
    rng = random.Random(14)
    source = HmacSource(bytes(32))
    events = creation_events(rules, tuple(players), {}, "", Chance(source, 0))
    game = replay(rules, [Recorded(i, e, SYSTEM) for i, e in enumerate(events, start=1)])
    for _ in range(20000):
        due = rules.system_action(game.state)
        if due is not None:
            decided = rules.decide_system(game.state, due, Chance(source, game.draws))
            for e in decided:
                game = fold(rules, game, Recorded(game.version + 1, e, SYSTEM))
            continue
        seat = min(rules.awaited_seats(game.state))
        command = rng.choice(list(rules.legal_actions(game.state, seat)))
        decided = decide(rules, game, seat, command, Chance(source, game.draws))
        after = game
        for e in decided:
            after = fold(rules, after, Recorded(after.version + 1, e, seat))
        step = rules.system_action(after.state)
        if step is not None:
            trial = Chance(source, after.draws)
            if any(e.draws for e in rules.decide_system(after.state, step, trial)):
                setup = {"ruleset": name, "players": players, "options": {}}
                ranges = [d.n for e in decided for d in e.draws]
                return BeforeADraw(setup, rules.encode_state(game.state), seat, command, ranges)
        game = after
    raise AssertionError(f"no step of {name} drew chance in 20000 moves")


def other_outcomes(ranges: list[int]) -> list[list[int]]:
    """A script for the same draws, each the highest outcome (a 6 on a die)."""
    return [[n, n - 1] for n in ranges]


def new_source(api, setup: dict[str, Any]) -> tuple[str, dict[str, str]]:
    created = api.post(
        "/games",
        json={
            "ruleset": setup["ruleset"],
            "players": setup["players"],
            "options": setup["options"],
        },
    )
    assert created.status_code == 201, created.get_json()
    return created.get_json()["game_id"], bearer(created.get_json()["admin_token"])


def sandbox(api, source: str, admin: dict[str, str], position: dict[str, Any], chance: Any):
    body: dict[str, Any] = {"position": position}
    if chance is not None:
        body["chance"] = chance
    return api.post(f"/games/{source}/sandbox", json=body, headers=admin)


@pytest.mark.parametrize(
    ("name", "players", "options"),
    SETUPS,
    ids=["hotw-2024", "hotw-ah2001", "hotw-ah2001-simultaneous", "brief-2009", "patchistory"],
)
def test_a_sandbox_plays_a_what_if_on_its_script_in_every_ruleset(
    api, redis_url, name, players, options
):
    before = a_position_before_a_draw(name, players, options)
    script = other_outcomes(before.ranges)
    position = {"setup": before.setup, "state": before.state}
    source, admin = new_source(api, before.setup)
    answer = sandbox(api, source, admin, position, {"draws": script})
    assert answer.status_code == 201, answer.get_json()
    made = answer.get_json()
    game_id, token = made["game_id"], bearer(made["seat_tokens"][before.seat])

    played = api.post(
        f"/games/{game_id}/commands",
        json={"command": before.command.as_dict(), "expected_version": made["version"]},
        headers=token,
    )
    assert played.status_code == 201, played.get_json()
    seen = played.get_json()["events"]
    for e in seen:  # as the seat sees them (another seat's private draw is redacted)
        assert e.get("scripted", False) is bool(e.get("draws"))
    records = log_of(redis_url, game_id)
    events = [r.as_dict() for r in records[3:]]
    assert len(events) == len(seen)
    drawn = [d for e in events for d in e.get("draws", [])]
    assert [[n, r] for _, n, r in drawn] == script  # the script, in order, nothing else
    assert [k for k, _, _ in drawn] == list(range(len(script)))
    for e in events:
        assert e.get("scripted", False) is bool(e.get("draws"))

    # the same decision, re-decided by the rules on the same script, gives the same events
    rules: Any = ruleset(name)
    assert [r.event.type for r in records[:3]] == [
        "GameCreated",
        "PositionLoaded",
        "ChanceScripted",
    ]
    fresh = replay(rules, records[:3])
    assert fresh.chance_script == tuple(tuple(entry) for entry in script)
    again = decide(rules, fresh, before.seat, before.command, ScriptedChance(script_of(script), 0))
    assert [e.data() for e in again] == [e["data"] for e in events]

    # the log replays to the sandbox's state, and the audit says its chance was scripted
    whole = replay(rules, records)
    state = api.get(f"/games/{game_id}/state", headers=token).get_json()
    assert state["version"] == whole.version
    assert state["view"] == json.loads(json.dumps(rules.view(whole.state, before.seat)))
    audit = api.get(f"/games/{game_id}/audit").get_json()
    assert audit["chance"] == "scripted" and audit["commitment_verified"] is False
    assert audit["outcomes_checked"] == len(script) and audit["clean"] is True
    service = game_service(redis_url)
    service.write_snapshot(game_id)
    report = verify_game(service, game_id)  # what `chronicle replay --verify` runs
    assert report.ok and report.snapshots_checked == 1
    _, from_snapshot = game_service(redis_url).load(game_id)  # a fresh cache: the snapshot
    assert from_snapshot.chance_script == script_of(script)
    assert from_snapshot.draws == len(script)
    told = [  # each seat's narrative: the scripted draws told where the seat sees them
        entry
        for seat_token in made["seat_tokens"]
        for entry in api.get(
            f"/games/{game_id}/narrative?from=4", headers=bearer(seat_token)
        ).get_json()["entries"]
    ]
    assert any(entry["scripted"] and entry["draws"] for entry in told)
    assert all(entry["scripted"] is bool(entry["draws"]) for entry in told)


def log_of(redis_url: str, game_id: str) -> list[Recorded]:
    """The sandbox's whole log as stored (private events in full)."""
    return game_service(redis_url).events(game_id)


def script_of(script: list[list[int]]) -> tuple[tuple[int, int], ...]:
    return tuple((n, r) for n, r in script)


def test_a_script_that_runs_out_refuses_the_command_and_records_nothing(api):
    before = a_position_before_a_draw("brief-2009", ["ann", "bob", "cy"], {})
    short = other_outcomes(before.ranges)[:-1] or None
    source, admin = new_source(api, before.setup)
    position = {"setup": before.setup, "state": before.state}
    if short is None:  # a one-draw command: a script of one entry of another range
        made = sandbox(api, source, admin, position, {"draws": [[before.ranges[0] + 1, 0]]})
    else:
        made = sandbox(api, source, admin, position, {"draws": short})
    assert made.status_code == 201, made.get_json()
    game_id = made.get_json()["game_id"]
    token = bearer(made.get_json()["seat_tokens"][before.seat])
    refused = api.post(
        f"/games/{game_id}/commands", json={"command": before.command.as_dict()}, headers=token
    )
    body = refused.get_json()
    assert refused.status_code == 409, body
    assert body["code"] == (
        "chance_script_mismatch" if short is None else "chance_script_exhausted"
    )
    assert body["current_version"] == made.get_json()["version"]
    assert "script" in body["message"] and set(body) <= {
        "code",
        "message",
        "details",
        "current_version",
    }
    assert api.get(f"/games/{game_id}").get_json()["version"] == made.get_json()["version"]


def test_dice_faces_of_another_range_than_the_draw_are_refused_as_a_mismatch(api):
    before = a_position_before_a_draw("patchistory", ["ann", "bob"], {})
    assert before.ranges[0] != 6  # Patchistory rolls no die: a face cannot be its draw
    source, admin = new_source(api, before.setup)
    position = {"setup": before.setup, "state": before.state}
    made = sandbox(api, source, admin, position, {"faces": [6] * len(before.ranges)})
    token = bearer(made.get_json()["seat_tokens"][before.seat])
    refused = api.post(
        f"/games/{made.get_json()['game_id']}/commands",
        json={"command": before.command.as_dict()},
        headers=token,
    )
    assert refused.status_code == 409 and refused.get_json()["code"] == "chance_script_mismatch"
    assert refused.get_json()["details"]["scripted"] == [6, 5]


@pytest.mark.parametrize(
    ("chance", "code"),
    [
        ({"faces": [6, 7]}, "invalid_chance_script"),
        ({"faces": [0]}, "invalid_chance_script"),
        ({"draws": [[6, 6]]}, "invalid_chance_script"),
        ({"draws": [[0, 0]]}, "invalid_chance_script"),
        ({"faces": [6], "draws": [[6, 5]]}, "invalid_chance_script"),
        ({}, "invalid_chance_script"),
        ({"faces": []}, "invalid_request"),
        ({"faces": ["6"]}, "invalid_request"),
        ({"draws": [[6, 1, 2]]}, "invalid_request"),
        ({"seed": "00"}, "invalid_request"),
    ],
)
def test_a_script_that_cannot_be_used_is_a_4xx_with_one_error_body(api, chance, code):
    before = a_position_before_a_draw("hotw-ah2001", ["ann", "bob", "cy"], {})
    source, admin = new_source(api, before.setup)
    position = {"setup": before.setup, "state": before.state}
    refused = sandbox(api, source, admin, position, chance)
    expected = 422 if code == "invalid_chance_script" else 400
    assert refused.status_code == expected, refused.get_json()
    assert refused.get_json()["code"] == code
    assert set(refused.get_json()) <= {"code", "message", "details"}


def test_a_real_game_refuses_a_script(api):
    refused = api.post(
        "/games",
        json={"ruleset": "hotw-ah2001", "players": ["a", "b", "c"], "chance": {"faces": [6]}},
    )
    assert refused.status_code == 400
    assert refused.get_json()["code"] == "chance_script_refused"
    assert "sandbox" in refused.get_json()["message"]


def test_a_sandbox_without_a_script_keeps_its_committed_seed_and_unmarked_draws(api, redis_url):
    before = a_position_before_a_draw("hotw-2024", ["ann", "bob", "cy"], {})
    source, admin = new_source(api, before.setup)
    made = sandbox(api, source, admin, {"setup": before.setup, "state": before.state}, None)
    game_id = made.get_json()["game_id"]
    token = bearer(made.get_json()["seat_tokens"][before.seat])
    played = api.post(
        f"/games/{game_id}/commands", json={"command": before.command.as_dict()}, headers=token
    )
    assert played.status_code == 201, played.get_json()
    assert all("scripted" not in e for e in played.get_json()["events"])
    assert "ChanceScripted" not in [r.event.type for r in log_of(redis_url, game_id)]
    assert api.get(f"/games/{game_id}/audit").status_code == 409  # seed_not_revealed, as ever


@pytest.mark.rulebook_example("ah2001.example.mongols-great-wall")
def test_the_mongols_take_wei_river_in_a_sandbox_with_the_rulebooks_printed_dice(api, redis_url):
    """ah2001.example.mongols-great-wall, over HTTP: a Leader's three dice against two (the Great
    Wall) and +1 for the fort: 6 v 7 loses; 5 v 5 ties, the fort goes with the Mongol army;
    6 v 5 wins, and the capital becomes a city. The printed dice are the sandbox's script."""
    from tests.unit.ah2001.test_engine import playing

    rules: Any = ruleset("hotw-ah2001")
    wei_river = Cell(1, 4, frozenset({"capital", "fort"}))
    state = playing("mongols", 5, {"mongolia": Cell(0, 5), "wei-river": wei_river})
    state = dc_replace(state, turn=dc_replace(state.turn, leader=True))
    setup = {"ruleset": "hotw-ah2001", "players": ["ann", "bob", "cy"], "options": {}}
    position = {"setup": setup, "state": rules.encode_state(state)}
    printed = [*(4, 6, 6, 1, 6), *(2, 4, 5, 3, 4), *(1, 2, 6, 2, 5)]  # three battles
    source, admin = new_source(api, setup)
    made = sandbox(api, source, admin, position, {"faces": printed})
    assert made.status_code == 201, made.get_json()
    game_id = made.get_json()["game_id"]
    mongols = bearer(made.get_json()["seat_tokens"][0])
    attack = {"type": "place_army", "land": "wei-river", "via": "land"}
    battles = []
    for _ in range(3):
        played = api.post(f"/games/{game_id}/commands", json={"command": attack}, headers=mongols)
        assert played.status_code == 201, played.get_json()
        battles.extend(e for e in played.get_json()["events"] if e["type"].endswith("BattleFought"))
    fought = [
        (b["data"]["attack_dice"], b["data"]["defence_dice"], b["data"]["result"]) for b in battles
    ]
    assert fought == [
        ([4, 6, 6], [1, 6], "attacker_lost"),
        ([2, 4, 5], [3, 4], "fort_and_attacker_lost"),
        ([1, 2, 6], [2, 5], "defender_lost"),
    ]
    assert all(b["scripted"] for b in battles)
    assert [(b["data"]["attack"], b["data"]["defence"]) for b in battles] == [
        (6, 7),
        (5, 5),
        (6, 5),
    ]
    audit = api.get(f"/games/{game_id}/audit").get_json()
    assert (audit["chance"], audit["outcomes_checked"], audit["clean"]) == ("scripted", 15, True)

    # every answer fits the published document: the scripted events, the audit, the narrative
    spec = SpecCheck(yaml.safe_load(api.get("/openapi.yaml").get_data(as_text=True)))
    feed = api.get(f"/games/{game_id}/events", headers=mongols)
    narrative = api.get(f"/games/{game_id}/narrative?from=1", headers=mongols)
    served = [
        ("/games/{game_id}/audit", "get", audit),
        ("/games/{game_id}/events", "get", feed.get_json()),
        ("/games/{game_id}/narrative", "get", narrative.get_json()),
    ]
    failures = [
        failure
        for path, method, body in served
        for failure in spec.failures(
            spec.schema_of(path, method, 200, "application/json"), body, path
        )
    ]
    event = spec.component("Event")
    failures += [f for b in battles for f in spec.failures(event, b, "BattleFought")]
    assert not failures, failures
    assert sum(1 for e in feed.get_json()["events"] if e.get("scripted")) == 3
    assert "scripted" in narrative.get_json()["entries"][2]["words"]
    records = log_of(redis_url, game_id)
    assert audit_events(game_id, records).as_dict() == audit  # the server's audit, re-done
    held = replay(rules, records).state.land("wei-river")
    assert (held.owner, held.buildings) == (0, frozenset({"city"}))


def test_chronicle_audit_says_a_scripted_sandboxs_chance_was_scripted(api, redis_url, capsys):
    before = a_position_before_a_draw("hotw-2024", ["ann", "bob", "cy"], {})
    source, admin = new_source(api, before.setup)
    position = {"setup": before.setup, "state": before.state}
    made = sandbox(api, source, admin, position, {"draws": other_outcomes(before.ranges)})
    game_id = made.get_json()["game_id"]
    token = bearer(made.get_json()["seat_tokens"][before.seat])
    played = api.post(
        f"/games/{game_id}/commands", json={"command": before.command.as_dict()}, headers=token
    )
    assert played.status_code == 201, played.get_json()
    capsys.readouterr()
    assert main(["audit", game_id, "--redis-url", redis_url]) == 0
    said = capsys.readouterr().out
    assert "chance SCRIPTED" in said and "commitment verified" not in said
    assert f"{len(before.ranges)} outcomes checked against the script: clean" in said


def test_a_command_whose_due_step_the_script_cannot_serve_is_refused_not_left_closing(api):
    """An epoch's close draws (the next epoch's cards): a script covering only the seat's own
    move refuses that move, rather than leave the sandbox closing on a step it cannot take."""
    before = a_position_before_a_step_that_draws("hotw-2024", ["ann", "bob", "cy"])
    script = other_outcomes(before.ranges) or [[1000, 0]]  # no draw of the step's range
    source, admin = new_source(api, before.setup)
    position = {"setup": before.setup, "state": before.state}
    made = sandbox(api, source, admin, position, {"draws": script})
    assert made.status_code == 201, made.get_json()
    game_id = made.get_json()["game_id"]
    token = bearer(made.get_json()["seat_tokens"][before.seat])
    refused = api.post(
        f"/games/{game_id}/commands", json={"command": before.command.as_dict()}, headers=token
    )
    assert refused.status_code == 409, refused.get_json()
    assert refused.get_json()["code"] in {"chance_script_exhausted", "chance_script_mismatch"}
    summary = api.get(f"/games/{game_id}").get_json()
    assert (summary["version"], summary["status"]) == (made.get_json()["version"], "active")

    # with enough draws for the close as well, the move and the close are played on the script
    rules: Any = ruleset("hotw-2024")
    rolled = a_long_script(rules, before, 400)
    enough = sandbox(api, source, admin, position, {"draws": rolled})
    game_id = enough.get_json()["game_id"]
    token = bearer(enough.get_json()["seat_tokens"][before.seat])
    played = api.post(
        f"/games/{game_id}/commands", json={"command": before.command.as_dict()}, headers=token
    )
    assert played.status_code == 201, played.get_json()
    summary = api.get(f"/games/{game_id}").get_json()
    assert summary["status"] == "active" and summary["version"] > played.get_json()["version"]
    assert api.get(f"/games/{game_id}/audit").get_json()["clean"] is True


def a_long_script(rules: Any, before: BeforeADraw, most: int) -> list[list[int]]:
    """The draws the seat's move and the steps after it make on the seed `HmacSource(b"1" * 32)`,
    as a script (what a table would write to replay them)."""
    game = replay(
        rules,
        [
            Recorded(i, e, SYSTEM)
            for i, e in enumerate(
                position_events(
                    rules,
                    tuple(before.setup["players"]),
                    {},
                    "",
                    before.state,
                    "source",
                ),
                start=1,
            )
        ],
    )
    source = HmacSource(b"1" * 32)
    drawn: list[list[int]] = []
    decided = decide(rules, game, before.seat, before.command, Chance(source, 0))
    for e in decided:
        drawn += [[d.n, d.result] for d in e.draws]
        game = fold(rules, game, Recorded(game.version + 1, e, before.seat))
    while (step := rules.system_action(game.state)) is not None and len(drawn) < most:
        for e in rules.decide_system(game.state, step, Chance(source, game.draws)):
            drawn += [[d.n, d.result] for d in e.draws]
            game = fold(rules, game, Recorded(game.version + 1, e, SYSTEM))
    return drawn
