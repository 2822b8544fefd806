"""The `chronicle` command: one entry point, one module per subcommand.

Each module named in SUBCOMMANDS exposes `register(subparsers)`, which adds its parser and sets
`func` to a callable taking the parsed arguments and returning an exit code. Only the module of
the subcommand being run is imported, so `chronicle worker` starts without the data tooling.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

SUBCOMMANDS = {
    "serve": "run the HTTP service (and, by default, an embedded Redis and RQ worker)",
    "worker": "run an RQ worker for background jobs",
    "openapi": "generate openapi.yaml from the schemas",
    "data": "check a ruleset's data pack or draw its board",
    "selfplay": "play whole games with bots, in-process or through a running server",
    "replay": "verify a stored game against its snapshots, or export an HTML replay",
    "audit": "re-verify every chance outcome of a game from its revealed seed",
    "bench": "measure speed and memory on this machine against the targets",
    "soak": "serve the stack and run bots, people, spectators and webhooks against it",
    "oracle": "check random games against the independent rulings oracles (source checkout)",
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="chronicle",
        description="Chronicle: an event-sourced rules service for History of the World.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, summary in SUBCOMMANDS.items():
        if only is None or name == only:
            importlib.import_module(f"cli.{name}").register(subparsers)
        else:
            subparsers.add_parser(name, help=summary)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    chosen = next((a for a in argv if not a.startswith("-")), None)
    parser = build_parser(chosen if chosen in SUBCOMMANDS else None)
    args = parser.parse_args(argv)
    code: int = args.func(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
