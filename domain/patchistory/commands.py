"""Every command a Patchistory seat may post, with its arguments (what `legal_actions` can
list, as data: the API documents and types commands with it)."""

from __future__ import annotations

from domain.core.ruleset import ArgSpec, CommandSpec
from domain.patchistory.pack import BLACK, WHITE, PatchPack

SEAT = "A seat (0-based)."


def _int(name: str, text: str, minimum: int | None = None) -> ArgSpec:
    return ArgSpec(name, int, text, minimum=minimum)


def _cell(prefix: str = "") -> tuple[ArgSpec, ArgSpec]:
    return (
        _int(f"{prefix}row", "Row of the square in the territory (may be negative)."),
        _int(f"{prefix}col", "Column of the square in the territory (may be negative)."),
    )


def command_specs(pack: PatchPack) -> tuple[CommandSpec, ...]:
    buildings = tuple(sorted(pack.buildings))
    cards = tuple(sorted(pack.prosperity))
    return (
        CommandSpec(
            "take_tile",
            "Vasco Da Gama: take a Tile before the Auction.",
            (_int("tile", "Index of the Tile in the Auction.", 0),),
        ),
        CommandSpec("decline", "Let an optional ability go (Vasco Da Gama, Stealth Aircraft)."),
        CommandSpec(
            "bid",
            "Bid on a Tile, adding Coin (patchistory.auction.bid).",
            (
                _int("tile", "Index of the Tile in the Auction.", 0),
                _int("coin", "Coin added to your bid.", 0),
            ),
        ),
        CommandSpec("pass", "First Auction of the game: bid on nothing yet."),
        CommandSpec(
            "seal_bid",
            "2-player Auction: a secret bid for Tile #1 (0) or #2 (1).",
            (
                _int("tile", "0 or 1.", 0),
                _int("coin", "Coin bid.", 1),
            ),
        ),
        CommandSpec(
            "patch",
            "Patch the Tile you won (patchistory.patch.overlap).",
            (
                ArgSpec("side", str, "The side patched.", allowed=(WHITE, BLACK)),
                *_cell(),
                ArgSpec(
                    "layer",
                    str,
                    "Over or under the squares it overlaps.",
                    allowed=("over", "under"),
                ),
            ),
        ),
        CommandSpec("forfeit_tile", "Do not patch the Tile you won."),
        CommandSpec("place_worker", "Place a Worker on a free space of your territory.", _cell()),
        CommandSpec("worker_to_track", "No free space: the Worker goes to the Descendant Track."),
        CommandSpec(
            "aid",
            "Offer Aid: three units of Food, Coin and Resources.",
            (
                _int("to", SEAT, 0),
                _int("food", "Food offered.", 0),
                _int("coin", "Coin offered.", 0),
                _int("resource", "Resources offered.", 0),
            ),
        ),
        CommandSpec("accept_aid", "Accept the Aid offered."),
        CommandSpec("refuse_aid", "Refuse the Aid offered."),
        CommandSpec(
            "threaten",
            "Threaten a player for Culture or Coin.",
            (
                _int("to", SEAT, 0),
                ArgSpec("demand", str, "What you ask for.", allowed=("culture", "coin")),
            ),
        ),
        CommandSpec(
            "break_alliance",
            "Break an Alliance (all your Political Points).",
            (_int("route", "The Allied Trade Route.", 1),),
        ),
        CommandSpec("end_diplomacy", "Take no more Diplomacy actions this Round."),
        CommandSpec(
            "trade",
            "Send a Worker to the Start of a Trade Route.",
            (
                _int("route", "The Trade Route.", 1),
                *_cell(),
            ),
        ),
        CommandSpec(
            "exchange",
            "Exchange one Good for others, up to your Transport.",
            (
                ArgSpec("give", str, "The Good given.", allowed=("resource", "food", "coin")),
                _int("amount", "How many given.", 1),
                _int("food", "Food received.", 0),
                _int("coin", "Coin received.", 0),
                _int("resource", "Resources received.", 0),
            ),
        ),
        CommandSpec("birth", "Birth a Worker onto a free space.", _cell()),
        CommandSpec("honor_heroes", "Honor your Heroes."),
        CommandSpec("honor_wonders", "Honor your Wonders."),
        CommandSpec(
            "build_route", "Construct a General Trade Route to a player.", (_int("to", SEAT, 0),)
        ),
        CommandSpec(
            "reclaim",
            "Reclaim a 1x1 square with a Building Tile's Wasteland side.",
            (
                *_cell(),
                ArgSpec("building", str, "The Building Tile used.", allowed=buildings),
            ),
        ),
        CommandSpec(
            "construct",
            "Construct a Building on a 1x1 non-Sea square.",
            (
                *_cell(),
                ArgSpec("building", str, "The Building Tile built.", allowed=buildings),
            ),
        ),
        CommandSpec(
            "campaign",
            "Spend Political Points for Votes (once a Round).",
            (_int("points", "Points spent.", 1),),
        ),
        CommandSpec(
            "constantine",
            "Constantine: a free Allied Trade Route with a player.",
            (_int("to", SEAT, 0),),
        ),
        CommandSpec(
            "demolish_route",
            "Schwerer Gustav: forfeit a Trade Route.",
            (_int("route", "The Trade Route.", 1),),
        ),
        CommandSpec(
            "retire_worker",
            "Hanging Gardens / Kremlin: a Worker back to the Track.",
            (
                ArgSpec("ability", str, "The Wonder used.", allowed=("hanging-gardens", "kremlin")),
                ArgSpec("worker", str, "'row,col' in the territory, or 'route-N'."),
            ),
        ),
        CommandSpec("end_management", "End your Management step."),
        CommandSpec(
            "move_worker",
            "Move a Worker in your territory.",
            (
                *_cell(),
                *_cell("to_"),
            ),
        ),
        CommandSpec(
            "advance",
            "Move a Worker forward on a Trade Route.",
            (
                _int("route", "The Trade Route.", 1),
                _int("steps", "Spaces forward.", 1),
            ),
        ),
        CommandSpec(
            "rest",
            "Move a Worker to a General Trade Route's Rest/Return space.",
            (_int("route", "The Trade Route.", 1),),
        ),
        CommandSpec("end_movement", "End your Movement."),
        CommandSpec(
            "choose_side",
            "Negotiation: red (false) or blue (true), in secret.",
            (ArgSpec("blue", bool, "Blue: Defender or Alliance; red: Aggression."),),
        ),
        CommandSpec(
            "propose_alliance",
            "Propose an Alliance, choosing its direction.",
            (_int("start", "The seat the Allied Trade Route starts from.", 0),),
        ),
        CommandSpec("accept_alliance", "Agree to the Alliance."),
        CommandSpec("decline_alliance", "Do not form an Alliance."),
        CommandSpec(
            "commit_strength",
            "War: Resources (and Votes) forfeited, in secret.",
            (
                _int("resources", "Resources forfeited.", 0),
                _int("votes", "Votes forfeited (Jeanne d'Arc).", 0),
            ),
        ),
        CommandSpec(
            "stealth_reclaim",
            "Stealth Aircraft: Reclaim a defeated player's square.",
            (
                *_cell(),
                ArgSpec("building", str, "The Building Tile used.", allowed=buildings),
            ),
        ),
        CommandSpec("retire_for_culture", "Chichen-Itza: a Worker back for 5 Culture.", _cell()),
        CommandSpec("end_chichen", "Return no more Workers to Chichen-Itza."),
        CommandSpec(
            "choose_card",
            "The Prosperity Card you put to the Vote, in secret.",
            (ArgSpec("card", str, "A Prosperity Card of your hand.", allowed=cards),),
        ),
        CommandSpec(
            "vote",
            "Votes for the Prosperity Card being voted on, in secret.",
            (_int("votes", "Votes.", 0),),
        ),
    )
