"""`GET /docs`: a human-readable API reference, rendered on the server from the OpenAPI document.

Plain HTML with inline CSS: no script, no CDN, works offline.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import Any

from flask import Blueprint, Response

from api.docs import route
from api.documents import answer, document
from api.inputs import negotiated

bp = Blueprint("reference", __name__)

STYLE = """
body { font: 15px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem;
       color: #222; }
code { font: 0.9em ui-monospace, monospace; background: #f3f3f3; padding: 0 0.2em; }
h2 { border-bottom: 2px solid #ccc; margin-top: 2.5rem; }
section { border-top: 1px solid #ddd; padding-top: 0.5rem; margin-top: 1.5rem; }
.method { display: inline-block; min-width: 4em; font-weight: bold; color: #fff;
          background: #555; padding: 0 0.4em; border-radius: 3px; text-align: center; }
.get { background: #2a6f97; } .post { background: #2d6a4f; }
table { border-collapse: collapse; margin: 0.5rem 0; width: 100%; }
th, td { border: 1px solid #ddd; padding: 0.2rem 0.5rem; text-align: left; vertical-align: top; }
th { background: #f7f7f7; }
.auth { color: #8a4b00; }
"""


def text(value: str) -> str:
    """Escaped text with `code` spans."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(value)).replace("\n", " ")


def schema_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


def type_of(schema: dict[str, Any]) -> str:
    """A schema's type in words, with links to named schemas."""
    if "$ref" in schema:
        name = schema_name(schema["$ref"])
        return f'<a href="#schema-{name}">{html.escape(name)}</a>'
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            return " or ".join(type_of(s) for s in schema[key])
    kind = schema.get("type")
    if isinstance(kind, list):
        return " or ".join(type_of({**schema, "type": k}) for k in kind)
    if kind == "array":
        return "array of " + type_of(schema.get("items", {}))
    if kind is None:
        return "any"
    return html.escape(str(kind))


def row(*cells: str, header: bool = False) -> str:
    tag = "th" if header else "td"
    return "<tr>" + "".join(f"<{tag}>{c}</{tag}>" for c in cells) + "</tr>"


def table(header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> str:
    return "<table>" + row(*header, header=True) + "".join(row(*r) for r in rows) + "</table>"


def render_operation(path: str, method: str, op: dict[str, Any]) -> str:
    parts = [
        f'<section id="{html.escape(op["operationId"])}">',
        f'<h3><span class="method {method}">{method.upper()}</span> <code>{html.escape(path)}'
        f"</code></h3>",
        f"<p><strong>{text(op.get('summary', ''))}</strong></p>",
    ]
    if op.get("description"):
        parts.append(f"<p>{text(op['description'])}</p>")
    security = op.get("security")
    if security:
        optional = {} in security
        parts.append(
            '<p class="auth">Token: '
            + (
                "optional (<code>Authorization: Bearer &lt;token&gt;</code>; "
                "without one you are a spectator)."
                if optional
                else "required (<code>Authorization: Bearer &lt;token&gt;</code>)."
            )
            + "</p>"
        )
    parameters = op.get("parameters", [])
    if parameters:
        parts.append("<h4>Parameters</h4>")
        parts.append(
            table(
                ("name", "in", "type", "required", "description"),
                [
                    (
                        f"<code>{html.escape(p['name'])}</code>",
                        html.escape(p["in"]),
                        type_of(p.get("schema", {})),
                        "yes" if p.get("required") else "no",
                        text(p.get("description", "")),
                    )
                    for p in parameters
                ],
            )
        )
    body = op.get("requestBody")
    if body:
        for media, content in body["content"].items():
            parts.append(
                f"<h4>Request body</h4><p><code>{html.escape(media)}</code>: "
                f"{type_of(content['schema'])}</p>"
            )
    responses = []
    for status, response in op["responses"].items():
        content = response.get("content", {})
        shape = "; ".join(
            f"<code>{html.escape(media)}</code> {type_of(c.get('schema', {}))}"
            for media, c in content.items()
        )
        responses.append((html.escape(status), text(response.get("description", "")), shape))
    parts.append("<h4>Responses</h4>")
    parts.append(table(("status", "meaning", "body"), responses))
    parts.append("</section>")
    return "\n".join(parts)


def render_schema(name: str, schema: dict[str, Any]) -> str:
    required = set(schema.get("required", []))
    rows = [
        (
            f"<code>{html.escape(prop)}</code>",
            type_of(body),
            "yes" if prop in required else "no",
            text(body.get("description", "")),
        )
        for prop, body in schema.get("properties", {}).items()
    ]
    extra = ""
    if schema.get("additionalProperties") not in (None, False):
        extra = "<p>Further properties are allowed.</p>"
    return (
        f'<section id="schema-{html.escape(name)}"><h3>{html.escape(name)}</h3>'
        f"<p>{text(schema.get('description', ''))}</p>"
        + table(("property", "type", "required", "description"), rows)
        + extra
        + "</section>"
    )


def render(spec: dict[str, Any]) -> str:
    info = spec.get("info", {})
    operations = [
        (path, method, op)
        for path, ops in spec.get("paths", {}).items()
        for method, op in ops.items()
    ]
    tags: dict[str, list[tuple[str, str, dict[str, Any]]]] = {}
    for path, method, op in operations:
        for tag in op.get("tags", ["other"]):
            tags.setdefault(tag, []).append((path, method, op))
    contents = "".join(
        f"<li>{html.escape(tag)}: "
        + ", ".join(
            f'<a href="#{html.escape(op["operationId"])}">{method.upper()} {html.escape(path)}</a>'
            for path, method, op in ops
        )
        + "</li>"
        for tag, ops in sorted(tags.items())
    )
    sections = "".join(
        f"<h2>{html.escape(tag)}</h2>"
        + "".join(render_operation(path, method, op) for path, method, op in ops)
        for tag, ops in sorted(tags.items())
    )
    schemas = "".join(
        render_schema(name, schema)
        for name, schema in sorted(spec.get("components", {}).get("schemas", {}).items())
    )
    title = html.escape(info.get("title", "API"))
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        f"<title>{title} API reference</title><style>{STYLE}</style></head><body>"
        f"<h1>{title} API reference</h1>"
        f"<p>{text(info.get('description', ''))} Version {html.escape(info.get('version', ''))}."
        ' The machine-readable document is <a href="/openapi.yaml">/openapi.yaml</a>.</p>'
        "<p>Every error has the body <code>{code, message, rule?, details?, current_version?}"
        '</code> (<a href="#schema-Error">Error</a>).</p>'
        f"<ul>{contents}</ul>{sections}<h2>Schemas</h2>{schemas}</body></html>"
    )


def reference_html(rulesets: Sequence[str]) -> str:
    from api.openapi import build_spec

    return render(build_spec(rulesets).to_dict())


@route(
    bp,
    "/openapi.yaml",
    "GET",
    summary="The OpenAPI 3.1 document",
    media_type="application/yaml",
    alternates=("text/plain",),
    success_text="This document (as `text/plain` when `Accept` prefers it).",
    tags=("service",),
    store=False,
)
def openapi_document() -> Response:
    """Generated from the same schemas that validate requests and shape responses; it documents
    the commands and options of every ruleset this server plays. Built once per process and
    sent with an `ETag`: send it back in `If-None-Match` for a bodiless 304."""
    from api.openapi import spec_yaml
    from service.rulesets import served_rulesets

    mimetype = negotiated("application/yaml", ("text/plain",))
    served = tuple(served_rulesets())
    found = document(("openapi.yaml", served), lambda: spec_yaml(served).encode())
    return answer(found, mimetype)


@route(
    bp,
    "/docs",
    "GET",
    summary="The API reference for people",
    media_type="text/html",
    success_text="An HTML page rendered from the OpenAPI document; works offline.",
    tags=("service",),
    store=False,
)
def docs() -> Response:
    """Every endpoint with its parameters, bodies and errors, and every schema (with an `ETag`,
    like the OpenAPI document)."""
    from service.rulesets import served_rulesets

    served = tuple(served_rulesets())
    return answer(document(("docs", served), lambda: reference_html(served).encode()), "text/html")
