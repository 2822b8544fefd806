"""Tables that run themselves, through the API on a real Redis (issue 35): players, open seats
and invitations, the lobby, bots in seats, resigning, and the bad input of each."""

from __future__ import annotations

import json
import time

import pytest

from domain.core.kernel import replay
from service.audit import audit_events
from service.games import GameService
from service.replays import verify_game
from service.wiring import game_service

TOY = "toy-sealed-bids"


def player(api, name: str) -> tuple[str, str]:
    answer = api.post("/players", json={"name": name})
    assert answer.status_code == 201, answer.get_json()
    body = answer.get_json()
    assert body["player_key"].startswith("pk_")
    return body["player_id"], body["player_key"]


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def open_table(api, key: str, **body) -> dict:
    request = {"ruleset": TOY, "players": ["North", "South"], "options": {"rounds": 1}, **body}
    answer = api.post("/tables", json=request, headers=bearer(key))
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def play_out(api, game_id: str, tokens: dict[int, str], limit: int = 200) -> None:
    """Each awaited seat with a token plays its first legal action until none is awaited."""
    for _ in range(limit):
        summary = api.get(f"/games/{game_id}").get_json()
        awaited = [s for s in summary["awaiting"] if s in tokens]
        if summary["status"] == "finished" or not awaited:
            return
        seat = awaited[0]
        actions = api.get(f"/games/{game_id}/legal-actions", headers=bearer(tokens[seat]))
        first = actions.get_json()["actions"][0]
        posted = api.post(f"/games/{game_id}/commands", json=first, headers=bearer(tokens[seat]))
        assert posted.status_code in (201, 409), posted.get_json()


def types_of(api, game_id: str) -> list[str]:
    return [e["type"] for e in api.get(f"/games/{game_id}/events?limit=500").get_json()["events"]]


def test_a_player_key_is_stored_hashed_and_names_the_player(api, client) -> None:
    _, key = player(api, "Ada")
    me = api.get("/players/me", headers=bearer(key))
    assert me.status_code == 200 and me.get_json()["name"] == "Ada"
    for name in client.keys("chronicle:player*"):
        assert key not in name
        if client.type(name) == "hash":
            assert key not in json.dumps(client.hgetall(name))
    assert api.get("/players/me", headers=bearer("pk_nobody")).status_code == 401


def test_a_public_table_is_in_the_lobby_until_it_fills_then_starts(api) -> None:
    _, ada = player(api, "Ada")
    _, bob = player(api, "Bob")
    table = open_table(api, ada, listing="public")
    game_id = table["game_id"]
    assert table["status"] == "open" and table["seat"] == 0 and table["invitation"] is None
    lobby = api.get(f"/tables?ruleset={TOY}").get_json()
    assert game_id in [g["game_id"] for g in lobby["games"]]
    listed = next(g for g in lobby["games"] if g["game_id"] == game_id)
    assert listed["open_seats"] == [1]
    # nobody plays before the table starts
    early = api.post(
        f"/games/{game_id}/commands",
        json={"command": {"type": "bid", "chips": 1}},
        headers=bearer(table["seat_token"]),
    )
    assert early.status_code == 422
    claimed = api.post(f"/games/{game_id}/claims", json={}, headers=bearer(bob))
    assert claimed.status_code == 201, claimed.get_json()
    assert claimed.get_json()["seat"] == 1 and claimed.get_json()["status"] == "active"
    assert game_id not in [g["game_id"] for g in api.get("/tables").get_json()["games"]]
    assert types_of(api, game_id)[-3:] == ["TableOpened", "SeatClaimed", "TableStarted"][-3:]
    mine = api.get("/players/me/games", headers=bearer(bob)).get_json()["games"]
    assert [(g["game_id"], g["seat"]) for g in mine] == [(game_id, 1)]
    # the player key acts for its seat, like the seat token
    play_out(api, game_id, {0: ada, 1: bob})
    assert api.get(f"/games/{game_id}").get_json()["status"] == "finished"


