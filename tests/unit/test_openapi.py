"""The committed openapi.yaml is generated from the schemas, valid, and in sync."""

from __future__ import annotations

import re
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest
import yaml
from openapi_spec_validator import validate

from api.inputs import IDEMPOTENCY_KEY, LAST_EVENT_ID
from api.openapi import spec_yaml
from api.players import _is_stream_id
from service.rulesets import ruleset
from tests.support.document import LOADER, committed_document

REPO_ROOT = Path(__file__).resolve().parents[2]


@cache
def generated() -> str:
    """The document generated afresh from the schemas, once for this file's tests (none of
    them changes it)."""
    return spec_yaml()


@cache
def generated_document() -> dict:
    return yaml.load(generated(), Loader=LOADER)


def test_the_committed_openapi_document_matches_a_fresh_generation():
    committed = (REPO_ROOT / "openapi.yaml").read_text()
    assert committed == generated(), "openapi.yaml drifted: run `chronicle openapi`"


def test_the_openapi_document_is_valid_openapi_3_1():
    document = generated_document()
    assert document["openapi"].startswith("3.1")
    validate(document)


def test_every_documented_error_uses_the_one_error_body():
    document = generated_document()
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            for status, response in operation["responses"].items():
                if int(status) >= 400:
                    schema = response["content"]["application/json"]["schema"]
                    assert schema == {"$ref": "#/components/schemas/Error"}, (path, method, status)


REDOCLY = "@redocly/cli@2.77.0"
"""The linter of the issue's "Done when", pinned (npx fetches it from the npm registry)."""


