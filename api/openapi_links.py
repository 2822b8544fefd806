"""The OpenAPI links of the document: where the answer of one operation leads (a created
game's id and tokens, a command's events, a replay job)."""

from __future__ import annotations

from typing import Any

GAME_LINKS = {
    "GetGame": "get_games_game_id",
    "State": "get_games_game_id_state",
    "Events": "get_games_game_id_events",
    "Export": "get_games_game_id_export",
    "Result": "get_games_game_id_result",
    "Audit": "get_games_game_id_audit",
    "Position": "get_games_game_id_position",
}
"""Where a game's id leads for anyone: the operations on one game that a spectator may call.
Those that need a token are linked with it (`token_links`)."""


def game_links(game_id: str) -> dict[str, Any]:
    return {
        name: {"operationId": op, "parameters": {"game_id": game_id}}
        for name, op in GAME_LINKS.items()
    }


SEAT_LINKS = {
    "LegalActionsOfSeat": "get_games_game_id_legal_actions",
    "PlayCommandAsSeat": "post_games_game_id_commands",
    "StateOfSeat": "get_games_game_id_state",
    "EventsOfSeat": "get_games_game_id_events",
    "StreamTicketOfSeat": "post_games_game_id_stream_tickets",
}
"""Operations a seat calls with its own token (as the bearer token of `Authorization`)."""
ADMIN_LINKS = {
    "RewindAsAdmin": "post_games_game_id_rewind",
    "RevealSeedAsAdmin": "post_games_game_id_seed",
    "StartReplayAsAdmin": "post_games_game_id_replays",
    "SandboxAsAdmin": "post_games_game_id_sandbox",
    "ReissueSeatTokenAsAdmin": "post_games_game_id_seats_seat_token",
}
"""Operations the admin calls with the admin token."""
LINKED_SEATS = 2
"""Seat tokens linked from a created game: seats 0 and 1 (every game has at least two)."""


def token_links(game_id: str) -> dict[str, Any]:
    """Where a created game's tokens lead: each seat's own operations with its token as the
    bearer token, and the admin's with the admin token (`header.Authorization`)."""
    links: dict[str, Any] = {}
    for seat in range(LINKED_SEATS):
        token = f"Bearer {{$response.body#/seat_tokens/{seat}}}"
        for name, op in SEAT_LINKS.items():
            links[f"{name}{seat}"] = {
                "operationId": op,
                "parameters": {"path.game_id": game_id, "header.Authorization": token},
                "description": f"As seat {seat}, with its token from this answer.",
            }
    for name, op in ADMIN_LINKS.items():
        parameters = {"path.game_id": game_id, "header.Authorization": ADMIN_BEARER}
        if op.endswith("_seat_token"):
            parameters["path.seat"] = "0"  # a constant (the validator wants strings)
        links[name] = {
            "operationId": op,
            "parameters": parameters,
            "description": "As the game's admin, with the admin token from this answer.",
        }
    return links


ADMIN_BEARER = "Bearer {$response.body#/admin_token}"

LINKS: dict[tuple[str, str], dict[str, Any]] = {
    ("post_games", "201"): {
        **game_links("$response.body#/game_id"),
        **token_links("$response.body#/game_id"),
    },
    ("post_games_game_id_sandbox", "201"): {
        **game_links("$response.body#/game_id"),
        **token_links("$response.body#/game_id"),
    },
    ("post_games_game_id_commands", "201"): {
        "ExplainFirstEvent": {
            "operationId": "get_games_game_id_events_version_explain",
            "parameters": {
                "game_id": "$request.path.game_id",
                "version": "$response.body#/events/0/version",
            },
        },
        "NextLegalActions": {
            "operationId": "get_games_game_id_legal_actions",
            "parameters": {
                "path.game_id": "$request.path.game_id",
                "header.Authorization": "$request.header.Authorization",
            },
            "description": "The same seat's legal actions now, with the token it played with.",
        },
        "StateAfter": {
            "operationId": "get_games_game_id_state",
            "parameters": {"game_id": "$request.path.game_id", "at": "$response.body#/version"},
        },
    },
    ("post_games_game_id_replays", "202"): {
        "ReplayJob": {
            "operationId": "get_replays_job_id",
            "parameters": {"job_id": "$response.body#/job_id"},
        }
    },
    ("post_games_game_id_rewind", "201"): {
        "StateAfterRewind": {
            "operationId": "get_games_game_id_state",
            "parameters": {"game_id": "$request.path.game_id"},
        }
    },
}
"""OpenAPI links, by (operationId, status): how the answer of one operation feeds the next
(clients and schemathesis's stateful tests follow them). A listing links nowhere: it may be
empty, and a link must resolve in every answer of its status."""
