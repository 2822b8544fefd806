"""`GET /games` lists public games only, a page of their index at a time (issue 35): a private
table is never listed, whatever it becomes; paging on with the cursor gives every listed game
exactly once; the status and ruleset filters hold; bad paging or filter values are a 400."""

from __future__ import annotations

import base64

import pytest

from store import keys

TOY = "toy-sealed-bids"


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def player_key(api, name: str) -> str:
    answer = api.post("/players", json={"name": name})
    assert answer.status_code == 201, answer.get_json()
    return str(answer.get_json()["player_key"])


def open_table(api, key: str, listing: str) -> dict:
    body = {"ruleset": TOY, "players": ["N", "S"], "options": {"rounds": 1}, "listing": listing}
    answer = api.post("/tables", json=body, headers=bearer(key))
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def classic_game(api) -> str:
    answer = api.post("/games", json={"ruleset": TOY, "players": ["a", "b"]})
    assert answer.status_code == 201, answer.get_json()
    return str(answer.get_json()["game_id"])


def every_page(api, query: str, limit: int, between=None) -> list[str]:
    """Every game id of the listing, paged on by its cursor; `between()` runs between pages."""
    seen: list[str] = []
    cursor = None
    for _ in range(1000):
        url = f"/games?{query}&limit={limit}" + (f"&cursor={cursor}" if cursor else "")
        answer = api.get(url)
        assert answer.status_code == 200, answer.get_json()
        page = answer.get_json()
        assert len(page["games"]) <= limit
        seen += [g["game_id"] for g in page["games"]]
        cursor = page["next_cursor"]
        if cursor is None:
            return seen
        if between is not None:
            between()
    raise AssertionError("the cursor never ended")


def listed_anywhere(client, game_id: str) -> list[str]:
    return [
        name
        for name in client.scan_iter(f"{keys.listed_index()}*")
        if client.type(name) == "zset" and client.zscore(name, game_id) is not None
    ]


def test_a_private_table_is_never_listed_open_started_or_finished(api, client) -> None:
    ada, bob = player_key(api, "Ada"), player_key(api, "Bob")
    table = open_table(api, ada, "private")
    game_id = table["game_id"]

    def listed() -> bool:
        found = every_page(api, f"ruleset={TOY}", 200) + every_page(api, "status=open", 200)
        return game_id in found or bool(listed_anywhere(client, game_id))

    assert not listed()
    claimed = api.post(
        f"/games/{game_id}/claims", json={"invitation": table["invitation"]}, headers=bearer(bob)
    )
    assert claimed.status_code == 201 and claimed.get_json()["status"] == "active"
    assert not listed()
    for _ in range(20):  # each seat bids what it may until the one round ends
        summary = api.get(f"/games/{game_id}").get_json()
        if summary["status"] == "finished":
            break
        for seat, key in ((0, ada), (1, bob)):
            if seat in summary["awaiting"]:
                first = api.get(f"/games/{game_id}/legal-actions", headers=bearer(key))
                action = first.get_json()["actions"][0]
                api.post(f"/games/{game_id}/commands", json=action, headers=bearer(key))
    assert api.get(f"/games/{game_id}").get_json()["status"] == "finished"
    assert not listed()
    assert game_id not in every_page(api, "status=finished", 200)


def test_paging_on_by_the_cursor_gives_each_public_game_exactly_once_while_games_are_made(
    api,
) -> None:
    ada = player_key(api, "Ada")
    public = [classic_game(api) for _ in range(9)]
    public += [open_table(api, ada, "public")["game_id"] for _ in range(8)]
    private = [open_table(api, ada, "private")["game_id"] for _ in range(8)]
    made_meanwhile: list[str] = []

    def make_more() -> None:
        made_meanwhile.append(classic_game(api))
        made_meanwhile.append(open_table(api, ada, "private")["game_id"])

    seen = every_page(api, f"ruleset={TOY}", 4, between=make_more)
    assert len(seen) == len(set(seen)), "a game came twice"
    assert set(public) <= set(seen)
    assert not set(private) & set(seen)
    assert not set(made_meanwhile) & set(seen), "a game newer than the first page came"
    assert made_meanwhile[0] in every_page(api, f"ruleset={TOY}", 200)


