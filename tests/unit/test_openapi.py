"""The committed openapi.yaml is generated from the schemas, valid, and in sync."""

from __future__ import annotations

from pathlib import Path

import yaml
from openapi_spec_validator import validate

from api.openapi import spec_yaml

REPO_ROOT = Path(__file__).resolve().parents[2]


def test_the_committed_openapi_document_matches_a_fresh_generation():
    committed = (REPO_ROOT / "openapi.yaml").read_text()
    assert committed == spec_yaml(), "openapi.yaml drifted: run `chronicle openapi`"


def test_the_openapi_document_is_valid_openapi_3_1():
    document = yaml.safe_load(spec_yaml())
    assert document["openapi"].startswith("3.1")
    validate(document)


def test_every_documented_error_uses_the_one_error_body():
    document = yaml.safe_load(spec_yaml())
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            for status, response in operation["responses"].items():
                if int(status) >= 400:
                    schema = response["content"]["application/json"]["schema"]
                    assert schema == {"$ref": "#/components/schemas/Error"}, (path, method, status)
