"""A browser's EventSource cannot send the seat token in a header: a seat trades its token for a
short-lived stream ticket and follows its private feed with `?ticket=`; the token never goes
into a URL."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from itertools import islice
from urllib.parse import parse_qs, urlparse

from service import tickets
from service.auth import token_hash
from tests.support.api import bearer, create_toy, sse_frames


def bid_made(api):
    """A 2-player toy game in which the seat the game awaits first has sealed a bid."""
    game = create_toy(api, players=2)
    game_id = game["game_id"]
    summary = api.get(f"/games/{game_id}").get_json()
    seat = summary["awaiting"][0]
    token = game["seat_tokens"][seat]
    api.post(
        f"/games/{game_id}/commands",
        json={"command": {"type": "bid", "chips": 1}},
        headers=bearer(token),
    )
    return game, seat, token


def first_events(api, url, count):
    response = api.get(url, buffered=False)
    assert response.status_code == 200, response.get_json()
    frames = [f for f in islice(sse_frames(response.response), 40) if f.is_event]
    response.close()
    return frames[:count], response


def test_a_seat_follows_its_private_feed_with_a_ticket_and_no_token_in_the_url(api):
    game, seat, token = bid_made(api)
    game_id = game["game_id"]
    issued = api.post(f"/games/{game_id}/stream-tickets", headers=bearer(token))
    assert issued.status_code == 201
    body = issued.get_json()
    assert body["seat"] == seat and token not in body["ticket"] and token not in body["stream_url"]
    assert parse_qs(urlparse(body["stream_url"]).query)["ticket"] == [body["ticket"]]
    version = api.get(f"/games/{game_id}").get_json()["version"]
    mine, _ = first_events(api, body["stream_url"], version)
    public, _ = first_events(api, f"/games/{game_id}/stream", version)
    (bid,) = [f for f in mine if f.event == "ToyBidSealed"]
    (hidden,) = [f for f in public if f.event == "ToyBidSealed"]
    assert bid.data["data"]["chips"] == 1 and not bid.data.get("redacted")
    assert hidden.data.get("redacted") is True and "chips" not in hidden.data["data"]


def test_a_ticket_is_refused_when_tampered_expired_or_for_another_game(api, vault):
    game, seat, token = bid_made(api)
    game_id = game["game_id"]
    ticket = api.post(f"/games/{game_id}/stream-tickets", headers=bearer(token)).get_json()[
        "ticket"
    ]
    payload, _, signature = ticket.partition(".")
    forged = payload + "." + ("0" if signature[0] != "0" else "1") + signature[1:]
    other = create_toy(api, players=2)["game_id"]
    expired, _ = tickets.issue(vault.seed(game_id), game_id, seat, now=0)
    for url in (
        f"/games/{game_id}/stream?ticket={forged}",
        f"/games/{other}/stream?ticket={ticket}",
        f"/games/{game_id}/stream?ticket={expired}",
        f"/games/{game_id}/stream?ticket=not-a-ticket",
    ):
        response = api.get(url)
        assert response.status_code == 401, url
        assert response.get_json()["code"] == "unauthenticated"


SHORT_S = 1.5
"""A ticket the tests issue to expire this soon, so that its stream is opened in time and its
reconnection comes after its expiry."""


def short_lived(seed, game_id, seat, bound):
    return tickets.issue(
        seed, game_id, seat, bound, now=time.time() - tickets.TICKET_SECONDS + SHORT_S
    )


def test_an_eventsource_reconnecting_with_an_expired_ticket_is_let_in_for_a_while(api, vault):
    """EventSource reconnects to the same URL with `Last-Event-ID`: a ticket past its minute
    still reopens the stream it opened then (for an hour), never for a first opening."""
    game, seat, token = bid_made(api)
    game_id = game["game_id"]
    seed, bound = vault.seed(game_id), token_hash(token)
    ticket, expires_at = short_lived(seed, game_id, seat, bound)
    ancient, _ = tickets.issue(seed, game_id, seat, bound, now=time.time() - 7200)
    url = f"/games/{game_id}/stream?ticket={ticket}"
    opened = api.get(url, buffered=False)
    assert opened.status_code == 200
    assert [f.id for f in islice(sse_frames(opened.response), 3)] == [0, 1, 2]
    opened.close()
    time.sleep(max(0.0, expires_at - time.time()) + 0.2)
    assert api.get(url).status_code == 401  # opening anew needs a fresh ticket
    reconnected = api.get(url, headers={"Last-Event-ID": "2"}, buffered=False)
    assert reconnected.status_code == 200
    frames = [f for f in islice(sse_frames(reconnected.response), 10) if f.is_event]
    reconnected.close()
    assert frames and frames[0].id == 3
    (bid,) = [f for f in frames if f.event == "ToyBidSealed"]
    assert bid.data["data"]["chips"] == 1  # still the seat's own view
    late = api.get(f"/games/{game_id}/stream?ticket={ancient}", headers={"Last-Event-ID": "2"})
    assert late.status_code == 401


def test_an_eventsource_that_got_no_event_yet_still_reconnects_with_a_last_event_id(api, vault):
    """A seat waits on a quiet game: the stream's opening frame carries an id (the version the
    stream starts after) and no data, so EventSource fires nothing but keeps the id, and its
    reconnection after the ticket's minute sends it as `Last-Event-ID` and is let in."""
    game, seat, token = bid_made(api)
    game_id = game["game_id"]
    version = api.get(f"/games/{game_id}").get_json()["version"]
    ticket, expires_at = short_lived(vault.seed(game_id), game_id, seat, token_hash(token))
    url = f"/games/{game_id}/stream?ticket={ticket}&from={version + 1}"
    response = api.get(url, buffered=False)
    assert response.status_code == 200
    opening = next(sse_frames(response.response))
    response.close()
    assert (opening.id, opening.event, opening.data) == (version, None, None)
    time.sleep(max(0.0, expires_at - time.time()) + 0.2)
    reconnected = api.get(url, headers={"Last-Event-ID": str(opening.id)}, buffered=False)
    assert reconnected.status_code == 200
    reconnected.close()


