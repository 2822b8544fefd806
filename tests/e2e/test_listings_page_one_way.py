"""Every listing pages one way: `cursor` in, `next_cursor` and a `Link: rel="next"` header out,
each entry once; the older parameters (`offset`, `from`) still work. Tables are typed like
games: a typo in an option is a 400 naming it, and the lobby shows each table's options."""

from __future__ import annotations

import re
import time
from typing import Any

from api.context import games
from service.tables import players_of
from tests.support.api import bearer

TOY = "toy-sealed-bids"
NEXT = re.compile(r'^<([^>]+)>; rel="next"$')


def a_player(api, name: str) -> str:
    created = api.post("/players", json={"name": name})
    assert created.status_code == 201, created.get_json()
    return created.get_json()["player_key"]


def follow(api, url: str, items: str, headers: dict[str, str] | None = None) -> list[Any]:
    """Every entry of a listing, page by page along its `Link: rel="next"` headers; each page's
    link is the same query with `cursor` set to its `next_cursor`."""
    seen: list[Any] = []
    for _ in range(100):
        page = api.get(url, headers=headers or {})
        assert page.status_code == 200, page.get_json()
        body = page.get_json()
        seen += body[items]
        link = page.headers.get("Link")
        if body["next_cursor"] is None:
            assert link is None
            return seen
        found = NEXT.match(link or "")
        assert found, link
        url = found.group(1)
        assert f"cursor={body['next_cursor']}" in url and "offset=" not in url
    raise AssertionError("more than 100 pages")


def test_the_lobby_and_your_games_page_by_cursor_each_table_once_with_its_options(api):
    key = a_player(api, "Ann")
    made = []
    for n in range(5):
        body = {"ruleset": TOY, "players": ["Ann", "Bob", "Cy"], "options": {"rounds": 1 + n % 3}}
        table = api.post("/tables", json=body, headers=bearer(key))
        assert table.status_code == 201, table.get_json()
        made.append(table.get_json()["game_id"])
    everything = follow(api, f"/tables?ruleset={TOY}&limit=2", "games")
    assert len({g["game_id"] for g in everything}) == len(everything)  # none twice
    listed = [g for g in everything if g["game_id"] in made]  # the session's other tables too
    assert [g["game_id"] for g in listed] == made[::-1]
    assert [g["options"]["rounds"] for g in listed] == [1 + n % 3 for n in range(5)][::-1]
    assert all(set(g["options"]) == {"rounds", "die_sides", "bonus"} for g in listed)
    mine = follow(api, "/players/me/games?limit=2", "games", bearer(key))
    assert [g["game_id"] for g in mine] == made[::-1]
    old = api.get(f"/tables?ruleset={TOY}&limit=2&offset=2").get_json()  # deprecated, works
    assert [g["game_id"] for g in old["games"]] == [g["game_id"] for g in everything[2:4]]
    both = api.get(f"/tables?limit=2&offset=1&cursor={old['next_cursor']}")
    assert (both.status_code, both.get_json()["code"]) == (422, "invalid_cursor")


def test_a_typo_in_a_tables_option_is_a_400_naming_it(api):
    key = a_player(api, "Ann")
    before = api.get(f"/tables?ruleset={TOY}").get_json()["games"]
    body = {"ruleset": TOY, "players": ["Ann", "Bob"], "options": {"round": 2}}
    refused = api.post("/tables", json=body, headers=bearer(key))
    assert refused.status_code == 400, refused.get_json()
    error = refused.get_json()
    assert error["code"] == "invalid_request" and list(error["details"]["fields"]["options"]) == [
        "round"
    ]
    assert "options.round" in error["message"]
    assert api.get(f"/tables?ruleset={TOY}").get_json()["games"] == before  # nothing opened


def test_a_games_events_and_narrative_page_by_cursor_and_still_by_from(api):
    created = api.post("/games", json={"ruleset": TOY, "players": ["Ann", "Bob"]}).get_json()
    game_id = created["game_id"]
    for seat in (0, 1):
        played = api.post(
            f"/games/{game_id}/commands",
            json={"command": {"type": "bid", "chips": 1}},
            headers=bearer(created["seat_tokens"][seat]),
        )
        assert played.status_code == 201, played.get_json()
    version = api.get(f"/games/{game_id}").get_json()["version"]
    assert version >= 4
    events = follow(api, f"/games/{game_id}/events?limit=2", "events")
    assert [e["version"] for e in events] == list(range(1, version + 1))
    told = follow(api, f"/games/{game_id}/narrative?limit=3", "entries")
    assert [e["version"] for e in told] == list(range(1, version + 1))
    old = api.get(f"/games/{game_id}/events?from=2&limit=1").get_json()  # deprecated, works
    assert [e["version"] for e in old["events"]] == [2] and old["next"] == 3
    bad = api.get(f"/games/{game_id}/events?cursor=c1.bm90LW9uZQ")
    assert (bad.status_code, bad.get_json()["code"]) == (422, "invalid_cursor")


def test_a_webhooks_deliveries_page_by_cursor_newest_first(api, app):
    app.config["WEBHOOK_ALLOW_PRIVATE"] = True  # a hook on loopback, never called here
    key = a_player(api, "Ann")
    hook = api.post(
        "/players/me/webhooks", json={"url": "http://127.0.0.1:9/hook"}, headers=bearer(key)
    )
    assert hook.status_code == 201, hook.get_json()
    hook_id = hook.get_json()["webhook_id"]
    owner = api.get("/players/me", headers=bearer(key)).get_json()["player_id"]
    with app.app_context():
        store = players_of(games())
        for attempt in range(1, 6):
            entry = {"at": time.time() + attempt, "attempt": attempt, "ok": False, "payload": {}}
            store.log_delivery(owner, hook_id, entry)
    url = f"/players/me/webhooks/{hook_id}/deliveries?limit=2"
    log = follow(api, url, "deliveries", bearer(key))
    assert [d["attempt"] for d in log] == [5, 4, 3, 2, 1]
