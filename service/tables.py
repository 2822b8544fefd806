"""Tables that run themselves: players, open seats and invitations, bots in seats, resigning,
clocks and notifications, on top of the game service. Every act on a seat is a command on the
game's own log (`domain.core.seating`); this module checks who may ask for it, and after each
append settles what follows from it: the lobby, the players' notifications and webhooks, the
clock's next deadline and the bots' turns."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import random
import secrets
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import urllib3

from bots.base import make_bot
from domain.core.errors import RulesetRevisionUnavailable, RuleViolation, UnknownRuleset
from domain.core.kernel import Game
from domain.core.messages import WORKER, Command
from domain.core.ruleset import Ruleset
from domain.core.seated import bot_seats_awaited, is_over
from domain.core.seating import (
    CLAIM_SEAT,
    PERSON,
    START_TABLE,
    TIME_OUT,
    TableOpened,
    table_clock,
)
from domain.core.table import ADMIN
from service import following, tickets, webhooks
from service.auth import new_token, seat_role, token_hash
from service.webhooks import WebhookRefused
from store import keys
from store.credentials import TokenHashes
from store.errors import GameNotFound, VersionConflict
from store.players import Player, PlayerStore

__all__ = ["Player", "WebhookRefused"]

if TYPE_CHECKING:
    from service.games import CreatedGame, GameService

log = logging.getLogger("chronicle.tables")

PLAYER_KEY_PREFIX = "pk_"
INVITATION_PREFIX = "inv_"
BOT_DELAY_S = float(os.environ.get("CHRONICLE_BOT_DELAY_S", "0.2"))
BOT_MOVES_PER_JOB = 500
NOTIFIED_KINDS = ("your_turn", "game_started", "game_finished", "invitation")
NOTIFY_GRACE_S = float(os.environ.get("CHRONICLE_NOTIFY_GRACE_S", "5"))
"""How long after an append the worker's watch takes its notifications as lost (the request
that made it normally sends them within milliseconds) and sends them from the log."""

UNKNOWN_RULESET_WAIT_S = 300.0
"""How long the watch leaves a game of a ruleset this server lacks before it looks again (a
server sharing the Redis that has the ruleset sends its notifications meanwhile)."""


class SeatNotPlayable(Exception):
    """A person's command for a seat that a bot plays since the seat left the game."""

    def __init__(self, seat: int, why: str) -> None:
        super().__init__(f"seat {seat} has left the game ({why}): a bot plays it now")
        self.seat = seat
        self.why = why


class InvitationRefused(Exception):
    """No invitation, or not this game's, for a private table."""


class NotTheCreator(Exception):
    """Only the table's creator (or its admin token) may start it."""


@dataclass(frozen=True)
class CreatedTable:
    created: CreatedGame
    invitation: str | None
    seat: int | None
    seat_token: str | None


def players_of(service: GameService) -> PlayerStore:
    return PlayerStore(service.store.redis)


# --- players ----------------------------------------------------------------------------------


def create_player(service: GameService, name: str) -> tuple[Player, str]:
    key = PLAYER_KEY_PREFIX + secrets.token_urlsafe(24)
    player = players_of(service).create(uuid.uuid4().hex, name, token_hash(key))
    return player, key


def player_by_key(service: GameService, key: str | None) -> Player | None:
    if not key or not key.startswith(PLAYER_KEY_PREFIX):
        return None
    return players_of(service).by_key_hash(token_hash(key))


def player_stream_ticket(service: GameService, player: Player) -> tuple[str, float]:
    """A short-lived ticket that opens `player`'s notification stream where no Authorization
    header can be sent (a browser's EventSource), and when it expires."""
    store = players_of(service)
    secret = store.ticket_secret(player.player_id, secrets.token_urlsafe(32))
    key_hash = store.key_hash(player.player_id)
    if secret is None or key_hash is None:
        raise tickets.TicketRefused("no such player")
    return tickets.issue_player(secret, player.player_id, key_hash)


def player_by_ticket(
    service: GameService, ticket: str, reconnect: bool
) -> tuple[Player, tickets.PlayerTicket]:
    """The player a stream ticket names (on a reconnect, one up to an hour past its expiry),
    and the ticket; TicketRefused when it names none, is forged or expired, or the player's key
    changed."""
    store = players_of(service)
    grace = tickets.RECONNECT_GRACE_SECONDS if reconnect else 0.0
    named = tickets.check_player(ticket, store.ticket_secret, grace_s=grace)
    player = store.get(named.player_id)
    if player is None or named.binding != tickets.binding(store.key_hash(named.player_id) or ""):
        raise tickets.TicketRefused("the stream ticket's player key has changed: ask again")
    return player, named