def test_a_private_table_is_joined_by_its_invitation_only_and_not_listed(api) -> None:
    _, ada = player(api, "Ada")
    _, bob = player(api, "Bob")
    _, eve = player(api, "Eve")
    table = open_table(api, ada, listing="private")
    game_id = table["game_id"]
    assert table["invitation"].startswith("inv_")
    assert table["invitation_url"].endswith(f"/#join={game_id}&invitation={table['invitation']}")
    assert game_id not in [g["game_id"] for g in api.get("/games?limit=200").get_json()["games"]]
    assert game_id not in [g["game_id"] for g in api.get("/tables").get_json()["games"]]
    refused = api.post(f"/games/{game_id}/claims", json={}, headers=bearer(eve))
    assert refused.status_code == 403 and refused.get_json()["code"] == "invitation_refused"
    wrong = api.post(
        f"/games/{game_id}/claims", json={"invitation": "inv_wrong"}, headers=bearer(eve)
    )
    assert wrong.status_code == 403
    ok = api.post(
        f"/games/{game_id}/claims", json={"invitation": table["invitation"]}, headers=bearer(bob)
    )
    assert ok.status_code == 201
    mine = api.get("/players/me/games", headers=bearer(bob)).get_json()["games"]
    assert game_id in [g["game_id"] for g in mine]


def test_claiming_a_taken_seat_or_a_second_seat_is_a_clear_4xx_and_loses_nothing(api) -> None:
    _, ada = player(api, "Ada")
    _, bob = player(api, "Bob")
    table = open_table(api, ada, players=["A", "B", "C"])
    game_id = table["game_id"]
    before = types_of(api, game_id)
    taken = api.post(f"/games/{game_id}/claims", json={"seat": 0}, headers=bearer(bob))
    assert taken.status_code == 422 and taken.get_json()["details"]["reason"] == "seat_taken"
    second = api.post(f"/games/{game_id}/claims", json={"seat": 1}, headers=bearer(ada))
    assert second.status_code == 422
    assert second.get_json()["details"]["reason"] == "one_seat_per_player"
    no_seat = api.post(f"/games/{game_id}/claims", json={"seat": 7}, headers=bearer(bob))
    assert no_seat.status_code == 422
    assert types_of(api, game_id) == before
    anonymous = api.post(f"/games/{game_id}/claims", json={})
    assert anonymous.status_code == 401
    malformed = api.post(f"/games/{game_id}/claims", json={"seat": "one"}, headers=bearer(bob))
    assert malformed.status_code == 400


@pytest.mark.parametrize(
    "clock",
    [
        {"kind": "bank"},
        {"kind": "bank", "initial_ms": -5},
        {"kind": "move", "per_move_ms": 0},
        {"kind": "move", "per_move_ms": 10**15},
        {"kind": "move", "per_move_ms": 60000, "increment_ms": 5},
        {"kind": "sundial"},
    ],
)
def test_a_clock_set_to_nonsense_is_a_400(api, clock) -> None:
    _, ada = player(api, "Ada")
    answer = api.post(
        "/tables", json={"ruleset": TOY, "players": ["A", "B"], "clock": clock}, headers=bearer(ada)
    )
    assert answer.status_code == 400, answer.get_json()
    assert answer.get_json()["code"] == "invalid_request"


def test_play_against_bots_in_one_request_and_finish(api) -> None:
    _, ada = player(api, "Ada")
    table = open_table(api, ada, listing="private", bots="greedy", players=["Me", "Bot 1", "Bot 2"])
    game_id = table["game_id"]
    assert table["status"] == "active"
    play_out(api, game_id, {0: table["seat_token"]})
    summary = api.get(f"/games/{game_id}").get_json()
    assert summary["status"] == "finished"
    seating = api.get(f"/games/{game_id}/seating").get_json()
    assert [s["bot"] for s in seating["seats"]] == [None, "greedy", "greedy"]
    events = api.get(f"/games/{game_id}/events?limit=500").get_json()["events"]
    bot_moves = [e for e in events if e["type"] == "ToyBidSealed" and e["actor"] in (1, 2)]
    assert bot_moves, "the bots played through the command path, as their seats"


