"""Endgame and Winning (p9): the richest player at the finish wins (hotw24.intro.goal)."""

from __future__ import annotations

from domain.core.frozen import evolved
from domain.core.messages import event
from domain.hotw.editions.hotw_2024.context import (
    FOLDS,
    Ctx,
    HotwEvent,
    cited,
)
from domain.hotw.editions.hotw_2024.gold import collect_gold
from domain.hotw.editions.hotw_2024.honors import HonorPlayed, playable_honors
from domain.hotw.editions.hotw_2024.model import (
    EndgameToken,
    GameResult,
    HotwState,
    Stage,
)
from domain.hotw.editions.hotw_2024.pack import HotwPack
from domain.hotw.editions.hotw_2024.revenue import revenue_cites, revenue_items

UNCITED_RULES = ("hotw24.intro.goal",)
"""The clauses this module decides that no event or refusal carries."""


def epoch_five_order(state: HotwState) -> tuple[int, ...]:
    """Seats in the order of their Epoch V turns (endgame.when reading)."""
    order = [state.empire_choices[card] for card in state.turn_order]
    order += [seat for seat in range(len(state.players)) if seat not in order]
    return tuple(dict.fromkeys(order))


def begin_endgame(ctx: Ctx) -> None:
    """endgame.leftovers, then the coin Honors (endgame.honors)."""
    order = epoch_five_order(ctx.state)
    ctx.emit(EndgameBegan(rule="hotw24.endgame.when", order=order))
    for seat in order:
        player = ctx.state.players[seat]
        leftovers = len(player.area_tokens) + (1 if player.leader else 0)
        if leftovers:
            collect_gold(ctx, seat, leftovers, "hotw24.endgame.leftovers", "leftovers")
    for seat in order:
        for honor_id in playable_honors(ctx.state.players[seat]):
            honor = ctx.cards.honor(honor_id)
            if honor.shows_coins:
                rule = "hotw24.endgame.honors"
                ctx.emit(
                    HonorPlayed(
                        rule=rule,
                        cites=cited("hotw24.honors.play.endgame"),
                        seat=seat,
                        honor=honor_id,
                        for_effect=False,
                        endgame=True,
                    )
                )
                collect_gold(ctx, seat, honor.coins, rule, f"honor:{honor_id}")


def score_endgame(ctx: Ctx) -> None:
    """endgame.area-tokens: each Endgame token in epoch order pays every player with
    Friendly lands there; then the winner (winning.*)."""
    order = ctx.state.endgame_order
    for token in sorted(ctx.state.endgame_tokens, key=lambda t: t.epoch):
        ctx.emit(
            EndgameTokenRevealed(
                rule="hotw24.endgame.area-tokens", epoch=token.epoch, token=token.token
            )
        )
        area = ctx.board.area_tokens[token.token].area
        for seat in order:
            for amount, rule, reason in revenue_items(
                ctx.pack, ctx.state, seat, [area], standing=False
            ):
                also = revenue_cites(rule, standing=False)
                rule = "hotw24.endgame.area-tokens" if rule == "hotw24.revenue.buildings" else rule
                collect_gold(ctx, seat, amount, rule, f"endgame:{reason}", also)
    gold, ranked, people, icons = final_standing(ctx.pack, ctx.state)
    ctx.emit(
        GameEnded(
            rule="hotw24.winning.most-gold",
            cites=cited(*tie_breaks(gold, people, icons)),
            gold=gold,
            ranking=ranked,
            people_shown=people,
            honor_icons=icons,
        )
    )


def tie_breaks(
    gold: tuple[int, ...], people: tuple[int, ...], icons: tuple[int, ...]
) -> tuple[str, ...]:
    """The tie-breaks the final standing needed: chests sharing a space go to the fewest
    people shown (winning.tie.people), then the most Honor icons (winning.tie.honor-icons);
    still level, the win is shared (winning.tie.shared)."""
    seats = range(len(gold))
    pairs = [(a, b) for a in seats for b in seats if a < b and gold[a] == gold[b]]
    needed: list[str] = []
    if pairs:
        needed.append("hotw24.winning.tie.people")
    if any(people[a] == people[b] for a, b in pairs):
        needed.append("hotw24.winning.tie.honor-icons")
    if any(people[a] == people[b] and icons[a] == icons[b] for a, b in pairs):
        needed.append("hotw24.winning.tie.shared")
    return tuple(needed)


def people_shown(pack: HotwPack, state: HotwState, seat: int) -> int:
    """winning.tie.people: people pieces shown on all the player's Empire cards."""
    return sum(pack.cards.empire(card).people_shown for card in state.players[seat].empire_cards)


def honor_icons(pack: HotwPack, state: HotwState, seat: int) -> int:
    """winning.tie.honor-icons: Honor icons on the player's Event cards."""
    return sum(1 for card in state.players[seat].event_cards if pack.cards.event(card).honor_icon)


def final_standing(
    pack: HotwPack, state: HotwState
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]:
    """Most gold wins; chests on one space are tied whatever the stacking, then fewest people
    shown wins, then most Honor icons; still level is an actual tie (winning.tie.shared)."""
    seats = range(len(state.players))
    gold = tuple(state.players[s].gold for s in seats)
    people = tuple(people_shown(pack, state, s) for s in seats)
    icons = tuple(honor_icons(pack, state, s) for s in seats)

    def key(seat: int) -> tuple[int, int, int]:
        return (gold[seat], -people[seat], icons[seat])

    ranking: list[list[int]] = []
    for seat in sorted(seats, key=key, reverse=True):
        if ranking and key(ranking[-1][0]) == key(seat):
            ranking[-1].append(seat)
        else:
            ranking.append([seat])
    return gold, tuple(tuple(group) for group in ranking), people, icons


# --- vocabulary: the events of this chapter, and how each changes the state ----------------


@event
class EndgameBegan(HotwEvent):
    order: tuple[int, ...]


@event
class EndgameTokenRevealed(HotwEvent):
    REVEALS_HIDDEN = True

    epoch: int
    token: str


@event
class GameEnded(HotwEvent):
    gold: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]
    people_shown: tuple[int, ...]
    honor_icons: tuple[int, ...]


@FOLDS.handles(EndgameBegan)
def _endgame(pack: HotwPack, state: HotwState, e: EndgameBegan) -> HotwState:
    return evolved(state, stage=Stage.ENDGAME, endgame_order=tuple(e.order), turn=None)


@FOLDS.handles(EndgameTokenRevealed)
def _endgame_revealed(pack: HotwPack, state: HotwState, e: EndgameTokenRevealed) -> HotwState:
    tokens = tuple(
        EndgameToken(t.epoch, t.token, True, t.known_by) if t.epoch == e.epoch else t
        for t in state.endgame_tokens
    )
    return evolved(state, endgame_tokens=tokens)


@FOLDS.handles(GameEnded)
def _game_ended(pack: HotwPack, state: HotwState, e: GameEnded) -> HotwState:
    result = GameResult(
        gold=tuple(e.gold),
        ranking=tuple(tuple(group) for group in e.ranking),
        people_shown=tuple(e.people_shown),
        honor_icons=tuple(e.honor_icons),
    )
    return evolved(state, stage=Stage.OVER, result=result)