def seat_of_player(service: GameService, game_id: str, player_id: str) -> int | None:
    _, game = service.load(game_id)
    seating = game.seating
    if seating is None or player_id not in seating.holders:
        return None
    return seating.holders.index(player_id)


def my_games(
    service: GameService,
    player: Player,
    offset: int,
    limit: int,
    after: tuple[float, str] | None = None,
) -> dict[str, Any]:
    """The player's games, newest first, a page of its index (after the cursor `after`, else
    from `offset`; `next_after` is the next page's, None on the last), each told apart by its
    players (bots named as such), when it was created, its status and, once over, its ranking."""
    from service.queries import iso_time

    page = players_of(service).games(player.player_id, offset, limit, after)
    ids, total = page.ids, page.total
    listed = []
    for game_id in ids:
        try:
            rules, game = service.load(game_id)
            meta = service.store.meta(game_id)
        except GameNotFound:  # expired unstarted (workers.scheduling.UNSTARTED_TTL_S)
            continue
        seat = seat_of_player(service, game_id, player.player_id)
        awaited = sorted(rules.awaited_seats(game.state)) if started(game) else []
        players = players_named(game)
        listed.append(
            {
                "game_id": game_id,
                "ruleset": rules.name,
                "title": rules.title,
                "status": service.status_of(rules, game),
                "seat": seat,
                "players": players,
                "bots": [s for s in range(len(players)) if seat_is_a_bot(game, s)],
                "created_at": iso_time(meta.created_at),
                "awaits_you": seat is not None and seat in awaited and not is_over(rules, game),
                "version": game.version,
                "ranking": ranking_of(rules, game, players),
            }
        )
    return {
        "games": listed,
        "total": total,
        "offset": offset,
        "limit": limit,
        "next_after": page.after,
    }


def players_named(game: Game[Any]) -> list[str]:
    """Each seat's name: its player's once claimed, else the label it was created with."""
    labels = list(game.setup.players)
    if game.seating is None:
        return labels
    return [name or label for name, label in zip(game.seating.names, labels, strict=True)]


def seat_is_a_bot(game: Game[Any], seat: int) -> bool:
    """A bot took the seat when the table started: no person ever held it."""
    return game.seating is not None and seat in game.seating.seated_bots


def ranking_of(
    rules: Ruleset[Any], game: Game[Any], players: Sequence[str]
) -> list[dict[str, Any]] | None:
    """The places once the game is over (the seats that left ranked last), else None."""
    from service.queries import seats_that_left_last

    if not is_over(rules, game):
        return None
    try:
        ranking = list(rules.result(game.state)["ranking"])
    except NotImplementedError:
        return None
    if game.seating is not None:
        ranking = seats_that_left_last(ranking, game.seating)
    return [
        {"seat": e["seat"], "player": players[e["seat"]], "place": e["place"], "score": e["score"]}
        for e in ranking
    ]


def started(game: Game[Any]) -> bool:
    return game.seating is None or game.seating.started


# --- open tables ------------------------------------------------------------------------------


def create_table(
    service: GameService,
    ruleset: str,
    players: Sequence[str],
    options: Mapping[str, Any],
    *,
    listing: str,
    creator: Player | None,
    creator_seat: int | None,
    clock: Mapping[str, Any],
    on_timeout: str,
) -> CreatedTable:
    """A game whose seats wait to be claimed (all but `creator_seat`, which its creator
    holds), listed in the lobby (`public`) or reachable by its invitation (`private`)."""
    seats = len(players)
    holders, names = [""] * seats, [""] * seats
    if creator is not None and creator_seat is not None:
        holders[creator_seat], names[creator_seat] = creator.player_id, creator.name
    opened = TableOpened(
        rule="",
        open_seats=tuple(s for s in range(seats) if s != creator_seat),
        listing=listing,
        clock=table_clock(clock),
        on_timeout=on_timeout,
        holders=tuple(holders),
        names=tuple(names),
    )
    invitation = INVITATION_PREFIX + secrets.token_urlsafe(18) if listing == "private" else None
    created = service.create_game(ruleset, players, options, table=opened)
    extra: dict[str, Any] = {"listing": listing}
    if invitation is not None:
        extra["invitation_hash"] = token_hash(invitation)
        # kept beside the seed, in the game's secret slot, for the creator's invitations
        service.store.redis.hset(keys.secrets(created.game_id), "invitation", invitation)
    if creator is not None:
        extra["creator"] = creator.player_id
    service.store.set_meta(created.game_id, **extra)
    seat_token = None
    if creator is not None and creator_seat is not None:
        players_of(service).add_game(creator.player_id, created.game_id)
        seat_token = created.tokens.seats[creator_seat]
    return CreatedTable(created, invitation, creator_seat, seat_token)


