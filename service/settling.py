"""What follows an append to a table's game (one with a seating), as the table subscriber
(`service.subscribers`) does it: before the append the game goes on the notifications'
catch-up list; after it, the lobby, the open seats, the clock's next deadline, the bots' turn,
and the notifications the append made due (derived from the game before and after it, so that
the worker's catch-up derives the same ones from the log: `service.tables`)."""

from __future__ import annotations

import functools
import json
import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.core.kernel import Game
from domain.core.ruleset import Ruleset
from domain.core.seated import bot_seats_awaited, is_over
from domain.core.seating import PERSON
from service.bus import Change, Follow, Service
from store.players import PlayerStore

log = logging.getLogger("chronicle.tables")

NOTIFIED_KINDS = ("your_turn", "game_started", "game_finished", "invitation")


def table_settling(service: Service, change: Change) -> Follow | None:
    """The append subscriber of a table's game: marked for its notifications before the
    append (they survive a crash right after it), settled after it."""
    if change.after.seating is None:
        return None
    since = 0 if change.before is None else change.before.version
    mark = mark_unnotified(service, change.game_id, since)
    return functools.partial(
        settle, service, change.rules, change.game_id, change.before, change.after, mark
    )


def players_of(service: Service) -> PlayerStore:
    return PlayerStore(service.store.redis)


def started(game: Game[Any]) -> bool:
    return game.seating is None or game.seating.started


def awaited_people(rules: Ruleset[Any], game: Game[Any] | None) -> set[int]:
    if game is None or game.seating is None or not game.seating.started or is_over(rules, game):
        return set()
    seating = game.seating
    return {s for s in rules.awaited_seats(game.state) if seating.controllers[s] == PERSON}


def settle(
    service: Service,
    rules: Ruleset[Any],
    game_id: str,
    before: Game[Any] | None,
    after: Game[Any],
    mark: str | None = None,
) -> None:
    """What follows an append to a game with a seating: the lobby, the clock's next deadline,
    the bots' turn, and the notifications the append made due (derived from the two games, so
    that the worker's catch-up derives the same ones from the log if this never runs: a crash
    right after the append). Nothing here may fail the command: what is lost is logged, and
    the worker's watch picks bots, clocks and notifications up again. `mark`: the game's mark
    on the catch-up list, taken off once every notification up to `after` is sent."""
    try:
        _settle_table(service, rules, game_id, before, after)
    except Exception:
        log.warning("could not settle the table of game %s", game_id, exc_info=True)
    try:
        store = players_of(service)
        for notice in notices_between(rules, game_id, before, after):
            deliver_notice(service, game_id, notice)
        since = 0 if before is None else before.version
        if store.advance_notified(game_id, after.version, since) >= after.version and mark:
            store.forget_notified(game_id, mark)
    except Exception:
        log.warning("could not notify the players of game %s", game_id, exc_info=True)


def _settle_table(
    service: Service,
    rules: Ruleset[Any],
    game_id: str,
    before: Game[Any] | None,
    after: Game[Any],
) -> None:
    seating = after.seating
    assert seating is not None
    store = players_of(service)
    over = is_over(rules, after)
    was_open = () if before is None or before.seating is None else before.seating.open_seats
    if before is None or seating.open_seats != was_open:
        service.store.set_meta(game_id, open_seats=str(len(seating.open_seats)))
    if before is None and seating.listing == "public" and not seating.started:
        store.list_in_lobby(game_id, rules.name, time.time())
    elif seating.started or over:
        store.leave_lobby(game_id, rules.name)
    set_next_deadline(store, rules, after, game_id)
    due = bool(bot_seats_awaited(rules, after))
    store.bots_due(game_id, due)
    if due:
        service.scheduler.bots(game_id, after.version)


@dataclass(frozen=True)
class Notice:
    """One notification a command made due: to a player (its inbox and webhooks), or (player
    None) to the game's own webhooks. `notice_id` names it by the game, the version the command
    ended at and its place among that command's notices: the same from the inline settling and
    from the worker's catch-up, which is what makes each delivered once."""

    notice_id: str
    kind: str
    player: str | None
    body: Mapping[str, Any]


