"""Routes that document themselves: each view declares its schemas and errors once, and both
Flask and the OpenAPI document are built from that declaration."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, request
from marshmallow import Schema

from api.errors import ApiError

View = Callable[..., Any]


@dataclass(frozen=True)
class Operation:
    path: str
    method: str
    summary: str
    description: str
    response: type[Schema] | str | None
    status: int
    errors: tuple[int, ...]
    tags: tuple[str, ...]
    request: type[Schema] | str | None = None
    """The request body's schema, or the name of a component built in api.openapi."""
    query: type[Schema] | None = None
    auth: bool | str = False
    """True (a token is required), "optional" (without one the caller is a spectator), False."""
    path_params: tuple[tuple[str, str], ...] = ()
    """(name, Flask converter) of each `<...>` in the path."""
    headers: tuple[Header, ...] = ()
    media_type: str = "application/json"
    alternates: tuple[str, ...] = ()
    """Further media types the same answer is served as, when `Accept` prefers one of them
    (`application/octet-stream` for bytes, `text/plain` for text): a generic client that knows
    no `image/svg+xml` or `application/x-ndjson` still reads the answer as bytes or text."""
    success_text: str = "Success."
    other_success: dict[int, str] = field(default_factory=dict)
    """Further success statuses (same body), with what they mean."""
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Header:
    """A request header an operation reads."""

    name: str
    description: str
    pattern: str | None = None
    """Its values' pattern, when not the one `api.openapi_operations.HEADER_PATTERNS` gives its
    name."""


OPERATIONS: list[Operation] = []
STORE_UNAVAILABLE = 503
NOT_ACCEPTABLE = 406
RATE_LIMITED = 429
"""Every operation is counted against the rate limits (api.limits)."""
URI_TOO_LONG = 414
HEADERS_TOO_LARGE = 431
"""What the HTTP server refuses on any operation before reading it (api.evented)."""


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


def path_parameters(rule: str) -> tuple[tuple[str, str], ...]:
    """`/games/<game_id>/events/<int:version>` → (("game_id", "string"), ("version", "int"))."""
    found = []
    for part in rule.split("<")[1:]:
        converter, _, name = part.split(">", 1)[0].rpartition(":")
        found.append((name, converter or "string"))
    return tuple(found)


def acceptable(view: View, served: tuple[str, ...]) -> View:
    """The view, answering 406 first when the request's `Accept` admits none of the media
    types the operation answers in (no `Accept`, or `*/*`, admits them all)."""

    @functools.wraps(view)
    def checked(*args: Any, **kwargs: Any) -> Any:
        accepted = request.accept_mimetypes
        if accepted and accepted.best_match(served) is None:
            raise ApiError(
                NOT_ACCEPTABLE,
                "not_acceptable",
                f"this answers in {', '.join(served)}: send an Accept header that admits one",
            )
        return view(*args, **kwargs)

    return checked


def route(
    bp: Blueprint,
    rule: str,
    method: str,
    *,
    summary: str,
    response: type[Schema] | str | None = None,
    status: int = 200,
    errors: tuple[int, ...] = (),
    tags: tuple[str, ...] = (),
    request: type[Schema] | str | None = None,
    query: type[Schema] | None = None,
    auth: bool | str = False,
    headers: tuple[Header, ...] = (),
    media_type: str = "application/json",
    alternates: tuple[str, ...] = (),
    success_text: str = "Success.",
    other_success: dict[int, str] | None = None,
    store: bool = True,
    **extra: Any,
) -> Callable[[View], View]:
    """`store`: the operation reads or writes the store, so it answers 503 `store_unavailable`
    (with `Retry-After`) while Redis cannot be reached; False for what is served from memory."""
    if store and STORE_UNAVAILABLE not in errors:
        errors = (*errors, STORE_UNAVAILABLE)
    errors = (*errors, NOT_ACCEPTABLE, URI_TOO_LONG, RATE_LIMITED, HEADERS_TOO_LARGE)
    served = (media_type, *alternates)

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
                path_params=path_parameters(rule),
                headers=headers,
                media_type=media_type,
                alternates=alternates,
                success_text=success_text,
                other_success=dict(other_success or {}),
                extra=extra,
            )
        )
        bp.add_url_rule(rule, view_func=acceptable(view, served), methods=[method.upper()])
        return view

    return register