def claim_seat(
    service: GameService,
    game_id: str,
    player: Player,
    seat: int | None,
    invitation: str | None,
) -> tuple[int, str]:
    """`player` takes an open seat (the first one when `seat` is None): an event on the game's
    log, then a new token for that seat. The table starts once no seat is open."""
    meta = service.store.meta(game_id)
    if meta.extra.get("listing") == "private":
        expected = meta.extra.get("invitation_hash", "")
        if not invitation or not hmac.compare_digest(token_hash(invitation), expected):
            raise InvitationRefused("this table is private: its invitation is needed to join")
    seat = _append_claim(service, game_id, player, seat)
    # from here on the seat is this player's, whatever follows: the answer carries its token
    token = new_token(game_id)
    TokenHashes(service.store.redis).replace(game_id, seat_role(seat), token_hash(token))
    players_of(service).add_game(player.player_id, game_id)
    start_when_full(service, game_id)
    return seat, token


CLAIM_ATTEMPTS = 8
"""How often a claim of "the first open seat" tries the next one when another claimant took
the one it chose in the meantime."""


def _append_claim(service: GameService, game_id: str, player: Player, seat: int | None) -> int:
    """Append `player`'s claim of `seat` (None: the first seat open when the claim is decided),
    or raise the refusal with nothing appended."""
    from service.games import CommandRefused

    for attempt in range(CLAIM_ATTEMPTS):
        _, game = service.load(game_id)
        open_seats = game.seating.open_seats if game.seating is not None else ()
        chosen = seat if seat is not None else (open_seats[0] if open_seats else 0)
        command = Command.of(CLAIM_SEAT, seat=chosen, player=player.player_id, name=player.name)
        try:
            service.play(game_id, "system", command)
            return chosen
        except CommandRefused as refused:
            taken = refused.violation.context.get("reason") == "seat_taken"
            if seat is not None or not taken or attempt + 1 == CLAIM_ATTEMPTS:
                raise
    raise AssertionError("unreachable")


def start_when_full(service: GameService, game_id: str) -> None:
    """Start the table once no seat is open. When the last claims race, each of them may find
    the table full and start it: the first start is the table's, and the others' refusal
    ("already started") is no failure of their claims."""
    from service.games import CommandRefused, GameBusy

    _, game = service.load(game_id)
    seating = game.seating
    if seating is None or seating.open_seats or seating.started:
        return
    try:
        start_table(service, game_id, "random")
    except CommandRefused as refused:
        if refused.violation.context.get("reason") != "started":
            raise
    except GameBusy:  # a step is due: only a started game has one
        log.info("table %s was started by another claim meanwhile", game_id)


def start_table(service: GameService, game_id: str, strategy: str) -> int:
    """Start the table now, with bots of `strategy` in the seats still open."""
    return service.play(game_id, ADMIN, Command.of(START_TABLE, strategy=strategy)).version


def invitation_of(service: GameService, game_id: str) -> str | None:
    found = service.store.redis.hget(keys.secrets(game_id), "invitation")
    return None if found is None else str(found)


def invite(service: GameService, game_id: str, invitee: str, invitation: str | None) -> bool:
    """Tell a player (by id) about a table, on their notification stream: False when there is
    no such player."""
    if players_of(service).get(invitee) is None:
        return False
    notify(service, invitee, "invitation", {"game_id": game_id, "invitation": invitation})
    return True


def may_start(service: GameService, game_id: str, player: Player | None) -> bool:
    creator = service.store.meta(game_id).extra.get("creator")
    return player is not None and creator == player.player_id


