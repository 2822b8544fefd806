"""History of the World's commands as data: each command type a seat may post, with its
arguments and the ids of the data pack each argument may name (`Ruleset.command_schemas`).

The list follows `domain.hotw.rules.actions` (its docstring names every command). Ids are
enumerated from the bound pack, so an edition with another board or deck documents its own.
"""

from __future__ import annotations

from domain.core.ruleset import ArgSpec, CommandSpec
from domain.hotw.pack import HotwPack
from domain.hotw.rules.invasion import IGNORE_DIFFICULT, IGNORE_FORT


def command_specs(pack: HotwPack) -> tuple[CommandSpec, ...]:
    board, cards = pack.board, pack.cards
    lands = tuple(sorted(board.lands))
    waters = tuple(sorted(board.seas))
    areas = tuple(sorted(board.areas))
    tokens = tuple(sorted(board.area_tokens))
    paired = tuple(sorted(board.paired_area_tokens))  # Option 4
    empires = tuple(sorted(card.id for card in cards.all_empires()))
    events = tuple(sorted(card.id for card in cards.all_events()))
    honors = tuple(sorted(honor.id for honor in cards.honors))

    def land(text: str) -> tuple[ArgSpec, ...]:
        return (ArgSpec("land", str, text, allowed=lands),)

    def water(text: str) -> tuple[ArgSpec, ...]:
        return (ArgSpec("water", str, text, allowed=waters),)

    return (
        CommandSpec(
            "choose_area_token",
            "Organization: take one of the Area tokens on offer.",
            (ArgSpec("token", str, "An Area token id.", allowed=tokens),),
        ),
        CommandSpec(
            "choose_event_card",
            "Organization (Option 1): keep one Event card of those dealt to you.",
            (ArgSpec("card", str, "An Event card id.", allowed=events),),
        ),
        CommandSpec(
            "choose_empire_card",
            "Organization: take an Empire card for this epoch (or pass one on).",
            (ArgSpec("card", str, "An Empire card id.", allowed=empires),),
        ),
        CommandSpec("place_army", "Expansion: place an army in a land.", land("A land id.")),
        CommandSpec("place_fleet", "Expansion: place a fleet in a sea or ocean.", water("Water.")),
        CommandSpec("build_fort", "Build a fort in a land you hold.", land("A land id.")),
        CommandSpec("place_great_wall", "Place a Great Wall fort in a land.", land("A land id.")),
        CommandSpec(
            "use_leader",
            "Use your Empire's leader (for the next invasion, ignore what `ignore` names, when "
            "the leader lets you choose).",
            (
                ArgSpec(
                    "ignore",
                    str,
                    "What the leader ignores.",
                    allowed=(IGNORE_DIFFICULT, IGNORE_FORT),
                    required=False,
                ),
            ),
        ),
        CommandSpec(
            "play_honor",
            "Play one of your Honors.",
            (ArgSpec("honor", str, "An Honor id.", allowed=honors),),
        ),
        CommandSpec(
            "play_area_token",
            "Conclusion: play one of your Area tokens.",
            (
                ArgSpec(
                    "token", str, "An Area token id (or paired token's).", allowed=tokens + paired
                ),
            ),
        ),
        CommandSpec("end_phase", "End the current phase of your turn."),
        CommandSpec("choose_land", "Choose a land for the effect or start awaiting it.", land("")),
        CommandSpec(
            "choose_area",
            "Choose an area for the effect awaiting it.",
            (ArgSpec("area", str, "An area id.", allowed=areas),),
        ),
        CommandSpec("choose_water", "Choose a sea or ocean for the effect awaiting it.", water("")),
        CommandSpec("conquer_land", "Option 3: conquer a land.", land("A land id.")),
        CommandSpec("end_conquest", "Option 3: stop conquering."),
    )
