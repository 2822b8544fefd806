"""A refusal of a History of the World command, as every edition words it: the message, the
rule it breaks and the other rules that decide it (under `cites`)."""

from __future__ import annotations

from domain.core.errors import IllegalAction, RuleViolation
from domain.core.messages import Command


def refused(message: str, rule: str, command: Command, also: tuple[str, ...] = ()) -> RuleViolation:
    """A refusal of `command` citing `rule` (its full catalogue id, or a key hotw-2024 resolves) and
    the rules `also` that decide it too."""
    context: dict[str, object] = {"command": command.as_dict()}
    if also:
        context["cites"] = list(also)
    return IllegalAction(message, rule, context)
