"""The rule systems a game can be created with."""

from __future__ import annotations

from flask import Blueprint
from flask.typing import ResponseReturnValue

from api.context import queries
from api.docs import route
from schemas.api import RulesetDetailSchema, RulesetListSchema
from schemas.instances import one
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
    counts it supports, and its options with their types, defaults and allowed values."""
    return one(RulesetListSchema).dump({"rulesets": queries().rulesets()})


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
    commands and events use (lands, cards...), and whether it draws its table
    (`GET /games/{game_id}/board`). 404 `ruleset_not_found` for a ruleset this server does not
    play."""
    if name not in available():
        raise UnknownRuleset(name)
    return one(RulesetDetailSchema).dump(queries().ruleset_detail(name))
