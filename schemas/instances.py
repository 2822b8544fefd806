"""One instance of each schema per process: building a schema copies its fields (and those of
every nested schema), which costs more than most requests' own work. Marshmallow schemas keep
no state between dump and load calls, so threads can share them."""

from __future__ import annotations

from functools import cache
from typing import TypeVar

from marshmallow import Schema

S = TypeVar("S", bound=Schema)


@cache
def one(schema: type[S]) -> S:
    return schema()
