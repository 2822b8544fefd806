"""What schemathesis's own runner (tests/abuse/test_schemathesis_cli.py) is told beyond
openapi.yaml, loaded through $SCHEMATHESIS_HOOKS:

- how to make a name of the document's `player-name` format, so that the games it creates
  (`POST /games`, and the stateful phase's first step) are accepted rather than refused as
  names people cannot tell apart;
- that a token the server issued (a created game's seat and admin tokens, a re-issued seat
  token), carried by the document's links into `Authorization`, is a real credential. The
  `ignored_auth` check then does its work on every operation that succeeded with one: it sends
  the same request without the token and with a wrong one, and fails unless both are refused.
  Without this, schemathesis takes a link's header for a value it generated and fails any
  success it brings;
- a record of every answer to a request on a game the run created, one JSON line each, in
  $CHRONICLE_ST_RECORD, so that the test can tell which commands the stateful phase played.
"""

from __future__ import annotations

import json
import os
from typing import Any

import schemathesis

from tests.support.abuse import register_player_names

register_player_names()

ISSUED: set[str] = set()
"""Every token the server issued to this run."""
CREATED: set[str] = set()
"""The games this run created."""
CREATING = {"/games", "/games/{game_id}/sandbox"}


def issued_tokens(case: Any, response: Any) -> list[str]:
    if case.method != "POST" or response.status_code not in (200, 201):
        return []
    body = response.json()
    if case.path in CREATING:
        CREATED.add(body["game_id"])
        return [body["admin_token"], *body["seat_tokens"]]
    if case.path == "/games/{game_id}/seats/{seat}/token":
        return [body["seat_token"]]
    return []


def bearer_of(case: Any) -> str | None:
    given = (case.headers or {}).get("Authorization", "")
    return given.removeprefix("Bearer ") if given.startswith("Bearer ") else None


@schemathesis.hook
def after_call(context: Any, case: Any, response: Any) -> None:
    ISSUED.update(issued_tokens(case, response))
    record = os.environ.get("CHRONICLE_ST_RECORD")
    game_id = (case.path_parameters or {}).get("game_id")
    if record and game_id in CREATED:
        line = {
            "method": case.method,
            "path": case.path,
            "game_id": game_id,
            "status": response.status_code,
            "issued_token": bearer_of(case) in ISSUED,
            "phase": case.meta.phase.name.value if case.meta else None,
        }
        with open(record, "a") as out:
            out.write(json.dumps(line) + "\n")


@schemathesis.auth(refresh_interval=None, retry_on=[])
class IssuedToken:
    """The bearer token a case carries, when the server issued it to this run."""

    def get(self, case: Any, context: Any) -> str | None:
        token = bearer_of(case)
        return token if token in ISSUED else None

    def set(self, case: Any, data: str, context: Any) -> None:
        case.headers["Authorization"] = f"Bearer {data}"
