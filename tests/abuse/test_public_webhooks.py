"""Webhooks reach only the outside (issue 50, 5): a webhook's host is resolved once, every address
it resolves to is checked (multicast, 6to4, NAT64 and IPv4-mapped forms of inner addresses too),
the POST goes to the address checked, and a redirect is never followed; the delivery log of a
refused webhook says the same whether a port inside is open or not. Against `chronicle serve`
and its RQ worker, with a receiver on loopback that must get nothing."""

from __future__ import annotations

import http.server
import json
import secrets
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import redis

from store.players import PlayerStore
from tests.support.public import request, served_in_public

TOY = "toy-sealed-bids"


class Receiver:
    """An HTTP server on loopback that records every request; `redirect_to`: it answers each
    with a 307 to that URL instead of a 204."""

    def __init__(self, redirect_to: str | None = None) -> None:
        self.received: list[tuple[str, str]] = []
        received, target = self.received, redirect_to

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                received.append((self.path, self.rfile.read(length).decode()))
                if target is None:
                    self.send_response(204)
                else:
                    self.send_response(307)
                    self.send_header("Location", target)
                self.send_header("Content-Length", "0")
                self.end_headers()

            do_GET = do_POST

            def log_message(self, *args: Any) -> None:
                return None

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@contextmanager
def receiver(redirect_to: str | None = None) -> Iterator[Receiver]:
    server = Receiver(redirect_to)
    try:
        yield server
    finally:
        server.close()


def new_player(base: str, name: str) -> tuple[str, dict[str, str]]:
    status, _, body = request(base, "POST", "/players", body={"name": name})
    assert status == 201, body
    answer = json.loads(body)
    return answer["player_id"], {"Authorization": f"Bearer {answer['player_key']}"}


def invite(base: str, creator: dict[str, str], invitee: str) -> None:
    """`creator` opens a table and invites `invitee`: a notification for the invitee's hooks."""
    table = {"ruleset": TOY, "players": ["North", "South"], "options": {"rounds": 1}}
    status, _, body = request(base, "POST", "/tables", body=table, headers=creator)
    assert status == 201, body
    game_id = json.loads(body)["game_id"]
    path = f"/games/{game_id}/invitations"
    status, _, body = request(base, "POST", path, body={"player_id": invitee}, headers=creator)
    assert status == 201, body


def hook_behind_the_check(redis_url: str, owner: str, url: str, allow_private: bool) -> str:
    """A webhook as the store keeps it once added: its name resolved outward then (the URL
    check passed), and it is up to the delivery to find where it points now."""
    hook_id = uuid.uuid4().hex
    hook = {
        "url": url,
        "events": ["invitation"],
        "secret": secrets.token_urlsafe(16),
        "created_at": time.time(),
        "allow_private": allow_private,
    }
    PlayerStore(redis.Redis.from_url(redis_url, decode_responses=True)).add_webhook(
        owner, hook_id, hook
    )
    return hook_id


def deliveries(base: str, key: dict[str, str], hook_id: str, seconds: float = 30) -> list[Any]:
    """The webhook's delivery log, once it has an entry."""
    deadline = time.monotonic() + seconds
    while True:
        status, _, body = request(
            base, "GET", f"/players/me/webhooks/{hook_id}/deliveries", headers=key
        )
        assert status == 200, body
        log = json.loads(body)["deliveries"]
        if log:
            return list(log)
        assert time.monotonic() < deadline, "the worker never tried the webhook"
        time.sleep(0.2)


def test_webhooks_to_multicast_6to4_mapped_nat64_or_a_name_for_loopback_are_refused(
    redis_url: str,
) -> None:
    with receiver() as inside, served_in_public(redis_url) as base:
        _, key = new_player(base, "Mallory")
        port = inside.port
        for url in (
            "http://224.0.0.1/",
            f"http://[2002:7f00:1::]:{port}/",
            f"http://[::ffff:127.0.0.1]:{port}/",
            f"http://[64:ff9b::7f00:1]:{port}/",
            f"http://localhost:{port}/latest/meta-data/",
            f"http://127.0.0.1:{port}/",
        ):
            status, _, body = request(
                base, "POST", "/players/me/webhooks", body={"url": url}, headers=key
            )
            assert status == 422, (url, status, body)
            assert json.loads(body)["code"] == "webhook_url_refused", body
        assert inside.received == []


def test_a_name_that_points_inside_by_delivery_time_is_not_posted_and_the_log_is_no_port_scanner(
    redis_url: str,
) -> None:
    with receiver() as inside, served_in_public(redis_url) as base:
        bob, bob_key = new_player(base, "Bob")
        _, ada_key = new_player(base, "Ada")
        open_port = hook_behind_the_check(
            redis_url, bob, f"http://localhost:{inside.port}/hook", False
        )
        closed_port = hook_behind_the_check(redis_url, bob, "http://localhost:9/hook", False)
        mapped = hook_behind_the_check(
            redis_url, bob, f"http://[::ffff:127.0.0.1]:{inside.port}/hook", False
        )
        invite(base, ada_key, bob)
        logs = {hook: deliveries(base, bob_key, hook) for hook in (open_port, closed_port, mapped)}
        time.sleep(1.0)  # any retry a refusal might have queued
        assert inside.received == [], "nothing was delivered inside"
        for log in logs.values():
            assert [entry["ok"] for entry in log] == [False], log
            assert log[0]["error"].startswith("refused:") and "status" not in log[0], log
        # an open port and a closed one inside read the same: no status, no connection error
        assert logs[open_port][0]["error"] == logs[closed_port][0]["error"]


def test_a_redirect_is_an_answer_never_followed(redis_url: str) -> None:
    """With private receivers allowed (an operator's setting), a receiver's 307 to another
    address inside is logged as its answer and not followed there."""
    with receiver() as metadata:
        target = f"http://127.0.0.1:{metadata.port}/latest/meta-data/"
        with (
            receiver(redirect_to=target) as redirecting,
            served_in_public(redis_url, CHRONICLE_WEBHOOK_ALLOW_PRIVATE="on") as base,
        ):
            bob, bob_key = new_player(base, "Bob")
            _, ada_key = new_player(base, "Ada")
            status, _, body = request(
                base,
                "POST",
                "/players/me/webhooks",
                body={"url": f"http://127.0.0.1:{redirecting.port}/hook"},
                headers=bob_key,
            )
            assert status == 201, body
            hook_id = json.loads(body)["webhook_id"]
            invite(base, ada_key, bob)
            log = deliveries(base, bob_key, hook_id)
            assert log[-1]["status"] == 307 and log[-1]["ok"] is False, log
            assert len(redirecting.received) >= 1
            assert json.loads(redirecting.received[0][1])["kind"] == "invitation"
            time.sleep(3.0)  # the first retry (after 2 s) is redirected again
            assert metadata.received == [], "the redirect was never followed"
