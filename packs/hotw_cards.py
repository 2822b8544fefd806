"""Load and check the cards of a History of the World data pack.

``load_cards`` reads empires.yaml, events.yaml, honors.yaml and pieces.yaml, validates every
entry with marshmallow (unknown fields rejected; ``packs.hotw_card_schemas``) and then
cross-checks the whole against the board (``packs.hotw_card_checks``): unique ids, start-lands
and effect lands on the board, fleet kinds by epoch, power icons shown on the board and on the
start-land. What the edition's rule text states about its cards (card counts, the Empires and
Events it names, the Honor set, the piece counts ...) is in the pack's facts.yaml, checked by
``packs.facts``. Every problem names file, entry and field; all of them are raised together in
one ``PackError``. A ruleset's rules catalogue is read by ``packs.base.load_rules_catalogue``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from marshmallow import ValidationError

from domain.hotw.board import Board
from domain.hotw.editions.hotw_2024.cards import Cards, EmpireCard, EventCard, Honor, PiecesSpec
from packs.base import PackError, PackProblem, load_entries, read_yaml
from packs.edition import edition_epochs
from packs.facts import fact_problems
from packs.hotw_card_checks import cross_check
from packs.hotw_card_schemas import (
    CARD_FILES,
    EMPIRES_FILE,
    EVENTS_FILE,
    HONORS_FILE,
    PIECES_FILE,
    PiecesSchema,
)


def _read_file(
    pack_dir: Path, file: str, section: str, problems: list[PackProblem]
) -> Mapping[str, Any]:
    data = read_yaml(pack_dir / file)
    if not isinstance(data, Mapping):
        raise PackError([PackProblem(file, "", "", "must be a mapping of sections")])
    for key in data:
        if key not in {section, "provenance"}:
            problems.append(PackProblem(file, "", str(key), "unknown section"))
    provenance = data.get("provenance")
    if not isinstance(provenance, str) or not provenance.strip():
        problems.append(
            PackProblem(file, "", "provenance", "the file must say what is from the text")
        )
    if section not in data:
        problems.append(PackProblem(file, "", section, "section is missing"))
    return data


def _read_list(
    pack_dir: Path, file: str, docs: dict[str, Any], problems: list[PackProblem]
) -> list[Any]:
    ((section, schema),) = CARD_FILES[file].items()  # type: ignore[union-attr]
    data = docs[file] = _read_file(pack_dir, file, section, problems)
    return load_entries(schema, data.get(section, []), file, section, problems)


def _read_pieces(
    pack_dir: Path, docs: dict[str, Any], problems: list[PackProblem]
) -> PiecesSpec | None:
    data = docs[PIECES_FILE] = read_yaml(pack_dir / PIECES_FILE)
    try:
        pieces: PiecesSpec = PiecesSchema().load(data)
    except ValidationError as exc:
        problems.extend(_section_problems(PIECES_FILE, exc.messages))
        return None
    return pieces


def _section_problems(file: str, messages: Any) -> list[PackProblem]:
    """Problems of a file that is one mapping: the entry is the section, the field inside it."""
    if not isinstance(messages, Mapping):
        return [PackProblem(file, "", "", str(messages))]
    out: list[PackProblem] = []
    for section, message in messages.items():
        if isinstance(message, Mapping):
            out += [
                PackProblem(file, str(section), str(name), _text(text))
                for name, text in message.items()
            ]
        else:
            out.append(PackProblem(file, "", str(section), _text(message)))
    return out


def _text(message: Any) -> str:
    if isinstance(message, list) and all(isinstance(m, str) for m in message):
        return "; ".join(message)
    return str(message)


# --- cross-checks ---------------------------------------------------------------------------


def cards_problems(pack_dir: Path, board: Board) -> tuple[Cards | None, list[PackProblem]]:
    """Load the cards and list every problem; the Cards are None when a file could not be read."""
    problems: list[PackProblem] = []
    docs: dict[str, Any] = {}
    try:
        empires = _read_list(pack_dir, EMPIRES_FILE, docs, problems)
        events = _read_list(pack_dir, EVENTS_FILE, docs, problems)
        honors = _read_list(pack_dir, HONORS_FILE, docs, problems)
        pieces = _read_pieces(pack_dir, docs, problems)
    except PackError as exc:
        return None, [*problems, *exc.problems]
    epochs, ocean_epochs = edition_epochs(pack_dir)
    problems += cross_check(board, epochs, ocean_epochs, empires, events, honors)
    problems += fact_problems(pack_dir, docs, CARD_FILES)
    if pieces is None:
        return None, problems
    return _assemble(empires, events, honors, pieces, epochs), problems


def _assemble(
    empires: Sequence[EmpireCard],
    events: Sequence[EventCard],
    honors: Sequence[Honor],
    pieces: PiecesSpec,
    epochs: Sequence[int],
) -> Cards:
    """Empire cards of an epoch in turn order; Event cards in the order of the file."""
    return Cards(
        empires_by_epoch={
            epoch: tuple(sorted((c for c in empires if c.epoch == epoch), key=lambda c: c.number))
            for epoch in epochs
        },
        events_by_epoch={epoch: tuple(c for c in events if c.epoch == epoch) for epoch in epochs},
        honors=tuple(honors),
        pieces=pieces,
    )


def load_cards(pack_dir: Path, board: Board) -> Cards:
    """Load empires.yaml, events.yaml, honors.yaml and pieces.yaml from ``pack_dir``, checked
    against ``board``; raise one ``PackError`` listing every problem."""
    cards, problems = cards_problems(pack_dir, board)
    if problems or cards is None:
        raise PackError(problems)
    return cards
