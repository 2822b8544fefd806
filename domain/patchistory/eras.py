"""Eras and the End (patchistory.objective.eras, patchistory.era.end, patchistory.game.end):
three Eras of five Rounds; each Round begins with the Start Player passed on
(patchistory.setup.start-player, then patchistory.round.start-player) and each Era with its own
Terrain Tiles. At an Era's end the Pyramids and the Ziggurat score (patchistory.tile.pyramids,
patchistory.tile.ziggurat); after the third, Wall Street (patchistory.tile.wall-street), and
the most Culture wins, ties shared."""

from __future__ import annotations

from typing import Any

from domain.core.frozen import evolved
from domain.core.messages import PUBLIC, event
from domain.patchistory import auction
from domain.patchistory import territory as terr
from domain.patchistory.context import FOLDS, Ctx, PatchEvent, behind_screen, goods_changed
from domain.patchistory.model import PState
from domain.patchistory.pack import PatchPack


def begin_round(ctx: Ctx, era: int, round_: int, start: int) -> None:
    serial = (era - 1) * ctx.pack.number("rounds_per_era") + round_
    ctx.emit(
        RoundBegan(
            rule="patchistory.round.phases",
            cites=(
                "patchistory.setup.start-player"
                if serial == 1
                else "patchistory.round.start-player",
            ),
            era=era,
            round=round_,
            serial=serial,
            start=start,
        )
    )
    if round_ == 1:
        ctx.emit(
            EraTilesShuffled(
                rule="patchistory.era.end" if era > 1 else "patchistory.objective.eras",
                era=era,
                tiles=ctx.pack.era_tiles(era),
            )
        )
    auction.open_auction(ctx)


def end_era(ctx: Ctx) -> None:
    pack = ctx.pack
    state = ctx.state
    for seat in state.in_order():
        if terr.has(pack, ctx.state.civs[seat], "pyramids"):
            ctx.emit(
                CultureFromTiles(
                    rule="patchistory.tile.pyramids",
                    seat=seat,
                    ability="pyramids",
                    culture=pack.number("pyramids_culture"),
                )
            )
        if terr.has(pack, ctx.state.civs[seat], "ziggurat"):
            civ = ctx.state.civs[seat]
            gain = len(civ.workers)
            if not gain:
                gain = -min(pack.number("ziggurat_none_culture"), civ.culture)
            ctx.emit(
                CultureFromTiles(
                    rule="patchistory.tile.ziggurat",
                    seat=seat,
                    ability="ziggurat",
                    culture=gain,
                    visibility=behind_screen(pack, seat, seat=seat, ability="ziggurat")
                    if gain < 0
                    else PUBLIC,
                )
            )
    if state.era < pack.number("eras"):
        begin_round(ctx, state.era + 1, 1, (state.start + 1) % state.players)
        return
    end_game(ctx)


def end_game(ctx: Ctx) -> None:
    for seat in ctx.state.in_order():
        if terr.has(ctx.pack, ctx.state.civs[seat], "wall-street"):
            coin = ctx.state.civs[seat].coin
            ctx.emit(
                CultureFromTiles(
                    rule="patchistory.tile.wall-street",
                    seat=seat,
                    ability="wall-street",
                    culture=coin // ctx.pack.number("wall_street_coin_per_culture"),
                )
            )
    culture = tuple(c.culture for c in ctx.state.civs)
    best = max(culture)
    ctx.emit(
        GameFinished(
            rule="patchistory.game.end",
            culture=culture,
            winners=tuple(s for s, c in enumerate(culture) if c == best),
        )
    )


def result(state: PState) -> dict[str, Any]:
    """The final ranking by Culture, ties sharing a place (patchistory.game.end)."""
    culture = list(state.final or tuple(c.culture for c in state.civs))
    seats = range(state.players)
    ranking = [
        {
            "seat": seat,
            "place": 1 + sum(culture[o] > culture[seat] for o in seats),
            "score": culture[seat],
        }
        for seat in sorted(seats, key=lambda s: (-culture[s], s))
    ]
    return {
        "scores": culture,
        "ranking": ranking,
        "tie_breaks": [],
        "details": {
            "rule": "patchistory.game.end",
            "winners": [r["seat"] for r in ranking if r["place"] == 1],
        },
    }


# --- the events --------------------------------------------------------------------------------


@event
class RoundBegan(PatchEvent):
    era: int
    round: int
    serial: int
    start: int


@FOLDS.handles(RoundBegan)
def _round(pack: PatchPack, state: PState, ev: RoundBegan) -> PState:
    n = state.players
    return evolved(
        state,
        era=ev.era,
        round=ev.round,
        serial=ev.serial,
        start=ev.start,
        flags=((),) * n,
        pp=(0,) * n,
        offered=(),
        bids=(-1,) * n,
        amounts=(0,) * n,
        won=(),
        shown=0,
        passed=(),
    )


@event
class EraTilesShuffled(PatchEvent):
    """The new Era's Terrain Tiles make the stack; the last Era's unused ones are set aside."""

    era: int
    tiles: tuple[str, ...]


@FOLDS.handles(EraTilesShuffled)
def _era_tiles(pack: PatchPack, state: PState, ev: EraTilesShuffled) -> PState:
    return evolved(state, tiles_left=ev.tiles)


@event
class CultureFromTiles(PatchEvent):
    """Culture an ability gives or takes at the end of an Era or of the game."""

    seat: int
    ability: str
    culture: int


@FOLDS.handles(CultureFromTiles)
def _tile_culture(pack: PatchPack, state: PState, ev: CultureFromTiles) -> PState:
    return goods_changed(state, ev.seat, culture=ev.culture)


@event
class GameFinished(PatchEvent):
    culture: tuple[int, ...]
    winners: tuple[int, ...]


@FOLDS.handles(GameFinished)
def _finished(pack: PatchPack, state: PState, ev: GameFinished) -> PState:
    return evolved(state, phase="over", final=ev.culture, turn=-1, pending=())
