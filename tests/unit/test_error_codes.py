"""`Error.code` is an enum in the document, and every code the code base gives is in it: the
codes written where an error is raised (`ApiError(status, "code", ...)`, an entry of the table
of api/errors.py, a refusal's `code`, an error body's `"code"`), those of the HTTP server's own
answers, and the web framework's."""

from __future__ import annotations

import ast
from pathlib import Path

from werkzeug.exceptions import MethodNotAllowed, NotFound

from api.errors import translate
from api.http_errors import PARSER_ERROR_CODES
from schemas.common import ERROR_CODES
from tests.support.document import committed_document

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("api", "service", "domain", "store", "workers", "schemas", "packs")
DYNAMIC = {"code", "exc.code", "violation.code"}
"""Codes `api/errors.py` passes on from what it translates: the framework's (`code`, named by
`http_error_code`), the chance script's (`code`, one of two literals) and the refusals' and
revisions' own (`violation.code`, `exc.code`: class attributes, found like any literal)."""


ERROR_MAKERS = ("ApiError", "worded_error", "error_at_version", "detailed_error")
"""What makes an error from its (status, code, ...): ApiError, and api/errors.py's makers of the
entries of its translation table."""


def literals(node: ast.expr) -> list[str] | None:
    """The strings an expression can be, when it is written as literals (None: it is not)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        body, orelse = literals(node.body), literals(node.orelse)
        return None if body is None or orelse is None else [*body, *orelse]
    return None


def written_codes() -> tuple[dict[str, set[str]], set[str]]:
    """Every error code written in the code base (code -> files) and the expressions of codes
    not written as literals."""
    found: dict[str, set[str]] = {}
    dynamic: set[str] = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            where = str(path.relative_to(ROOT))
            for node in ast.walk(ast.parse(path.read_text())):
                codes: list[str] | None = []
                if (
                    isinstance(node, ast.Call)
                    and getattr(node.func, "id", getattr(node.func, "attr", None)) in ERROR_MAKERS
                ):
                    if len(node.args) >= 2:
                        codes = literals(node.args[1])
                        if codes is None:
                            dynamic.add(ast.unparse(node.args[1]))
                elif isinstance(node, ast.Assign) and [
                    getattr(t, "id", None) for t in node.targets
                ] == ["code"]:
                    codes = literals(node.value) or []
                elif isinstance(node, ast.Dict):
                    codes = [
                        code
                        for key, value in zip(node.keys, node.values, strict=True)
                        if isinstance(key, ast.Constant) and key.value == "code"
                        for code in (literals(value) or [])
                    ]
                for code in codes or []:
                    found.setdefault(code, set()).add(where)
    return found, dynamic


def test_every_error_code_the_code_gives_is_in_the_documents_enum():
    found, dynamic = written_codes()
    assert len(found) > 40
    assert dynamic <= DYNAMIC, f"codes the test cannot read: {sorted(dynamic - DYNAMIC)}"
    found.update({code: {"api/http_errors.py"} for code in PARSER_ERROR_CODES.values()})
    missing = {code: sorted(where) for code, where in found.items() if code not in ERROR_CODES}
    assert not missing, f"codes given but not in schemas.common.ERROR_CODES: {missing}"


def test_the_frameworks_http_errors_translate_to_codes_in_the_enum():
    for exc in (NotFound(), MethodNotAllowed(valid_methods=["GET"])):
        assert translate(exc).code in ERROR_CODES


def test_the_committed_document_lists_the_codes_as_errors_enum():
    document = committed_document()
    code = document["components"]["schemas"]["Error"]["properties"]["code"]
    assert code["enum"] == list(ERROR_CODES)