def test_hand_a_seat_to_a_bot_and_take_it_back(api) -> None:
    _, ada = player(api, "Ada")
    _, bob = player(api, "Bob")
    table = open_table(api, ada, options={"rounds": 3})
    game_id = table["game_id"]
    api.post(f"/games/{game_id}/claims", json={}, headers=bearer(bob))
    handed = api.post(f"/games/{game_id}/bot", json={"strategy": "random"}, headers=bearer(bob))
    assert handed.status_code == 200, handed.get_json()
    # Ada bids; the bot bids for Bob at once (inline here; on a worker in test_tables_worker)
    play_out(api, game_id, {0: ada}, limit=1)
    events = api.get(f"/games/{game_id}/events?limit=500").get_json()["events"]
    assert any(e["type"] == "ToyBidSealed" and e["actor"] == 1 for e in events)
    back = api.delete(f"/games/{game_id}/bot", headers=bearer(bob))
    assert back.status_code == 200
    assert api.get(f"/games/{game_id}/seating").get_json()["seats"][1]["bot"] is None
    again = api.delete(f"/games/{game_id}/bot", headers=bearer(bob))
    assert again.status_code == 422
    assert types_of(api, game_id).count("SeatHandedToBot") == 1
    assert types_of(api, game_id).count("SeatTakenBack") == 1


def test_resigning_ranks_last_a_bot_plays_on_and_all_people_gone_ends_it(api) -> None:
    _, ada = player(api, "Ada")
    _, bob = player(api, "Bob")
    table = open_table(api, ada, options={"rounds": 2})
    game_id = table["game_id"]
    api.post(f"/games/{game_id}/claims", json={}, headers=bearer(bob))
    assert api.post(f"/games/{game_id}/resign", headers=bearer(bob)).status_code == 200
    # the resigned seat is a bot's now: its person may not play it
    refused = api.post(
        f"/games/{game_id}/commands",
        json={"command": {"type": "bid", "chips": 1}},
        headers=bearer(bob),
    )
    assert refused.status_code in (409, 422)
    play_out(api, game_id, {0: ada})
    assert api.get(f"/games/{game_id}").get_json()["status"] == "finished"
    result = api.get(f"/games/{game_id}/result").get_json()
    assert result["ranking"][-1]["seat"] == 1
    assert result["ranking"][-1]["player"] == "Bob" and result["players"] == ["Ada", "Bob"]
    # a second table: both resign, the game ends at once
    table = open_table(api, ada)
    game_id = table["game_id"]
    api.post(f"/games/{game_id}/claims", json={}, headers=bearer(bob))
    api.post(f"/games/{game_id}/resign", headers=bearer(ada))
    api.post(f"/games/{game_id}/resign", headers=bearer(bob))
    assert api.get(f"/games/{game_id}").get_json()["status"] == "finished"
    assert "TableAbandoned" in types_of(api, game_id)
    assert "SeedRevealed" in types_of(api, game_id)


def test_the_seating_events_replay_and_audit_like_moves(api, redis_url) -> None:
    _, ada = player(api, "Ada")
    _, bob = player(api, "Bob")
    table = open_table(api, ada, options={"rounds": 2})
    game_id = table["game_id"]
    api.post(f"/games/{game_id}/claims", json={}, headers=bearer(bob))
    api.post(f"/games/{game_id}/bot", json={"strategy": "random"}, headers=bearer(bob))
    play_out(api, game_id, {0: ada})
    service: GameService = game_service(redis_url)
    service.write_snapshot(game_id)
    rules = service.ruleset_of(game_id)
    replayed = replay(rules, service.events(game_id))
    _, loaded = service.load(game_id)
    assert replayed.seating == loaded.seating
    assert replayed.seating is not None and replayed.seating.controllers[1] == "random"
    report = verify_game(service, game_id)
    assert report.ok, report.as_dict()
    audit = audit_events(game_id, service.events(game_id))
    assert audit.clean and audit.outcomes_checked > 0, audit.as_dict()


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("ftp://example.org/hook", "http"),
        ("file:///etc/passwd", "http"),
        ("javascript:alert(1)", "http"),
        ("http://127.0.0.1:8000/admin", "loopback"),
        ("http://localhost/hook", "loopback"),
        ("http://[::1]/hook", "loopback"),
        ("http://10.1.2.3/hook", "private"),
        ("http://169.254.169.254/latest/meta-data", "private"),
        ("http://user:pw@example.org/hook", "credentials"),
        ("http:///nohost", "host"),
    ],
)
def test_a_webhook_url_that_is_not_http_or_points_inward_is_refused(api, url, why) -> None:
    _, key = player(api, "Ada")
    answer = api.post("/players/me/webhooks", json={"url": url}, headers=bearer(key))
    assert answer.status_code == 422, answer.get_json()
    body = answer.get_json()
    assert body["code"] == "webhook_url_refused" and "url" in body["details"]["fields"]
    assert why in body["message"] or why in ("loopback", "private")


