"""The Flask application: thin views that parse, authorise, call the service and serialise."""

from __future__ import annotations

import os

from flask import Flask, Response

from api import errors, health


def create_app(redis_url: str | None = None) -> Flask:
    app = Flask("chronicle")
    app.config["REDIS_URL"] = redis_url or os.environ.get("REDIS_URL")
    if not app.config["REDIS_URL"]:
        raise RuntimeError("REDIS_URL is not set")
    app.json.sort_keys = False  # type: ignore[attr-defined]
    errors.install(app)
    app.register_blueprint(health.bp)

    @app.get("/openapi.yaml")
    def openapi_document() -> Response:
        from api.openapi import spec_yaml

        return Response(spec_yaml(), mimetype="application/yaml")

    return app