def test_redocly_lint_with_recommended_strict_reports_nothing_in_the_committed_document():
    """redocly.yaml extends `recommended-strict` (every rule an error): nothing may be reported."""
    npx = shutil.which("npx")
    if npx is None:
        pytest.fail(f"npx (Node 20 and npm) is needed: `npx --yes {REDOCLY} lint openapi.yaml`")
    assert "recommended-strict" in (REPO_ROOT / "redocly.yaml").read_text()
    linted = subprocess.run(
        [npx, "--yes", REDOCLY, "lint", "openapi.yaml", "--format=stylish"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    report = linted.stdout + linted.stderr
    assert linted.returncode == 0, report[-4000:]
    assert not re.search(r"^\s*\d+:\d+\s+(error|warning)\b", report, re.M), report[-4000:]
    assert "Woohoo! Your API description is valid" in report, report[-4000:]


def document() -> dict:
    """The committed document, read once for the process's tests (none of them changes it)."""
    return committed_document()


def operations(doc: dict):
    for path, methods in doc["paths"].items():
        for method, op in methods.items():
            yield path, method, op


def schema_of(doc: dict, ref: dict) -> dict:
    return doc["components"]["schemas"][ref["$ref"].rsplit("/", 1)[-1]]


def test_the_command_body_refers_to_one_schema_per_command_type_with_a_type_discriminator():
    doc = document()
    request = schema_of(doc, {"$ref": "#/components/schemas/CommandRequest"})
    assert request["properties"]["command"]["$ref"] == "#/components/schemas/Command"
    wire = doc["components"]["schemas"]["Command"]
    assert wire["discriminator"]["propertyName"] == "type"
    assert [r["$ref"] for r in wire["oneOf"]] == list(wire["discriminator"]["mapping"].values())
    # a type two rulesets shape differently is one schema on the wire, with every argument:
    # a client reading a hotw-ah2001 `place_army` keeps its `via` when posting it back
    both = schema_of(doc, {"$ref": wire["discriminator"]["mapping"]["place_army"]})
    assert {"land", "via"} <= set(both["properties"]) and both["required"] == ["type", "land"]
    assert {"anatolia", "zagros"} <= set(both["properties"]["land"]["enum"])
    schemas = doc["components"]["schemas"]
    assert not [name for name in schemas if name.startswith("Commands_")], "no unused unions"
    mapping = wire["discriminator"]["mapping"]
    expected = {spec.type for spec in ruleset("hotw-2024").command_schemas()}
    assert expected | {"undo", "propose_rewind", "accept_rewind", "refuse_rewind"} <= set(mapping)
    bid = schema_of(doc, {"$ref": mapping["bid"]})
    assert bid["properties"]["type"]["const"] == "bid" and bid["additionalProperties"] is False


def test_events_are_picked_by_type_through_a_discriminator_and_fed_per_ruleset():
    doc = document()
    schemas = doc["components"]["schemas"]
    # the redacted form first, fixed by its first field; each typed event's first field is its
    # `type`: a generator that tries a union's members in turn fails a wrong one at once
    assert schemas["Event"]["oneOf"] == [
        {"$ref": "#/components/schemas/RedactedEvent"},
        {"$ref": "#/components/schemas/TypedEvent"},
    ]
    redacted = schemas["RedactedEvent"]
    assert next(iter(redacted["properties"])) == redacted["required"][0] == "redacted"
    assert redacted["properties"]["redacted"]["const"] is True
    assert schemas["Event_hotw-2024"]["oneOf"][0] == {"$ref": "#/components/schemas/RedactedEvent"}
    for union in ("TypedEvent", "TypedEvent_hotw-2024", "TypedEvent_brief-2009"):
        typed = schemas[union]
        mapping = typed["discriminator"]["mapping"]
        assert typed["discriminator"]["propertyName"] == "type"
        assert [m["$ref"] for m in typed["oneOf"]] == list(mapping.values())
        for kind, target in mapping.items():  # each member fixes its `type`: the mapping is exact
            member = schema_of(doc, {"$ref": target})
            assert member["properties"]["type"]["const"] == kind
            assert next(iter(member["properties"])) == "type" and "type" in member["required"]
    hotw = set(schemas["TypedEvent_hotw-2024"]["discriminator"]["mapping"])
    assert "hotw.ArmyPlaced" in hotw and "GameCreated" in hotw
    assert not any(t.startswith(("brief.", "patchistory.")) for t in hotw)
    feed = schemas["Feed"]
    assert feed["discriminator"]["propertyName"] == "ruleset"
    for name, target in feed["discriminator"]["mapping"].items():
        one = schema_of(doc, {"$ref": target})
        assert one["properties"]["ruleset"]["const"] == name
        assert one["properties"]["events"]["items"] == {
            "$ref": f"#/components/schemas/Event_{name}"
        }
    response = doc["paths"]["/games/{game_id}/events"]["get"]["responses"]["200"]
    assert response["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Feed"
    }
    assert schemas["Event_hotw.ArmyPlaced"]["properties"]["visibility"] == {
        "$ref": "#/components/schemas/Visibility"
    }


def test_a_legal_action_is_documented_as_exactly_a_command_request():
    doc = document()
    legal = doc["components"]["schemas"]["LegalActions"]["properties"]
    for listing in ("actions", "table_actions"):
        assert legal[listing]["items"] == {"$ref": "#/components/schemas/CommandRequest"}


def test_create_game_is_one_schema_per_ruleset_with_its_options_and_player_counts():
    doc = document()
    body = doc["paths"]["/games"]["post"]["requestBody"]["content"]["application/json"]
    assert body["schema"] == {"$ref": "#/components/schemas/CreateGame"}
    create = doc["components"]["schemas"]["CreateGame"]
    names = ["brief-2009", "hotw-2024", "hotw-ah2001", "patchistory"]
    assert create["discriminator"]["propertyName"] == "ruleset"
    assert create["discriminator"]["mapping"] == {
        n: f"#/components/schemas/CreateGame_{n}" for n in names
    }
    assert [r["$ref"] for r in create["oneOf"]] == list(create["discriminator"]["mapping"].values())
    for name in names:
        one = doc["components"]["schemas"][f"CreateGame_{name}"]
        counts = ruleset(name).describe()["player_counts"]
        assert one["properties"]["ruleset"]["const"] == name
        players = one["properties"]["players"]
        assert (players["minItems"], players["maxItems"]) == (min(counts), max(counts))
        assert players["uniqueItems"] is True
        assert one["properties"]["options"]["$ref"] == f"#/components/schemas/Options_{name}"
        assert one["additionalProperties"] is False
    ah2001 = doc["components"]["schemas"]["Options_hotw-ah2001"]["properties"]
    # an option may be left out: no `default` that a generator would read as always present
    assert ah2001["simultaneous_empires"]["type"] == "boolean"
    assert ah2001["simultaneous_empires"]["description"].endswith("Left out: `false`.")
    assert not any("default" in prop for prop in ah2001.values())
    capital = doc["components"]["schemas"]["Options_patchistory"]["properties"]["capital_side"]
    assert capital["enum"] == ["equality", "liberty"]


def test_open_and_closing_are_documented_game_statuses_and_filters_of_the_game_list():
    doc = document()
    statuses = ["open", "active", "closing", "finished"]
    for schema in ("GameSummary", "ListedGame", "State"):
        assert doc["components"]["schemas"][schema]["properties"]["status"]["enum"] == statuses
    [status] = [p for p in doc["paths"]["/games"]["get"]["parameters"] if p["name"] == "status"]
    assert status["schema"]["enum"] == statuses


def test_request_headers_carry_the_patterns_the_server_enforces():
    doc = document()
    patterns = {
        (path, p["name"]): p["schema"]["pattern"]
        for path, _, op in operations(doc)
        for p in op.get("parameters", [])
        if p["in"] == "header"
    }
    by_name = {name: pattern for (path, name), pattern in patterns.items() if path != PLAYER}
    assert by_name == {
        "Idempotency-Key": IDEMPOTENCY_KEY.pattern,
        "Last-Event-ID": LAST_EVENT_ID.pattern,
    }
    assert re.fullmatch(by_name["Idempotency-Key"], "first-move")
    assert not re.fullmatch(by_name["Idempotency-Key"], "has space")
    assert re.fullmatch(by_name["Last-Event-ID"], "42")
    assert not re.fullmatch(by_name["Last-Event-ID"], "4x")
    # the player stream's ids are inbox ids, as it sends them (and as its route checks them)
    mine = patterns[(PLAYER, "Last-Event-ID")]
    for sent in ("0", "1764610000000-0", "1764610000000-12"):
        assert re.fullmatch(mine, sent) and _is_stream_id(sent)
    for wrong in ("", "x", "1-", "-1", "1-2-3"):
        assert not re.fullmatch(mine, wrong) and not _is_stream_id(wrong)


PLAYER = "/players/me/stream"


def test_game_busy_is_documented_with_a_retry_after_header():
    op = document()["paths"]["/games/{game_id}/commands"]["post"]
    header = op["responses"]["409"]["headers"]["Retry-After"]
    assert header == {"$ref": "#/components/headers/RetryAfterBusy"}


def test_every_operation_states_its_security_or_takes_the_documents_either_or():
    """Operations a spectator or a seat may call take the document's default: `{}` (no token)
    or a bearer token; the others say that they need one, or none."""
    doc = document()
    assert doc["security"] == [{}, {"bearerToken": []}]
    optional = {(p, m) for p, m, op in operations(doc) if "security" not in op}
    assert ("/games/{game_id}/events", "get") in optional
    assert ("/games/{game_id}/stream", "get") in optional
    assert ("/games/{game_id}/board", "get") in optional
    assert ("/games/{game_id}/state", "get") in optional
    assert doc["paths"]["/healthz"]["get"]["security"] == []
    assert doc["paths"]["/rulesets"]["get"]["security"] == []
    assert doc["paths"]["/games"]["post"]["security"] == []
    assert doc["paths"]["/games/{game_id}/commands"]["post"]["security"] == [{"bearerToken": []}]
    assert doc["servers"][0]["url"].startswith("http")


def test_non_json_answers_are_declared_as_text_or_bytes():
    """The board, the export and this document name their own media type first, then one a
    generic client reads as bytes or text (served when `Accept` prefers it)."""
    doc = document()

    def content(path: str) -> dict:
        return doc["paths"][path]["get"]["responses"]["200"]["content"]

    assert content("/games/{game_id}/board") == {
        "image/svg+xml": {"schema": {"type": "string"}},
        "application/octet-stream": {"schema": {"type": "string", "format": "binary"}},
    }
    assert content("/games/{game_id}/export") == {
        "application/x-ndjson": {"schema": {"type": "string"}},
        "text/plain": {"schema": {"type": "string"}},
    }
    assert list(content("/openapi.yaml")) == ["application/yaml", "text/plain"]
    stream = schema_of(doc, content("/games/{game_id}/stream")["text/event-stream"]["schema"])
    # read whole, text; read frame by frame (as schemathesis and an EventSource do), frames
    text, frame = stream["oneOf"]
    assert text["type"] == "string"
    frame = schema_of(doc, frame)
    assert frame["properties"]["data"]["contentMediaType"] == "application/json"
    assert {"$ref": "#/components/schemas/Event"} in frame["properties"]["data"]["contentSchema"][
        "oneOf"
    ]


def test_every_link_leads_to_an_operation_and_fills_only_its_parameters():
    doc = document()
    by_id = {op["operationId"]: op for _, _, op in operations(doc)}
    links = 0
    for _, _, op in operations(doc):
        for response in op["responses"].values():
            for link in response.get("links", {}).values():
                links += 1
                target = by_id[link["operationId"]]
                names = {(p["in"], p["name"]) for p in target.get("parameters", [])}
                for key in link["parameters"]:
                    where, _, name = key.rpartition(".")
                    if (where, name) == ("header", "Authorization"):  # its bearer token
                        assert target.get("security", doc["security"]) != [], link
                        continue
                    assert any(n == name and where in ("", w) for w, n in names), (key, link)
    created = doc["paths"]["/games"]["post"]["responses"]["201"]["links"]
    for name in ("State", "Events", "Result"):
        assert created[name]["parameters"] == {"game_id": "$response.body#/game_id"}
    # an operation that needs a token is linked only with one (without, it could only be a 401)
    for link in created.values():
        if by_id[link["operationId"]].get("security", doc["security"]) == [{"bearerToken": []}]:
            assert "header.Authorization" in link["parameters"], link
    # a listing links nowhere: it may be empty, and a link must resolve in every answer
    assert "links" not in doc["paths"]["/games"]["get"]["responses"]["200"]
    # the tokens a creation returns lead on: a seat plays with its own, the admin with its own
    assert created["PlayCommandAsSeat1"]["parameters"] == {
        "path.game_id": "$response.body#/game_id",
        "header.Authorization": "Bearer {$response.body#/seat_tokens/1}",
    }
    assert created["RewindAsAdmin"]["parameters"]["header.Authorization"] == (
        "Bearer {$response.body#/admin_token}"
    )
    assert links >= 20


def test_an_event_actor_is_a_seat_or_one_of_the_named_actors():
    doc = document()
    schemas = doc["components"]["schemas"]
    members = [schemas[m["$ref"].rsplit("/", 1)[1]] for m in schemas["TypedEvent"]["oneOf"]]
    assert len(members) > 50
    assert all(m["properties"]["actor"]["$ref"].endswith("/Actor") for m in members)
    seat, named = doc["components"]["schemas"]["Actor"]["oneOf"]
    assert seat["type"] == "integer"
    assert named["enum"] == ["system", "worker", "admin"]
