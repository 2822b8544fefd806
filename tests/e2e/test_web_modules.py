"""The page's ES modules are served as `text/javascript`, with the ETag and revalidation the
page's other files have, under a policy that lets the page run its own scripts only; every
module a module imports is served, and nothing else of api/web (its tooling, types, tests)."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from api.web import ASSETS, MODULES

IMPORTS = re.compile(r"""^import\s.*?from\s'\./([\w-]+\.js)';""", re.M | re.S)


def test_each_module_is_javascript_revalidated_by_its_etag(api: FlaskClient) -> None:
    assert "main.js" in MODULES and "table.js" in MODULES
    for name in MODULES:
        response = api.get(f"/web/{name}")
        assert response.status_code == 200, name
        assert response.mimetype == "text/javascript", name
        assert response.headers["Cache-Control"] == "no-cache", name
        assert "script-src 'self'" in response.headers["Content-Security-Policy"], name
        etag = response.headers["ETag"]
        again = api.get(f"/web/{name}", headers={"If-None-Match": etag})
        assert again.status_code == 304, name


def test_every_import_is_a_module_the_server_serves(api: FlaskClient) -> None:
    wanted = set()
    for name in MODULES:
        wanted |= set(IMPORTS.findall((ASSETS / name).read_text()))
    assert wanted and wanted <= set(MODULES), wanted - set(MODULES)
    assert "main.js" not in wanted  # the entry point, loaded by the page itself


def test_the_page_loads_its_entry_module_under_its_own_policy(api: FlaskClient) -> None:
    page = api.get("/")
    assert '<script type="module" src="/web/main.js">' in page.get_data(as_text=True)
    assert "script-src 'self'" in page.headers["Content-Security-Policy"]


def test_nothing_but_the_page_files_is_served_from_the_web_folder(api: FlaskClient) -> None:
    tooling = ["package.json", "api.d.ts", "tsconfig.json", "biome.json", "tests", "words.test.js"]
    for name in tooling:
        assert api.get(f"/web/{name}").status_code == 404, name