def test_a_webhook_to_the_server_itself_is_refused_even_where_private_hosts_are_allowed(
    app, api
) -> None:
    app.config["WEBHOOK_ALLOW_PRIVATE"] = True
    _, key = player(api, "Ada")
    own = api.post(
        "/players/me/webhooks", json={"url": "http://localhost/admin"}, headers=bearer(key)
    )
    assert own.status_code == 422 and "this server" in own.get_json()["message"]


def test_a_webhook_host_that_does_not_resolve_in_time_is_refused_not_waited_for(
    monkeypatch,
) -> None:
    import socket
    import threading

    from service import tables

    released = threading.Event()

    def a_resolver_that_hangs(*_args, **_kwargs):
        released.wait(10)
        raise socket.gaierror("gave up")

    monkeypatch.setattr(socket, "getaddrinfo", a_resolver_that_hangs)
    try:
        with pytest.raises(tables.WebhookRefused, match="did not resolve"):
            tables.check_webhook_url("https://slow.example.org/hook", (), False, timeout_s=0.2)
    finally:
        released.set()


def test_a_webhook_is_checked_again_before_each_delivery_and_an_inward_one_is_not_posted(
    app, api
) -> None:
    """A name that resolved outward when the webhook was added may point inward later: the
    delivery checks again, logs the refusal and does not retry."""
    from api.context import games
    from service import tables

    player_id, _ = player(api, "Ada")
    with app.app_context():
        service = games()
        hook = tables.add_webhook(service, player_id, "http://127.0.0.1:9/hook", ["game_over"])
        status = tables.deliver(service, player_id, hook["webhook_id"], '{"kind": "game_over"}', 1)
        log = tables.players_of(service).deliveries(player_id, hook["webhook_id"])
    assert status == 0
    assert [entry["ok"] for entry in log] == [False]
    assert log[0]["error"].startswith("refused:") and "127.0.0.1" in log[0]["error"]


def test_a_games_webhooks_are_its_admins(api) -> None:
    _, ada = player(api, "Ada")
    table = open_table(api, ada)
    game_id = table["game_id"]
    hook = {"url": "https://example.org/hook"}
    assert api.post(f"/games/{game_id}/webhooks", json=hook).status_code == 401
    as_seat = api.post(f"/games/{game_id}/webhooks", json=hook, headers=bearer(table["seat_token"]))
    assert as_seat.status_code == 403
    unknown = api.get(
        f"/games/{game_id}/webhooks/nope/deliveries", headers=bearer(table["admin_token"])
    )
    assert unknown.status_code == 404


SHIPPED = ("brief-2009", "hotw-2024", "hotw-ah2001", "patchistory")


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", SHIPPED)
def test_a_person_alone_starts_each_ruleset_against_bots_and_finishes_it(api, ruleset) -> None:
    """One request opens the table with bots; the person plays its first moves, then lets a
    bot finish for it (a whole game of a real ruleset through the table's command path)."""
    _, key = player(api, "Solo")
    counts = api.get(f"/rulesets/{ruleset}").get_json()["player_counts"]
    labels = ["Solo", *[f"Bot {n}" for n in range(1, counts[0])]]
    table = api.post(
        "/tables",
        json={"ruleset": ruleset, "players": labels, "listing": "private", "bots": "random"},
        headers=bearer(key),
    ).get_json()
    game_id = table["game_id"]
    assert table["status"] in ("active", "closing")
    moved = 0
    for _ in range(50):
        if moved == 3 or api.get(f"/games/{game_id}").get_json()["status"] == "finished":
            break
        actions = api.get(f"/games/{game_id}/legal-actions", headers=bearer(key)).get_json()
        if not actions["actions"]:
            continue
        posted = api.post(
            f"/games/{game_id}/commands", json=actions["actions"][0], headers=bearer(key)
        )
        moved += posted.status_code == 201
    assert moved >= 1, "the bots handed the game back to the person"
    api.post(f"/games/{game_id}/bot", json={"strategy": "random"}, headers=bearer(key))
    summary = api.get(f"/games/{game_id}").get_json()
    assert summary["status"] == "finished", summary["awaiting"]
    assert api.get(f"/games/{game_id}/result").status_code == 200


