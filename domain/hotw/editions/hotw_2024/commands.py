"""The commands of the History of the World family, each declared by the chapter module whose
rules it plays: its name and arguments, what it does, and why it is refused when the seat's
legal actions do not list it. The turn structure (rules/actions.py) dispatches to them.

A refusal cites a shared rule key; the ruleset resolves it to the edition's own rule id.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.core.declare import Arg, CommandBook
from domain.core.ruleset import CommandSpec
from domain.hotw.editions.hotw_2024.model import HotwState
from domain.hotw.editions.hotw_2024.pack import HotwPack
from domain.hotw.refusals import refused

if TYPE_CHECKING:
    from domain.hotw.editions.hotw_2024.rules.context import Ctx

__all__ = ["COMMANDS", "Arg", "command_specs", "declares", "refused"]


def lands(pack: HotwPack) -> tuple[str, ...]:
    return tuple(sorted(pack.board.lands))


def waters(pack: HotwPack) -> tuple[str, ...]:
    return tuple(sorted(pack.board.seas))


def areas(pack: HotwPack) -> tuple[str, ...]:
    return tuple(sorted(pack.board.areas))


def area_tokens(pack: HotwPack) -> tuple[str, ...]:
    return tuple(sorted(pack.board.area_tokens))


def any_area_tokens(pack: HotwPack) -> tuple[str, ...]:
    """Area tokens and (Option 4) Paired Area tokens."""
    return area_tokens(pack) + tuple(sorted(pack.board.paired_area_tokens))


def empire_cards(pack: HotwPack) -> tuple[str, ...]:
    return tuple(sorted(card.id for card in pack.cards.all_empires()))


def event_cards(pack: HotwPack) -> tuple[str, ...]:
    return tuple(sorted(card.id for card in pack.cards.all_events()))


def honors(pack: HotwPack) -> tuple[str, ...]:
    return tuple(sorted(honor.id for honor in pack.cards.honors))


COMMANDS: CommandBook[HotwPack, HotwState, Ctx] = CommandBook()
"""The family's commands (`domain.core.declare`): each declared by the chapter that plays it."""
declares = COMMANDS.declares


def command_specs(pack: HotwPack) -> tuple[CommandSpec, ...]:
    """Every command of the family as the API documents it, ids from `pack`."""
    return COMMANDS.specs(pack)
