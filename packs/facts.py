"""What a rule text states about its data pack, checked by one generic checker.

A pack's ``facts.yaml`` lists the facts its edition's rule text states about the board, the cards
and the pieces (62 lands, ten Honors, the Huns start in Volga and Turanian Plain ...), each with
the page it is printed on (``source: text pN``, or ``reconstructed``) and the quote or paraphrase
(``says``). An edition states its own facts in its own pack: no Python holds them.

A fact selects entries of the pack's files and asserts one thing of them:

- ``count: SELECTOR`` with ``equals | at_least | at_most: N`` (or ``{count: SELECTOR}``, the
  number of other entries), optionally ``per: {field: [values]}`` (one count per value);
- ``each: SELECTOR`` with ``has: TESTS``: every selected entry passes the tests;
- ``named: SELECTOR`` with ``ids: [...]`` (matched on ``key``, default ``id``) and optionally
  ``has: TESTS``: each id names a selected entry, and every entry it names passes the tests;
- ``unique: SELECTOR`` with ``fields: [...]``: no two selected entries share those values.

A SELECTOR is ``{file, section?, unnest?, where?}`` (or a list of them, whose selections are
joined): ``file`` is the file's name without ``.yaml``; ``section`` defaults to the file's only
section (a file that is one mapping, such as pieces.yaml, is one entry); ``unnest`` selects the
entries of a list (or the mapping) in a field of each entry instead, e.g. the Empires of a card
that shows two; ``where`` keeps the entries that pass its TESTS.

TESTS map a field path (``per_player.people``; a path through a list gives the list of values)
to a value it must equal, or to operators: ``eq``, ``in``, ``not_in``, ``min``, ``max``, ``len``,
``contains`` (an item equal to the value, or with the fields of a mapping), ``lacks``,
``includes`` (every one of a list), ``set_of`` (the same items in any order). A field the file
leaves out reads as its schema's default.

Every problem names the file, the entry and the field, then the fact, its source and its words.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

from packs.base import PackError, PackProblem
from packs.fact_checks import CHECKS, BadFact, FileSpec, PackDocs
from packs.fact_file import FACTS_FILE, read_facts


def fact_problems(
    pack_dir: Path, docs: Mapping[str, Any], files: Mapping[str, FileSpec]
) -> list[PackProblem]:
    """Check the facts about ``files`` (a loader's files, read into ``docs``).

    Facts about other files are left to the loader of those files; a fact that reads files of
    two loaders is a problem of the facts file.
    """
    try:
        facts, problems = read_facts(pack_dir)
    except PackError as exc:
        return list(exc.problems)
    for fact in facts:
        mine = fact.files() & files.keys()
        if not mine:
            continue
        if mine != fact.files():
            others = ", ".join(sorted(fact.files() - mine))
            problems.append(
                PackProblem(FACTS_FILE, fact.id, fact.kind, f"reads {others} with {sorted(mine)}")
            )
            continue
        try:
            problems += CHECKS[fact.kind](PackDocs(docs, files), fact)
        except BadFact as exc:
            problems.append(PackProblem(FACTS_FILE, fact.id, exc.field, exc.message))
    return problems


def facts_about_no_file(pack_dir: Path, files: Collection[str]) -> list[PackProblem]:
    """Facts naming a file that none of the loaders (whose files are ``files``) reads."""
    try:
        facts, problems = read_facts(pack_dir)
    except PackError as exc:
        return list(exc.problems)
    for fact in facts:
        unknown = sorted(fact.files() - set(files))
        if unknown:
            problems.append(
                PackProblem(FACTS_FILE, fact.id, "file", f"no such data file: {unknown}")
            )
    return problems