def test_status_open_lists_the_public_tables_still_filling_with_their_open_seats(api) -> None:
    ada, bob = player_key(api, "Ada"), player_key(api, "Bob")
    filling = open_table(api, ada, "public")["game_id"]
    full = open_table(api, ada, "public")["game_id"]
    assert api.post(f"/games/{full}/claims", json={}, headers=bearer(bob)).status_code == 201
    page = api.get(f"/games?status=open&ruleset={TOY}&limit=200").get_json()
    assert {g["status"] for g in page["games"]} == {"open"}
    listed = {g["game_id"]: g for g in page["games"]}
    assert filling in listed and full not in listed
    assert listed[filling]["open_seats"] == 1
    active = every_page(api, f"status=active&ruleset={TOY}", 50)
    assert full in active and filling not in active
    assert api.get("/games?ruleset=no-such-ruleset").get_json()["games"] == []


@pytest.mark.parametrize(
    "query",
    [
        "cursor=nonsense",
        "cursor=c1.!!!!",
        "cursor=c1." + "A" * 400,
        "status=sleeping",
        "ruleset=../../etc",
        "ruleset=",
        "limit=0",
        "limit=201",
        "offset=-1",
    ],
)
def test_a_malformed_cursor_or_filter_is_one_json_400(api, query: str) -> None:
    answer = api.get(f"/games?{query}")
    assert answer.status_code == 400, (query, answer.status_code, answer.get_data(as_text=True))
    body = answer.get_json()
    assert body["code"] == "invalid_request" and body["message"]


def cursor_of(text: bytes) -> str:
    return "c1." + base64.urlsafe_b64encode(text).decode().rstrip("=")


@pytest.mark.parametrize(
    "query",
    [
        "cursor=" + cursor_of(b"not a number|game"),
        "cursor=" + cursor_of(b"inf|game"),
        "cursor=" + cursor_of(b"12.5|no/such id"),
        "cursor=" + cursor_of(b"12.5"),
        "cursor=c1.A",
        "cursor=" + cursor_of(b"12.5|game") + "&offset=3",
    ],
)
def test_a_well_formed_cursor_this_server_never_gave_is_one_json_422(api, query: str) -> None:
    """The spec's shape holds (schema-valid input is never a 400), but it leads nowhere."""
    answer = api.get(f"/games?{query}")
    assert answer.status_code == 422, (query, answer.status_code, answer.get_data(as_text=True))
    body = answer.get_json()
    assert body["code"] == "invalid_cursor" and body["message"]


def test_a_cursor_from_an_earlier_page_is_good_for_the_games_after_it(api) -> None:
    first = [classic_game(api) for _ in range(3)]
    page = api.get(f"/games?ruleset={TOY}&limit=1").get_json()
    assert page["games"][0]["game_id"] == first[-1]
    rest = api.get(f"/games?ruleset={TOY}&limit=2&cursor={page['next_cursor']}").get_json()
    assert [g["game_id"] for g in rest["games"]] == [first[1], first[0]]


def test_a_sandbox_of_a_private_table_is_not_listed_and_one_of_a_public_game_is(
    api, redis_url
) -> None:
    from domain.core.messages import Command
    from service import tables
    from service.wiring import game_service
    from tests.support.open_tables import joined_toy_table

    service = game_service(redis_url)
    ada, _ = tables.create_player(service, "Ada")
    bob, _ = tables.create_player(service, "Bob")
    sandboxes = {}
    for listing in ("private", "public"):
        made = joined_toy_table(service, ada, bob, listing=listing, seats=("N", "S"), rounds=1)
        source = made.created.game_id
        service.handle(source, 0, Command.of("bid", chips=1))
        service.handle(source, 1, Command.of("bid", chips=0))
        service.handle(source, 0, Command.of("roll"))  # the one round is over: so is the game
        position = api.get(f"/games/{source}/position?at=6").get_json()
        assert "state" in position, position
        admin = bearer(made.created.tokens.admin)
        created = api.post(f"/games/{source}/sandbox", json={"position": position}, headers=admin)
        assert created.status_code == 201, created.get_json()
        sandboxes[listing] = created.get_json()["game_id"]
    listed = every_page(api, f"ruleset={TOY}", 200)
    assert sandboxes["private"] not in listed and sandboxes["public"] in listed
