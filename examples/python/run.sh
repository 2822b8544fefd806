#!/bin/sh
# Generate a Python client from a running Chronicle's OpenAPI document and play whole games
# with it:   examples/python/run.sh [URL] [game ...]
# URL defaults to http://127.0.0.1:8000 (`chronicle serve`); games default to every ruleset
# and the variant (see play.py). With $PYTHON set to an interpreter that has
# openapi-python-client, datamodel-code-generator and httpx-retries (the repo's .venv after its
# Quick start), that one is used; otherwise a virtualenv is made here once (examples/python/.venv)
# and the three installed. Besides the client package it generates the pydantic models
# `chronicle_models` (datamodel-code-generator, which reads `discriminator`), with which
# table_bot.py reads the player stream's lines:
#   PYTHONPATH=examples/python/build python examples/python/table_bot.py URL hotw-2024
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
URL=${1:-http://127.0.0.1:8000}
[ $# -gt 0 ] && shift
URL=${URL%/}
if [ -z "${PYTHON:-}" ]; then
    [ -x "$HERE/.venv/bin/python" ] || python3 -m venv "$HERE/.venv"
    PYTHON="$HERE/.venv/bin/python"
    "$PYTHON" -m pip install -q 'openapi-python-client==0.29.1' \
        'datamodel-code-generator==0.89.0' 'httpx-retries==0.6.0'
fi
BUILD="$HERE/build"
rm -rf "$BUILD" && mkdir -p "$BUILD"
printf 'package_name_override: chronicle_client\npost_hooks: []\n' > "$BUILD/config.yaml"
"$PYTHON" -m openapi_python_client generate --url "$URL/openapi.yaml" --meta none \
    --output-path "$BUILD/chronicle_client" --config "$BUILD/config.yaml" \
    --custom-template-path "$HERE/templates" > "$BUILD/generate.log"
"$PYTHON" -m datamodel_code_generator --url "$URL/openapi.yaml" --input-file-type openapi \
    --use-annotated --output-model-type pydantic_v2.BaseModel --formatters builtin \
    --target-python-version 3.11 --allow-private-network \
    --output "$BUILD/chronicle_models" >> "$BUILD/generate.log"
PYTHONPATH="$BUILD" exec "$PYTHON" "$HERE/play.py" "$URL" "$@"
