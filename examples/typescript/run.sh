#!/bin/sh
# Generate TypeScript types from a running Chronicle's OpenAPI document (openapi-typescript),
# type-check the example with `tsc --strict`, and play whole games with it on Node
# (openapi-fetch):   examples/typescript/run.sh [URL] [game ...]
# URL defaults to http://127.0.0.1:8000 (`chronicle serve`); games default to every ruleset
# and the variant (see src/play.ts). Needs Node 20 and npm; installs the pinned packages of
# package-lock.json here (examples/typescript/node_modules) the first time. SCRIPT=table_bot runs
# src/table_bot.ts instead: a bot that plays tables from its player stream. `tsc -b` compiles
# again only when a source changed (its state is dist/tsconfig.tsbuildinfo; errors stay errors).
set -eu
cd "$(dirname "$0")"
URL=${1:-http://127.0.0.1:8000}
[ $# -gt 0 ] && shift
URL=${URL%/}
[ -d node_modules/openapi-fetch ] && [ node_modules/.package-lock.json -nt package-lock.json ] \
    || npm ci --no-audit --no-fund --silent
node_modules/.bin/openapi-typescript "$URL/openapi.yaml" --output src/api.d.ts --silent
node_modules/.bin/tsc -b .
exec node "dist/${SCRIPT:-play}.js" "$URL" "$@"
