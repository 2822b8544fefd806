"""What each viewer may see (contracts §5), summaries, results, and precise refusals.

Hidden: other players' Area tokens (Paired ones included) and face-down Event cards, every
Honor stack's order (known to nobody), the counted-out cards of later epochs, face-down Endgame
tokens (known only to the player who left them), the bag's contents, the tokens and cards on
offer to another player, and under Option 2 the Empire cards chosen in secret until their turn.
"""

from __future__ import annotations

from typing import Any

from domain.core.errors import IllegalAction, RuleViolation
from domain.core.messages import Command
from domain.hotw.cards import Building, Phase
from domain.hotw.model import (
    ConquestTask,
    EffectTask,
    HotwState,
    OrganizationStep,
    Pool,
    Stage,
    Variant,
)
from domain.hotw.pack import HotwPack
from domain.hotw.rules import actions
from domain.hotw.rules.conquest import conquest_cost, is_land_of_the_enemy, next_to_conquest
from domain.hotw.rules.endgame import final_standing
from domain.hotw.rules.expand import active_fleets, army_targets, fleet_kind_for_pool
from domain.hotw.rules.gold import circuits, track_space


def _pool(pool: Pool) -> dict[str, int]:
    return {"people": pool.people, "fleets": pool.fleets, "great_wall_forts": pool.great_wall_forts}


def known_empire_card(state: HotwState, card: str, viewer: int | None) -> bool:
    """option2.secret: a secretly chosen Empire card is known to its holder only until
    its turn comes."""
    return card not in state.unrevealed or (
        viewer is not None and state.empire_choices.get(card) == viewer
    )


def view_of(pack: HotwPack, state: HotwState, viewer: int | None) -> dict[str, Any]:
    players = []
    spaces = pack.cards.pieces.gold_track_spaces
    for seat, p in enumerate(state.players):
        own = seat == viewer
        empire_cards = [c for c in p.empire_cards if known_empire_card(state, c, viewer)]
        players.append(
            {
                "seat": seat,
                "name": p.name,
                "gold": p.gold,
                "space": track_space(p.gold, spaces),
                "circuits": circuits(p.gold, spaces),
                "arrival": p.arrival,
                "supply": p.supply,
                "honor_track": list(p.honor_track),
                "pool_honors": list(p.pool_honors),
                "honor_stack": len(p.honor_stack),
                "area_tokens": list(p.area_tokens) if own else None,
                "area_token_count": len(p.area_tokens),
                "leader": p.leader,
                "event_card": p.event_card if own else None,
                "has_event_card": p.event_card is not None,
                "empire_cards": empire_cards,
                "hidden_empire_cards": len(p.empire_cards) - len(empire_cards),
                "event_cards": list(p.event_cards),
            }
        )
    turn = state.turn
    choosing_now = state.choosing[0] if state.choosing else None
    body: dict[str, Any] = {
        "epoch": state.epoch,
        "stage": state.stage.value,
        "dice": state.dice,
        "options": sorted(option.value for option in state.options),
        "step": state.step.value if state.step else None,
        "players": players,
        "gold_order": list(state.gold_order()),
        "lands": {
            land: {
                "owner": value.owner,
                "army": value.standing,
                "buildings": sorted(b.value for b in value.buildings),
                "great_wall": value.great_wall,
            }
            for land, value in sorted(state.lands.items())
        },
        "supply": dict(state.supply),
        "bag": len(state.bag),
        "active_areas": sorted(state.active_areas),
        "endgame_tokens": [
            {
                "epoch": t.epoch,
                "face_up": t.face_up,
                "token": t.token if t.face_up or viewer in t.known_by else None,
            }
            for t in state.endgame_tokens
        ],
        "offer": list(state.offer) if viewer is not None and viewer == choosing_now else None,
        "offer_count": len(state.offer),
        "choosing": list(state.choosing),
        "displayed": list(state.displayed),
        "empire_choices": {
            card: seat
            for card, seat in state.empire_choices.items()
            if known_empire_card(state, card, viewer)
        },
        "turn_order": [c for c in state.turn_order if known_empire_card(state, c, viewer)],
        "turn_index": state.turn_index,
        "cards_to_come": {
            str(e): len(cards) for e, cards in state.empire_decks.items() if e > state.epoch
        },
        "great_wall_on_map": list(state.great_wall_on_map),
        "awaiting": sorted(actions.awaited_seats(pack, state)),
        "pending": _pending(pack, state),
        "result": result_of(pack, state) if state.result is not None else None,
    }
    if turn is not None:
        revealed = turn.event_card in state.players[turn.seat].event_cards
        body["turn"] = {
            "seat": turn.seat,
            "card": turn.card,
            "event_card": turn.event_card if revealed or viewer == turn.seat else None,
            "empire_index": turn.empire_index,
            "phase": turn.phase.value,
            "pool": _pool(turn.pool),
            "event_pool": _pool(turn.event_pool),
            "fleets": list(turn.fleets),
            "event_fleets": list(turn.event_fleets),
            "leader_active": turn.leader_active,
            "leader_ignores": turn.leader_ignores,
            "invasion_modifier": (
                {"land": turn.modifier_land, "modifier": turn.invasion_modifier}
                if turn.modifier_land is not None
                else None
            ),
        }
    else:
        body["turn"] = None
    return body


