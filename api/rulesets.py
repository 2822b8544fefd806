"""The rule systems a game can be created with."""

from __future__ import annotations

from flask import Blueprint
from flask.typing import ResponseReturnValue

from api.context import queries
from api.docs import route
from schemas.api import RulesetListSchema
from schemas.instances import one

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