def test_only_a_seat_gets_a_ticket_and_a_ticket_with_a_token_is_refused(api):
    game, _, token = bid_made(api)
    game_id = game["game_id"]
    assert api.post(f"/games/{game_id}/stream-tickets").status_code == 401
    admin = api.post(f"/games/{game_id}/stream-tickets", headers=bearer(game["admin_token"]))
    assert admin.status_code == 403
    ticket = api.post(f"/games/{game_id}/stream-tickets", headers=bearer(token)).get_json()
    both = api.get(f"/games/{game_id}/stream?ticket={ticket['ticket']}", headers=bearer(token))
    assert both.status_code == 401
    assert api.post("/games/nope/stream-tickets", headers=bearer(token)).status_code in (403, 404)


# --- a player's notification stream --------------------------------------------------------


def player_with_a_started_game(api) -> tuple[str, str, str]:
    """A player (id, key) whose public table another player joined: its inbox holds
    `game_started` (and `your_turn`) for that game, whose id is the third."""
    ada = api.post("/players", json={"name": "Ada"}).get_json()
    bob = api.post("/players", json={"name": "Bob"}).get_json()
    table = api.post(
        "/tables",
        json={"ruleset": "toy-sealed-bids", "players": ["A", "B"], "listing": "public"},
        headers=bearer(ada["player_key"]),
    ).get_json()
    claimed = api.post(
        f"/games/{table['game_id']}/claims", json={}, headers=bearer(bob["player_key"])
    )
    assert claimed.status_code == 201, claimed.get_json()
    return ada["player_id"], ada["player_key"], table["game_id"]


@dataclass(frozen=True)
class Notification:
    id: str
    event: str
    data: dict


def notifications(api, url, headers=None):
    """The notifications of an SSE answer that ends (`follow=false`)."""
    response = api.get(url, headers=headers or {})
    assert response.status_code == 200, response.get_json()
    frames = []
    for block in response.get_data(as_text=True).split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.split("\n") if ": " in line)
        if "event" in fields:
            frames.append(Notification(fields["id"], fields["event"], json.loads(fields["data"])))
    return frames, response


