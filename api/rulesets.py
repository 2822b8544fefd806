"""The rule systems a game can be created with."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, current_app
from flask.typing import ResponseReturnValue
from marshmallow import Schema

from api.context import queries
from api.docs import route
from api.documents import answer, document
from schemas.api import RulesetDetailSchema, RulesetListSchema
from schemas.instances import one
from schemas.views import view_words
from service.errors import UnknownRuleset
from service.rulesets import available

bp = Blueprint("rulesets", __name__)


@route(
    bp,
    "/rulesets",
    "GET",
    summary="List the rulesets",
    response=RulesetListSchema,
    tags=("rulesets",),
    store=False,
)
def list_rulesets() -> ResponseReturnValue:
    """Every registered ruleset: its name (to pass when creating a game), title, the player
    counts it supports, and its options with their types, defaults and allowed values (with
    an `ETag`: send it back in `If-None-Match` for a bodiless 304)."""
    served = tuple(available())
    found = document(("rulesets", served), lambda: as_json(RulesetListSchema, rulesets_body))
    return answer(found, "application/json")


@route(
    bp,
    "/rulesets/<name>",
    "GET",
    summary="A ruleset's commands, names and board",
    response=RulesetDetailSchema,
    errors=(404,),
    tags=("rulesets",),
    store=False,
)
def get_ruleset(name: str) -> ResponseReturnValue:
    """What a client showing the ruleset's games to people needs: the ruleset's description,
    every command a seat may post with its arguments in words, the name of every id its
    commands and events use (lands, cards...), how each field of the seat's view reads (from
    the view's schema), and whether it draws its table (`GET /games/{game_id}/board`). 404
    `ruleset_not_found` for a ruleset this server does not play."""
    if name not in available():
        raise UnknownRuleset(name)
    served = tuple(available())
    detail = document(
        ("ruleset", name, served),
        lambda: as_json(
            RulesetDetailSchema,
            lambda: {**queries().ruleset_detail(name), "view_words": view_words(name)},
        ),
    )
    return answer(detail, "application/json")


def rulesets_body() -> dict[str, Any]:
    return {"rulesets": queries().rulesets()}


def as_json(schema: type[Schema], body: Callable[[], dict[str, Any]]) -> bytes:
    return current_app.json.dumps(one(schema).dump(body())).encode()