def _pending(pack: HotwPack, state: HotwState) -> dict[str, Any] | None:
    if not state.agenda:
        return None
    task = state.agenda[-1]
    choice = actions.task_choice(pack, state, task)
    body: dict[str, Any] = {"task": type(task).__name__, "seat": task.seat}
    if isinstance(task, EffectTask):
        body |= {"source": task.source, "source_id": task.source_id, "effect": task.index}
    if isinstance(task, ConquestTask):
        body |= {
            "enemy": task.enemy,
            "conquest_points": task.points,
            "lands": list(task.lands),
            "pool": task.pool,
            "barbarian": task.barbarian,
        }
    if choice is not None:
        body |= {"command": choice.command, "options": list(choice.options)}
    return body


def summary_of(pack: HotwPack, state: HotwState) -> dict[str, Any]:
    return {
        "epoch": state.epoch,
        "stage": state.stage.value,
        "phase": state.turn.phase.value if state.turn else None,
        "current_seat": state.current_seat,
        "awaiting": sorted(actions.awaited_seats(pack, state)),
        "gold": [p.gold for p in state.players],
    }


TIE_BREAKS = (
    "most gold (chests on one space are tied)",
    "fewest people pieces shown on the player's Empire cards",
    "most Honor icons on the player's Event cards",
)


def result_of(pack: HotwPack, state: HotwState) -> dict[str, Any]:
    """Final gold, ranking (tied seats share a place) and the tie-breaks (p9 Winning); before
    the end, the standing as it would be now (`details.final` false)."""
    spaces = pack.cards.pieces.gold_track_spaces
    if state.result is not None:
        gold, ranking = state.result.gold, state.result.ranking
        people, icons = state.result.people_shown, state.result.honor_icons
    else:
        gold, ranking, people, icons = final_standing(pack, state)
    rows = []
    place = 1
    for group in ranking:
        for seat in group:
            rows.append(
                {
                    "seat": seat,
                    "place": place,
                    "score": gold[seat],
                    "tie_break": {"people_shown": people[seat], "honor_icons": icons[seat]},
                }
            )
        place += len(group)
    return {
        "scores": list(gold),
        "ranking": rows,
        "tie_breaks": list(TIE_BREAKS),
        "details": {
            "final": state.result is not None,
            "winners": list(ranking[0]) if ranking else [],
            "space": [track_space(g, spaces) for g in gold],
            "circuits": [circuits(g, spaces) for g in gold],
        },
    }


# --- refusals -----------------------------------------------------------------------------


def _no(message: str, rule: str, command: Command) -> RuleViolation:
    return IllegalAction(message, rule, {"command": command.as_dict()})