def test_the_creator_starts_a_table_with_bots_others_may_not_and_invites_a_player(api) -> None:
    ada_id, ada = player(api, "Ada")
    bob_id, bob = player(api, "Bob")
    table = open_table(api, ada, listing="private", players=["A", "B", "C"])
    game_id = table["game_id"]
    invited = api.post(
        f"/games/{game_id}/invitations", json={"player_id": bob_id}, headers=bearer(ada)
    )
    assert invited.status_code == 201
    [note] = [
        json.loads(line)
        for line in api.get("/players/me/stream?format=ndjson&follow=false", headers=bearer(bob))
        .get_data(as_text=True)
        .splitlines()
        if line
    ]
    assert note["kind"] == "invitation" and note["invitation"] == table["invitation"]
    assert (
        api.post(
            f"/games/{game_id}/invitations", json={"player_id": ada_id}, headers=bearer(bob)
        ).status_code
        == 403
    )
    assert (
        api.post(
            f"/games/{game_id}/invitations", json={"player_id": "0" * 32}, headers=bearer(ada)
        ).status_code
        == 404
    )
    claimed = api.post(
        f"/games/{game_id}/claims", json={"invitation": note["invitation"]}, headers=bearer(bob)
    )
    assert claimed.status_code == 201
    assert api.post(f"/games/{game_id}/start", json={}, headers=bearer(bob)).status_code == 403
    started = api.post(f"/games/{game_id}/start", json={"strategy": "greedy"}, headers=bearer(ada))
    assert started.status_code == 200 and started.get_json()["status"] == "active"
    seats = api.get(f"/games/{game_id}/seating").get_json()["seats"]
    assert [s["bot"] for s in seats] == [None, None, "greedy"]
    assert [s["name"] for s in seats] == ["Ada", "Bob", ""]
    again = api.post(f"/games/{game_id}/start", json={}, headers=bearer(table["admin_token"]))
    assert again.status_code == 422 and again.get_json()["details"]["reason"] == "started"


def test_classic_games_keep_their_tokens_and_may_hand_a_seat_to_a_bot(api) -> None:
    created = api.post(
        "/games", json={"ruleset": TOY, "players": ["a", "b"], "options": {"rounds": 1}}
    ).get_json()
    game_id, tokens = created["game_id"], created["seat_tokens"]
    assert len(tokens) == 2
    assert api.get(f"/games/{game_id}/seating").get_json()["listing"] == "closed"
    # not a table: nobody claims its seats, and it is already started
    _, eve = player(api, "Eve")
    assert api.post(f"/games/{game_id}/claims", json={}, headers=bearer(eve)).status_code == 422
    handed = api.post(f"/games/{game_id}/bot", json={}, headers=bearer(tokens[1]))
    assert handed.status_code == 200
    play_out(api, game_id, {0: tokens[0]})
    assert api.get(f"/games/{game_id}").get_json()["status"] == "finished"


