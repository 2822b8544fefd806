"""Routes that document themselves: each view declares its schemas and errors once, and both
Flask and the OpenAPI document are built from that declaration."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint
from marshmallow import Schema

View = Callable[..., Any]


@dataclass(frozen=True)
class Operation:
    path: str
    method: str
    summary: str
    description: str
    response: type[Schema] | None
    status: int
    errors: tuple[int, ...]
    tags: tuple[str, ...]
    request: type[Schema] | None = None
    query: type[Schema] | None = None
    auth: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


OPERATIONS: list[Operation] = []


def openapi_path(rule: str) -> str:
    """Flask's `<game_id>` / `<int:version>` become OpenAPI's `{game_id}`."""
    out, i = "", 0
    while i < len(rule):
        if rule[i] == "<":
            end = rule.index(">", i)
            out += "{" + rule[i + 1 : end].split(":")[-1] + "}"
            i = end + 1
        else:
            out += rule[i]
            i += 1
    return out


def route(
    bp: Blueprint,
    rule: str,
    method: str,
    *,
    summary: str,
    response: type[Schema] | None = None,
    status: int = 200,
    errors: tuple[int, ...] = (),
    tags: tuple[str, ...] = (),
    request: type[Schema] | None = None,
    query: type[Schema] | None = None,
    auth: bool = False,
    **extra: Any,
) -> Callable[[View], View]:
    def register(view: View) -> View:
        prefix = bp.url_prefix or ""
        OPERATIONS.append(
            Operation(
                path=openapi_path(prefix + rule),
                method=method.lower(),
                summary=summary,
                description=inspect.cleandoc(view.__doc__ or ""),
                response=response,
                status=status,
                errors=errors,
                tags=tags,
                request=request,
                query=query,
                auth=auth,
                extra=extra,
            )
        )
        bp.add_url_rule(rule, view_func=view, methods=[method.upper()])
        return view

    return register