def lobby(
    service: GameService,
    ruleset: str | None,
    offset: int,
    limit: int,
    after: tuple[float, str] | None = None,
) -> dict[str, Any]:
    """Public tables with open seats, newest first, a page of the lobby's index: after the
    cursor `after`, else from `offset`; `next_after` is the next page's (None: the last)."""
    store = players_of(service)
    page = store.lobby_page(ruleset, offset, limit, after)
    ids, total = page.ids, page.total
    listed = []
    metas = service.store.metas(ids)
    for gone in set(ids) - {meta.game_id for meta in metas}:
        store.leave_lobby(gone, ruleset or "")
    for meta in metas:
        if meta.status != "open":
            store.leave_lobby(meta.game_id, meta.ruleset)
            continue
        try:
            _, game = service.load(meta.game_id)
        except GameNotFound:
            store.leave_lobby(meta.game_id, meta.ruleset)
            continue
        except (UnknownRuleset, RulesetRevisionUnavailable):
            continue  # a table this server cannot play (another server's ruleset or revision)
        open_seats = list(game.seating.open_seats) if game.seating else []
        listed.append(
            {
                "game_id": meta.game_id,
                "ruleset": meta.ruleset,
                "status": meta.status,
                "players": list(meta.players),
                "open_seats": open_seats,
                "options": dict(game.setup.options),
                "version": meta.version,
            }
        )
    return {
        "games": listed,
        "total": total,
        "offset": offset,
        "limit": limit,
        "next_after": page.after,
    }


def require_person_seat(service: GameService, game_id: str, seat: int) -> None:
    cached = service.cache.get(game_id)
    if cached is not None and cached.seating is None:
        return
    _, game = service.load(game_id) if cached is None else (None, cached)
    seating = game.seating
    if seating is not None and 0 <= seat < len(seating.left) and seating.left[seat]:
        raise SeatNotPlayable(seat, seating.left[seat])


# --- after each append ------------------------------------------------------------------------


def awaited_people(rules: Ruleset[Any], game: Game[Any] | None) -> set[int]:
    if game is None or game.seating is None or not game.seating.started or is_over(rules, game):
        return set()
    seating = game.seating
    return {s for s in rules.awaited_seats(game.state) if seating.controllers[s] == PERSON}


