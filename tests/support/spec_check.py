"""Answers checked against the OpenAPI document: the response schema of an operation, by path,
method, status and media type, compiled once (jsonschema-rs, JSON Schema 2020-12) with the
document's components as its root, so that every `$ref` of the document resolves."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import jsonschema_rs

SSE_FIELDS = ("id", "event", "data", "retry")


class SpecCheck:
    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self._validators: dict[str, Any] = {}
        self._valid: set[tuple[str, str]] = set()

    def schema_of(self, path: str, method: str, status: int, media: str) -> dict[str, Any]:
        response = self.document["paths"][path][method]["responses"][str(status)]
        return response["content"][media]["schema"]

    def validator(self, schema: dict[str, Any]) -> Any:
        key = json.dumps(schema, sort_keys=True)
        if key not in self._validators:
            root = {"components": self.document["components"], **schema}
            self._validators[key] = jsonschema_rs.Draft202012Validator(root)
        return self._validators[key]

    def failures(self, schema: dict[str, Any], body: Any, where: str) -> list[str]:
        """What is wrong with `body` under `schema` (each distinct body is checked once)."""
        key = (json.dumps(schema, sort_keys=True), json.dumps(body, sort_keys=True))
        if key in self._valid:
            return []
        errors = [
            f"{where}: {error.message} at {'/'.join(map(str, error.instance_path))}"
            for error in self.validator(schema).iter_errors(body)
        ][:3]
        if not errors:
            self._valid.add(key)
        return errors

    def component(self, name: str) -> dict[str, Any]:
        return {"$ref": f"#/components/schemas/{name}"}


def sse_frames(text: str) -> Iterator[dict[str, str]]:
    """The frames of a Server-Sent Events body, each as its fields (comments left out)."""
    for block in text.split("\n\n"):
        frame: dict[str, str] = {}
        for line in block.splitlines():
            if not line or line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            assert name in SSE_FIELDS, f"not an SSE field: {line!r}"
            value = value.removeprefix(" ")
            frame[name] = frame[name] + "\n" + value if name in frame else value
        if frame:
            yield frame
