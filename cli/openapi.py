"""`chronicle openapi`: write (or check) the generated openapi.yaml."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("openapi", help="generate openapi.yaml from the schemas")
    parser.add_argument("--output", type=Path, default=REPO_ROOT / "openapi.yaml")
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is out of date")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from api.openapi import spec_yaml

    generated = spec_yaml()
    if args.check:
        current = args.output.read_text() if args.output.exists() else ""
        if current != generated:
            print(f"{args.output} is out of date: run `chronicle openapi`", file=sys.stderr)
            return 1
        return 0
    args.output.write_text(generated)
    print(f"wrote {args.output}")
    return 0