def test_a_player_follows_its_notifications_with_a_ticket_and_no_key_in_the_url(api):
    _, key, game_id = player_with_a_started_game(api)
    issued = api.post("/players/me/stream-tickets", headers=bearer(key))
    assert issued.status_code == 201, issued.get_json()
    body = issued.get_json()
    assert key not in body["ticket"] and key not in body["stream_url"]
    assert urlparse(body["stream_url"]).path == "/players/me/stream"
    assert parse_qs(urlparse(body["stream_url"]).query)["ticket"] == [body["ticket"]]
    assert body["expires_at"] <= time.time() + tickets.TICKET_SECONDS + 1
    ticketed, response = notifications(api, body["stream_url"] + "&follow=false")
    keyed, _ = notifications(api, "/players/me/stream?follow=false", bearer(key))
    assert [(f.id, f.event) for f in ticketed] == [(f.id, f.event) for f in keyed]
    assert ("game_started", game_id) in [(f.event, f.data["game_id"]) for f in ticketed]
    assert "private" in response.headers["Cache-Control"]


def test_a_player_ticket_is_refused_when_forged_expired_or_for_a_game_and_no_key_gets_one(
    api, client
):
    player_id, key, game_id = player_with_a_started_game(api)
    ticket = api.post("/players/me/stream-tickets", headers=bearer(key)).get_json()["ticket"]
    payload, _, signature = ticket.partition(".")
    forged = payload + "." + ("0" if signature[0] != "0" else "1") + signature[1:]
    secret = client.hget(f"chronicle:player:{{{player_id}}}", "ticket_secret")
    key_hash = client.hget(f"chronicle:player:{{{player_id}}}", "key_hash")
    expired, _ = tickets.issue_player(secret, player_id, key_hash, now=0)
    unbound, _ = tickets.issue_player(secret, player_id, "another key's hash")
    _, bob_key, _ = player_with_a_started_game(api)
    seat_token = api.post(
        "/tables",
        json={"ruleset": "toy-sealed-bids", "players": ["A", "B"]},
        headers=bearer(bob_key),
    ).get_json()
    game_ticket = api.post(
        f"/games/{seat_token['game_id']}/stream-tickets",
        headers=bearer(seat_token["seat_token"]),
    ).get_json()["ticket"]
    for url in (
        f"/players/me/stream?follow=false&ticket={forged}",
        f"/players/me/stream?follow=false&ticket={expired}",
        f"/players/me/stream?follow=false&ticket={unbound}",
        f"/players/me/stream?follow=false&ticket={game_ticket}",
        "/players/me/stream?follow=false&ticket=not-a-ticket",
        f"/games/{game_id}/stream?ticket={ticket}",
    ):
        response = api.get(url)
        assert response.status_code == 401, url
        assert response.get_json()["code"] == "unauthenticated"
    both = api.get(f"/players/me/stream?follow=false&ticket={ticket}", headers=bearer(key))
    assert both.status_code == 401
    assert api.post("/players/me/stream-tickets").status_code == 401
    nobody = api.post("/players/me/stream-tickets", headers=bearer("pk_nobody"))
    assert nobody.status_code == 401 and nobody.get_json()["code"] == "unauthenticated"


def test_an_eventsource_reconnecting_to_its_notifications_is_let_in_for_a_while(api, client):
    """A player's ticket opened in time reopens its stream after its minute on a reconnection
    going on from where it was, never going back, and never opens anew."""
    player_id, key, _ = player_with_a_started_game(api)
    api.post("/players/me/stream-tickets", headers=bearer(key))  # makes the player's secret
    secret = client.hget(f"chronicle:player:{{{player_id}}}", "ticket_secret")
    key_hash = client.hget(f"chronicle:player:{{{player_id}}}", "key_hash")
    ticket, expires_at = tickets.issue_player(
        secret, player_id, key_hash, now=time.time() - tickets.TICKET_SECONDS + SHORT_S
    )
    url = f"/players/me/stream?follow=false&ticket={ticket}"
    keyed, _ = notifications(api, "/players/me/stream?follow=false", bearer(key))
    ticketed, _ = notifications(api, url)
    assert [f.id for f in ticketed] == [f.id for f in keyed]
    time.sleep(max(0.0, expires_at - time.time()) + 0.2)
    assert api.get(url).status_code == 401  # a first opening needs a live, unused ticket
    resumed, _ = notifications(api, url, {"Last-Event-ID": keyed[-1].id})
    assert resumed == []
    back = api.get(url, headers={"Last-Event-ID": keyed[0].id})
    assert back.status_code == 401, "a reconnection does not go back before what it was sent"
    too_old, _ = tickets.issue_player(secret, player_id, key_hash, now=time.time() - 7200)
    refused = api.get(
        f"/players/me/stream?follow=false&ticket={too_old}",
        headers={"Last-Event-ID": keyed[0].id},
    )
    assert refused.status_code == 401