def notices_between(
    rules: Ruleset[Any], game_id: str, before: Game[Any] | None, after: Game[Any]
) -> list[Notice]:
    """The notifications due from one command (`before`: the game before it, None for the
    creation): `game_started` and `game_finished` to every holder and the game's webhooks,
    `your_turn` to the holder of each person's seat newly awaited and the game's webhooks."""
    seating = after.seating
    if seating is None:
        return []
    body = {"game_id": game_id, "ruleset": rules.name, "version": after.version}
    found: list[tuple[str, str | None, dict[str, Any]]] = []
    holders = sorted({h for h in seating.holders if h})
    if seating.started and before is not None and not started(before):
        found += [("game_started", h, body) for h in holders] + [("game_started", None, body)]
    if is_over(rules, after) and before is not None and not is_over(rules, before):
        found += [("game_finished", h, body) for h in holders] + [("game_finished", None, body)]
    for seat in sorted(awaited_people(rules, after) - awaited_people(rules, before)):
        holder = seating.holders[seat]
        if holder:
            found.append(("your_turn", holder, {**body, "seat": seat}))
        found.append(("your_turn", None, {**body, "seat": seat}))
    notices = []
    for n, (kind, player, given) in enumerate(found):
        notice_id = f"{game_id}:{after.version}:{n}"
        notices.append(Notice(notice_id, kind, player, {**given, "notification_id": notice_id}))
    return notices


def deliver_notice(service: Service, game_id: str, notice: Notice) -> None:
    """Into the player's inbox exactly once, and onto its (or the game's) webhooks' queue once
    per webhook (a job named by the notice, never queued twice)."""
    store = players_of(service)
    if notice.player is None:
        owner, payload = game_owner(game_id), {"kind": notice.kind, **notice.body}
    else:
        _, entry = store.notify_once(notice.player, notice.notice_id, notice.kind, notice.body)
        owner, payload = notice.player, {"id": entry, "kind": notice.kind, **notice.body}
    _queue_hooks(service, store, owner, notice.kind, payload, notice.notice_id)


def settle_again(service: Service, rules: Ruleset[Any], game_id: str, game: Game[Any]) -> None:
    """A table's lobby entry, open seats, deadline and bots as the game stands (the part of an
    append's settling a crash may have skipped)."""
    seating = game.seating
    assert seating is not None
    store = players_of(service)
    service.store.set_meta(game_id, open_seats=str(len(seating.open_seats)))
    if seating.started or is_over(rules, game):
        store.leave_lobby(game_id, rules.name)
    elif seating.listing == "public":
        store.list_in_lobby(game_id, rules.name, time.time(), again=True)
    set_next_deadline(store, rules, game, game_id)
    due = bool(bot_seats_awaited(rules, game))
    store.bots_due(game_id, due)
    if due:
        service.scheduler.bots(game_id, game.version)


def mark_unnotified(service: Service, game_id: str, version_before: int) -> str | None:
    """Before an append to a table's game: on the catch-up list, so that its notifications
    reach the players even if this process dies right after the append. None: not marked
    (the append goes on; the notifications are sent inline as ever)."""
    try:
        return players_of(service).mark_unnotified(game_id, version_before)
    except Exception:
        log.warning("could not mark game %s for its notifications", game_id, exc_info=True)
        return None


def set_next_deadline(
    store: PlayerStore, rules: Ruleset[Any], game: Game[Any], game_id: str
) -> None:
    seating = game.seating
    deadlines = [
        d
        for s in awaited_people(rules, game)
        if seating is not None and (d := seating.deadline_ms(s)) is not None
    ]
    store.set_deadline(game_id, min(deadlines) / 1000 if deadlines else None)


def game_owner(game_id: str) -> str:
    """The owner id under which a game's own webhooks are kept."""
    return f"game-{game_id}"


def notify(service: Service, player_id: str, kind: str, body: Mapping[str, Any]) -> None:
    store = players_of(service)
    entry = store.notify(player_id, kind, body)
    _queue_hooks(service, store, player_id, kind, {"id": entry, "kind": kind, **body})


def _queue_hooks(
    service: Service,
    store: PlayerStore,
    owner: str,
    kind: str,
    payload: Mapping[str, Any],
    notice_id: str = "",
) -> None:
    """Queue the notification for each of the owner's webhooks that asked for its kind
    (`notice_id`: queued once per webhook, however often it is asked)."""
    for hook_id, hook in store.webhooks(owner).items():
        if kind in hook.get("events", NOTIFIED_KINDS):
            body = json.dumps(dict(payload), sort_keys=True)
            service.scheduler.deliver(owner, hook_id, body, notice_id)