def test_more_bad_input_is_a_clear_4xx(api) -> None:
    _, ada = player(api, "Ada")
    assert api.post("/games/nope/claims", json={}, headers=bearer(ada)).status_code == 404
    bad_id = api.get(
        "/players/me/stream?format=ndjson&follow=false",
        headers={**bearer(ada), "Last-Event-ID": "not-an-id"},
    )
    assert bad_id.status_code == 400
    assert api.get("/players/me/stream?after=yesterday", headers=bearer(ada)).status_code == 400
    assert api.post("/players", json={"name": ""}).status_code == 400
    assert api.post("/players", json={"name": "\u200b"}).status_code == 422
    unknown_bot = api.post(
        "/tables",
        json={"ruleset": TOY, "players": ["A", "B"], "bots": "clever"},
        headers=bearer(ada),
    )
    assert unknown_bot.status_code == 400
    no_such_seat = api.post(
        "/tables", json={"ruleset": TOY, "players": ["A", "B"], "seat": 5}, headers=bearer(ada)
    )
    assert no_such_seat.status_code == 422
    no_ruleset = api.post(
        "/tables", json={"ruleset": "chess", "players": ["A", "B"]}, headers=bearer(ada)
    )
    assert no_ruleset.status_code == 404
    assert api.post("/tables", json={"ruleset": TOY, "players": ["A", "B"]}).status_code == 401
    table = open_table(api, ada)
    not_a_seat = api.post(f"/games/{table['game_id']}/resign", headers=bearer(table["admin_token"]))
    assert not_a_seat.status_code == 403


def test_the_player_stream_speaks_ndjson_when_accept_asks_and_sse_by_default(api) -> None:
    _, ada = player(api, "Ada")
    bob_id, bob = player(api, "Bob")
    table = open_table(api, ada, listing="private")
    api.post(
        f"/games/{table['game_id']}/invitations", json={"player_id": bob_id}, headers=bearer(ada)
    )
    as_ndjson = api.get(
        "/players/me/stream?follow=false",
        headers={**bearer(bob), "Accept": "application/x-ndjson"},
    )
    assert as_ndjson.mimetype == "application/x-ndjson"
    [line] = as_ndjson.get_data(as_text=True).splitlines()
    assert json.loads(line)["kind"] == "invitation"
    as_sse = api.get("/players/me/stream?follow=false", headers=bearer(bob))
    assert as_sse.mimetype == "text/event-stream"
    assert "event: invitation\n" in as_sse.get_data(as_text=True)


def test_the_lobby_skips_a_table_this_server_cannot_play_and_still_answers(
    api, client, redis_url
) -> None:
    """A lobby shared with a server that plays more rulesets (here: a table whose ruleset this
    server does not know) lists the tables it can load and never answers 404 for the rest."""
    from store import keys

    _, ada = player(api, "Ada")
    known = open_table(api, ada, listing="public")["game_id"]
    _, bea = player(api, "Bea")
    foreign = open_table(api, bea, listing="public")["game_id"]
    client.hset(keys.meta(foreign), "ruleset", "a-ruleset-of-another-server")
    game_service(redis_url).cache.drop(foreign)  # as a server that never loaded it
    lobby = api.get("/tables")
    assert lobby.status_code == 200, lobby.get_json()
    listed = [g["game_id"] for g in lobby.get_json()["games"]]
    assert known in listed and foreign not in listed


def test_another_seats_bid_leaves_a_seats_move_deadline_where_it_was(api) -> None:
    """Sealed bids await both seats at once: each seat's clock runs from the bidding's start,
    and Bob's bid neither restarts nor extends Ada's."""
    _, ada = player(api, "Ada")
    _, bob = player(api, "Bob")
    table = open_table(api, ada, clock={"kind": "move", "per_move_ms": 3_600_000})
    game_id = table["game_id"]
    assert api.post(f"/games/{game_id}/claims", json={}, headers=bearer(bob)).status_code == 201
    seats = api.get(f"/games/{game_id}/seating").get_json()["seats"]
    started = [s["deadline_ms"] for s in seats]
    assert started[0] is not None and started[0] == started[1]
    time.sleep(0.05)
    bid = api.post(
        f"/games/{game_id}/commands",
        json={"command": {"type": "bid", "chips": 0}},
        headers=bearer(bob),
    )
    assert bid.status_code == 201, bid.get_json()
    seats = api.get(f"/games/{game_id}/seating").get_json()["seats"]
    assert seats[0]["deadline_ms"] == started[0]
    assert seats[1]["deadline_ms"] is None  # Bob is no longer awaited