def refusal_for(
    pack: HotwPack, state: HotwState, seat: int, command: Command
) -> RuleViolation | None:
    """The most specific rule a refused command breaks."""
    kind = command.type
    if kind in ("move_army", "move_fleet"):
        return _no("placed armies and fleets never move", "expand.no-movement", command)
    if state.stage is Stage.OVER:
        return _no("the game is over", "winning.most-gold", command)
    conquest = _conquest_refusal(pack, state, command)
    if conquest is not None:
        return conquest
    if state.agenda and not kind.startswith("choose_"):
        return _no("a choice is awaited first", "turn.current-player-only", command)
    if state.stage is Stage.ORGANIZATION:
        if kind == "choose_event_card":
            if not state.has_option(Variant.EVENT_CARD_SELECTION):
                return _no(
                    "Event cards are dealt, not chosen (Option 1 is not in play)",
                    "organization.event-cards",
                    command,
                )
            return _no(
                "that Event card is not among those passed to you",
                "option1.event-selection",
                command,
            )
        if (
            kind == "choose_empire_card"
            and state.step is OrganizationStep.SELECT_HIDDEN_EMPIRE_CARDS
        ):
            return _no(
                "that Empire card is not among those passed to you",
                "option2.hidden-empires",
                command,
            )
        if kind == "choose_empire_card":
            return _no(
                "that Empire card is not on offer",
                "organization.empire-cards.choice",
                command,
            )
        if kind == "choose_area_token":
            return _no("that Area token is not on offer", "organization.area-tokens.later", command)
        return _no("Epoch organization is in progress", "epoch.structure", command)
    turn = state.turn
    phase = turn.phase if turn else None
    reveal = phase is Phase.REVEAL
    if kind == "play_honor":
        return _honor_refusal(pack, state, seat, command, phase)
    if kind == "use_leader":
        if reveal:
            return _no(
                "the Leader may not be used while the Event is revealed",
                "events.no-leader",
                command,
            )
        if not state.players[seat].leader or (turn and turn.leader_active):
            return _no("the Leader has been used", "leader.spent", command)
        if phase is not Phase.EXPAND:
            return _no("the Leader is used in Expand the Empire", "invasion.dice.leader", command)
        return _no(
            "with dice the Leader adds a die; without dice it ignores difficult terrain or forts",
            "invasion.no-dice.leader" if not state.dice else "intro.one-system",
            command,
        )
    if kind == "build_fort":
        land = str(command.arg("land"))
        if reveal:
            return _no(
                "no fort may be built in the Reveal the Event phase",
                "forts.not-in-reveal",
                command,
            )
        if Building.FORT in state.land(land).buildings:
            return _no("a land holds at most one fort", "forts.one-per-land", command)
        return _no(
            "a fort is built in an Empire land from a pool people piece",
            "forts.build",
            command,
        )
    if kind == "place_army":
        land = str(command.arg("land"))
        if land in pack.board.wastelands:
            return _no("an army may never be placed in a wasteland", "expand.no-wasteland", command)
        if turn is not None and phase in (Phase.REVEAL, Phase.EXPAND) and land in pack.board.lands:
            targets = army_targets(pack.board, state, seat, active_fleets(turn))
            if land not in targets:
                return _no(
                    "an army is placed next to one of the Empire's armies or fleets",
                    "expand.place-army",
                    command,
                )
        return _no("no army can be placed now", "expand.place-army", command)
    if kind == "place_fleet":
        water = str(command.arg("water"))
        if water in pack.board.seas:
            wanted = fleet_kind_for_pool(pack.edition, state.epoch)
            if pack.board.is_ocean(water) != (wanted == "ocean"):
                rule = "fleets.pool-ocean-epochs" if wanted == "ocean" else "fleets.pool-sea-epochs"
                return _no(f"a fleet from the pool goes in a {wanted} this epoch", rule, command)
        return _no(
            "a fleet is placed next to one of the Empire's armies or fleets",
            "expand.place-fleet",
            command,
        )
    if kind == "place_great_wall":
        return _no(
            "a Great Wall fort goes in Yellow River or Wei River once held",
            "empires.great-wall",
            command,
        )
    if kind == "end_phase":
        if phase is Phase.EXPAND:
            return _no("people pieces remain in the Empire pool", "expand.end", command)
        if phase is Phase.REVENUE:
            return _no(
                "Honors in the Empire pool must be played first",
                "revenue.honors.pool-deadline",
                command,
            )
        return _no("this phase runs by itself", "turn.phases", command)
    if kind == "play_area_token":
        return _no("Area tokens are played in Conclude the turn", "conclude.area-tokens", command)
    return None


def _conquest_refusal(pack: HotwPack, state: HotwState, command: Command) -> RuleViolation | None:
    """Option 3: conquest points are spent, or given up, before anything else."""
    kind = command.type
    task = state.agenda[-1] if state.agenda else None
    if not isinstance(task, ConquestTask):
        if kind in ("conquer_land", "end_conquest"):
            return _no(
                "there are no conquest points to spend",
                "option3.conquest-points",
                command,
            )
        return None
    if kind not in ("conquer_land", "end_conquest"):
        return _no(
            "spend the conquest points (conquer_land) or give them up (end_conquest) first",
            "option3.conquest-points",
            command,
        )
    if kind == "end_conquest":
        return None
    land = str(command.arg("land"))
    if land not in pack.board.lands or not is_land_of_the_enemy(state, land, task.enemy):
        return _no(
            "every land conquered must be controlled by the Enemy whose land was invaded",
            "option3.conquest-same-enemy",
            command,
        )
    if not next_to_conquest(pack.board, task, land):
        return _no(
            "a conquered land must be next to the land invaded or a land conquered since "
            "(fleets may not be used)",
            "option3.conquest-adjacency",
            command,
        )
    return _no(
        f"conquering {land} costs {conquest_cost(pack, state, land)} conquest points; "
        f"{task.points} remain",
        "option3.conquest-cost",
        command,
    )


def _honor_refusal(
    pack: HotwPack, state: HotwState, seat: int, command: Command, phase: Phase | None
) -> RuleViolation:
    honor = str(command.arg("honor"))
    if phase is Phase.REVEAL:
        return _no(
            "Honors may not be played in the Reveal the Event phase",
            "reveal.no-honor-play",
            command,
        )
    if honor not in state.players[seat].face_up_honors:
        return _no(
            "only Honors on the Honor track or in the Empire pool",
            "general.honors.playable-from",
            command,
        )
    if phase is Phase.EXPAND:
        return _no("only Honors that show coins are played in Expand", "expand.honors", command)
    return _no(
        "Honors are played in Expand the Empire and Raise revenue",
        "honors.play.not-others-turn",
        command,
    )
