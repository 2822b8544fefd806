"""Whole documents (the OpenAPI document, the docs page, the rulesets and their catalogues) are
built once per process and the rulesets it plays, and answered from memory with an ETag: a
client that sends it back in `If-None-Match` gets a bodiless 304.

Building the OpenAPI document takes most of a second of CPU; rebuilt on every request, two
anonymous clients asking for it at once pushed everyone else's answers from milliseconds to
seconds.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from flask import Response, request

REVALIDATE = "public, no-cache"
"""Anyone may keep a copy, and checks it is still current (a 304 costs nothing)."""


@dataclass(frozen=True)
class Document:
    body: bytes
    etag: str


_built: dict[Hashable, Document] = {}
_building = threading.Lock()


def document(key: Hashable, build: Callable[[], bytes]) -> Document:
    """The document `key` names, built by `build` the first time it is asked for (one build at
    a time: a crowd asking for it at once waits for the one build, not a build each)."""
    found = _built.get(key)
    if found is not None:
        return found
    with _building:
        found = _built.get(key)
        if found is None:
            body = build()
            found = Document(body, hashlib.sha256(body).hexdigest()[:32])
            _built[key] = found
    return found


def answer(found: Document, mimetype: str) -> Response:
    """The document, or a 304 when the caller's `If-None-Match` names its ETag."""
    response = Response(found.body, mimetype=mimetype)
    response.set_etag(found.etag)
    response.headers["Cache-Control"] = REVALIDATE
    response.make_conditional(request)
    return response


def forget_all() -> None:
    """Drop every document built (a test that registers a ruleset's revision in process)."""
    with _building:
        _built.clear()