def settle(
    service: GameService,
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
    service: GameService,
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
    _set_next_deadline(store, rules, after, game_id)
    due = bool(bot_seats_awaited(rules, after))
    store.bots_due(game_id, due)
    if due:
        service.scheduler.bots(game_id, after.version)


# --- notifications, derived from the log ------------------------------------------------------


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


def deliver_notice(service: GameService, game_id: str, notice: Notice) -> None:
    """Into the player's inbox exactly once, and onto its (or the game's) webhooks' queue once
    per webhook (a job named by the notice, never queued twice)."""
    store = players_of(service)
    if notice.player is None:
        owner, payload = game_owner(game_id), {"kind": notice.kind, **notice.body}
    else:
        _, entry = store.notify_once(notice.player, notice.notice_id, notice.kind, notice.body)
        owner, payload = notice.player, {"id": entry, "kind": notice.kind, **notice.body}
    _queue_hooks(service, store, owner, notice.kind, payload, notice.notice_id)


def command_runs(
    service: GameService, game_id: str, after: int, upto: int
) -> list[tuple[int, int]]:
    """(first, last) version of each command's events after `after` up to `upto` (a command's
    events are consecutive and share their actor and command id)."""
    runs: list[tuple[int, int]] = []
    start = after + 1
    last_key: tuple[Any, Any] | None = None
    while start <= upto:
        page = service.store.read(game_id, start, upto, count=500)
        if not page:
            break
        for stored in page:
            envelope = stored.decoded()
            key = (envelope.get("actor"), envelope.get("command_id"))
            if runs and key == last_key and runs[-1][1] == stored.version - 1:
                runs[-1] = (runs[-1][0], stored.version)
            else:
                runs.append((stored.version, stored.version))
            last_key = key
        start = page[-1].version + 1
    return runs


def catch_up_notifications(service: GameService, game_id: str, mark: str | None = None) -> int:
    """Send the notifications of every command after the game's notified-up-to version,
    derived from its log as the inline settling would have (a process that crashed between an
    append and its notifications): each exactly once, however often this runs or races the
    inline settling. Then the table's lobby entry, deadline and bots are set from the game as
    it stands, and (`mark`) the game leaves the catch-up list. Returns the notices sent."""
    store = players_of(service)
    try:
        version = service.store.version(game_id)
    except GameNotFound:
        if mark:
            store.forget_notified(game_id, mark)
        return 0
    cursor = store.notified_up_to(game_id)
    sent = 0
    if cursor is not None and cursor < version:
        rules = service.ruleset_of(game_id)
        for first, last in command_runs(service, game_id, cursor, version):
            before = None if first == 1 else service.load_at(game_id, first - 1)[1]
            after = service.load_at(game_id, last)[1]
            for notice in notices_between(rules, game_id, before, after):
                deliver_notice(service, game_id, notice)
                sent += 1
            if store.advance_notified(game_id, last, first - 1) != last:
                return sent  # someone else moved the cursor meanwhile: theirs to finish
    rules, game = service.load(game_id)
    if game.seating is not None:
        _settle_again(service, rules, game_id, game)
    if mark and (store.notified_up_to(game_id) or 0) >= service.store.version(game_id):
        store.forget_notified(game_id, mark)
    return sent


def _settle_again(service: GameService, rules: Ruleset[Any], game_id: str, game: Game[Any]) -> None:
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
    _set_next_deadline(store, rules, game, game_id)
    due = bool(bot_seats_awaited(rules, game))
    store.bots_due(game_id, due)
    if due:
        service.scheduler.bots(game_id, game.version)


def mark_unnotified(service: GameService, game_id: str, version_before: int) -> str | None:
    """Before an append to a table's game: on the catch-up list, so that its notifications
    reach the players even if this process dies right after the append. None: not marked
    (the append goes on; the notifications are sent inline as ever)."""
    try:
        return players_of(service).mark_unnotified(game_id, version_before)
    except Exception:
        log.warning("could not mark game %s for its notifications", game_id, exc_info=True)
        return None


def _set_next_deadline(
    store: PlayerStore, rules: Ruleset[Any], game: Game[Any], game_id: str
) -> None:
    seating = game.seating
    deadlines = [
        d
        for s in awaited_people(rules, game)
        if seating is not None and (d := seating.deadline_ms(s)) is not None
    ]
    store.set_deadline(game_id, min(deadlines) / 1000 if deadlines else None)


# --- notifications and webhooks ---------------------------------------------------------------


def game_owner(game_id: str) -> str:
    """The owner id under which a game's own webhooks are kept."""
    return f"game-{game_id}"


def notify(service: GameService, player_id: str, kind: str, body: Mapping[str, Any]) -> None:
    store = players_of(service)
    entry = store.notify(player_id, kind, body)
    _queue_hooks(service, store, player_id, kind, {"id": entry, "kind": kind, **body})


def _queue_hooks(
    service: GameService,
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


def add_webhook(
    service: GameService,
    owner: str,
    url: str,
    events: Sequence[str],
    allow_private: bool = False,
) -> dict[str, Any]:
    hook_id = uuid.uuid4().hex
    secret = secrets.token_urlsafe(32)
    hook = {
        "url": url,
        "events": list(events),
        "secret": secret,
        "created_at": time.time(),
        "allow_private": allow_private,
    }
    players_of(service).add_webhook(owner, hook_id, hook)
    return {"webhook_id": hook_id, "url": url, "events": list(events), "secret": secret}


def signature(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def deliver(service: GameService, owner: str, hook_id: str, payload: str, attempt: int) -> int:
    """POST one notification to a webhook, signed (`X-Chronicle-Signature`: HMAC-SHA256 of the
    body with the webhook's secret); logs the attempt; raises on failure (the queue retries
    with backoff). Returns the HTTP status."""
    store = players_of(service)
    hook = store.webhooks(owner).get(hook_id)
    if hook is None:
        return 0
    body = payload.encode()
    headers = {
        "Content-Type": "application/json",
        "X-Chronicle-Signature": signature(hook["secret"], body),
        "X-Chronicle-Webhook": hook_id,
    }
    entry: dict[str, Any] = {"at": time.time(), "attempt": attempt, "payload": json.loads(body)}
    notice_id = str(entry["payload"].get("notification_id", ""))
    if notice_id and store.hook_sent(owner, hook_id, notice_id):
        return 0  # a second job of one notification (two catch-ups at once): it was sent
    if notice_id:
        headers["X-Chronicle-Notification"] = notice_id
    try:
        where = webhooks.target(hook["url"], (), bool(hook.get("allow_private", False)))
    except WebhookRefused as refused:
        store.log_delivery(owner, hook_id, {**entry, "ok": False, "error": f"refused: {refused}"})
        return 0
    try:
        status = webhooks.post(where, body, headers)
    except urllib3.exceptions.HTTPError as exc:
        store.log_delivery(owner, hook_id, {**entry, "ok": False, "error": "no answer"})
        raise RuntimeError(f"webhook not reached: {type(exc).__name__}") from None
    ok = 200 <= status < 300
    store.log_delivery(owner, hook_id, {**entry, "ok": ok, "status": status})
    if ok and notice_id:
        store.hook_sent(owner, hook_id, notice_id, now=True)
    if not ok:
        raise RuntimeError(f"webhook answered {status}")
    return status


# --- the worker: bots and clocks ---------------------------------------------------------------


def play_bots(service: GameService, game_id: str, delay_s: float = BOT_DELAY_S) -> int:
    """Play every awaited seat a bot holds, through the same command path as a person, until
    a person is awaited or the game ends. Safe to run twice at once: each move is appended only
    at the version it was chosen at."""
    from service.games import CommandRefused, GameBusy

    played = refused = 0
    for _ in range(BOT_MOVES_PER_JOB):
        if service.system_step_due(game_id):
            service.run_system_steps(game_id)
        rules, game = service.load(game_id)
        seats = bot_seats_awaited(rules, game)
        if not seats:
            break
        seat = seats[0]
        assert game.seating is not None
        strategy = game.seating.controllers[seat]
        command = choose(rules, game, seat, strategy, f"{game_id}:{game.version}:{seat}")
        if delay_s:
            time.sleep(delay_s)
        try:
            service.play(game_id, seat, command, game.version, f"bot-{game.version}", by_bot=True)
        except (VersionConflict, CommandRefused, GameBusy):
            refused += 1
            if refused > 3:
                break
            continue
        played += 1
    players_of(service).bots_due(game_id, bool(bot_seats_awaited(*service.load(game_id))))
    return played


def choose(rules: Ruleset[Any], game: Game[Any], seat: int, strategy: str, seed: str) -> Command:
    rng = random.Random(seed)
    actions = list(rules.legal_actions(game.state, seat))
    try:
        bot = make_bot(strategy, rules, rng)
    except (TypeError, ValueError):
        bot = make_bot("random", rules, rng)
    return bot.choose(game.state, actions, seat)


def fire_timeouts(service: GameService, game_id: str) -> int:
    """Time out every awaited seat whose clock has run out: one `time_out_seat` command each, keyed
    by the seat and the instant its wait began, so that however many workers try, it is on the
    log once."""
    fired = 0
    rules, game = service.load(game_id)
    seating = game.seating
    now_ms = int(time.time() * 1000)
    if seating is None:
        players_of(service).set_deadline(game_id, None)
        return 0
    for seat in sorted(awaited_people(rules, game)):
        deadline = seating.deadline_ms(seat)
        if deadline is None or now_ms < deadline:
            continue
        key = f"timeout-{seat}-{seating.waited_since_ms(seat)}"
        try:
            outcome = service.handle(
                game_id, WORKER, Command.of(TIME_OUT, seat=seat), game.version, key
            )
        except (VersionConflict, RuleViolation):
            continue
        fired += 0 if outcome.duplicate else 1
        if not outcome.duplicate:
            service._schedule_steps(game_id, outcome.version, outcome.system_step_due)
        break  # the game moved on: the next deadline is set by the append
    else:
        _set_next_deadline(players_of(service), rules, game, game_id)
    return fired


def catch_up_or_wait(service: GameService, game_id: str, mark: str, now_s: float) -> int:
    """The watch's catch-up of one game; a game of a ruleset this server lacks waits
    `UNKNOWN_RULESET_WAIT_S` on the list, logged in one line."""
    try:
        return catch_up_notifications(service, game_id, mark)
    except (UnknownRuleset, RulesetRevisionUnavailable) as unknown:
        players_of(service).postpone_notified(game_id, now_s + UNKNOWN_RULESET_WAIT_S)
        log.warning(
            "game %s's notifications wait %g s: %s", game_id, UNKNOWN_RULESET_WAIT_S, unknown
        )
    except Exception:
        log.warning("could not catch up on game %s's notifications", game_id, exc_info=True)
    return 0


def watch_tables(service: GameService, now_s: float) -> dict[str, int]:
    """One round of the worker's watch: fire the clocks run out, ask again for bot moves that
    nobody took (a lost job, a killed worker), and send the notifications an append left
    unsent (a process killed right after it) for the games marked `NOTIFY_GRACE_S` ago."""
    store = players_of(service)
    timed_out = sum(fire_timeouts(service, g) for g in store.deadlines_due(now_s))
    stale = store.games_awaiting_bots(now_s - 10)
    for game_id in stale:
        service.scheduler.bots(game_id, service.store.version(game_id))
    caught_up = 0
    for game_id, mark in store.notify_due(now_s - NOTIFY_GRACE_S):
        caught_up += catch_up_or_wait(service, game_id, mark, now_s)
    return {"timed_out": timed_out, "bots_requeued": len(stale), "notified": caught_up}


# --- what the API asks ------------------------------------------------------------------------


def check_webhook_url(
    url: str,
    own_hosts: Sequence[str],
    allow_private: bool,
    timeout_s: float = webhooks.RESOLVE_TIMEOUT_S,
) -> None:
    """Only http(s) URLs to a named host; never this server itself (its admin surface), and
    never an address inside (`service.webhooks`) unless the operator allows private ones.
    Checked when the webhook is added and again at every delivery, which connects to the
    address checked then."""
    webhooks.target(url, own_hosts, allow_private, timeout_s)


def seating_view(service: GameService, game_id: str) -> dict[str, Any]:
    rules, game = service.load(game_id)
    meta = service.store.meta(game_id)
    seating = game.seating
    labels = list(game.setup.players)
    awaited = awaited_people(rules, game)
    seats = []
    for seat, label in enumerate(labels):
        controller = seating.controllers[seat] if seating else PERSON
        clock = seating.clock if seating else None
        seats.append(
            {
                "seat": seat,
                "label": label,
                "name": seating.names[seat] if seating else "",
                "claimed": bool(seating is None or seat not in seating.open_seats),
                "bot": controller or None,
                "person": seat in seating.people_left() if seating else True,
                "left": (seating.left[seat] or None) if seating else None,
                "deadline_ms": seating.deadline_ms(seat) if seating and seat in awaited else None,
                "bank_ms": seating.banks_ms[seat]
                if seating and clock is not None and clock.kind == "bank"
                else None,
            }
        )
    clock = seating.clock if seating else None
    return {
        "game_id": game_id,
        "status": service.status_of(rules, game),
        "listing": meta.extra.get("listing", "private" if seating else "closed"),
        "started": started(game),
        "clock": {"kind": "none"}
        if clock is None
        else {
            "kind": clock.kind,
            "initial_ms": clock.initial_ms,
            "increment_ms": clock.increment_ms,
            "per_move_ms": clock.per_move_ms,
        },
        "on_timeout": seating.on_timeout if seating else "bot",
        "seats": seats,
        "now_ms": int(time.time() * 1000),
    }


def player_notifications(
    service: GameService, player: Player, after: str, follow: bool, heartbeat_s: float
) -> Iterator[tuple[str, str, str] | None]:
    """(id, kind, JSON body) of each notification after `after`, then (when `follow`) each new
    one as it comes; None between them every `heartbeat_s` (a keep-alive)."""
    store = players_of(service)
    last = after

    def read(wait_ms: float | None) -> list[tuple[str, str, str]]:
        nonlocal last
        page = store.inbox(player.player_id, last, None if wait_ms is None else int(wait_ms))
        if page:
            last = page[-1][0]
        return page

    def entries() -> Iterator[tuple[str, str, str] | None]:
        for page in following.followed(read, heartbeat_s, ended=lambda: not follow):
            if page is None:
                yield None
            else:
                yield from page

    return entries()


def player_seat_finder(service: GameService) -> Any:
    """For `Access`: the seat a player's key holds in a game."""

    def seat(game_id: str, key: str) -> int | None:
        player = player_by_key(service, key)
        return None if player is None else seat_of_player(service, game_id, player.player_id)

    return seat
