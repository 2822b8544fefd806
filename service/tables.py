"""Tables that run themselves: open seats and invitations, bots in seats, resigning, clocks and
notifications, on top of the game service. Every act on a seat is a command on the game's own
log (`domain.core.seating`); this module checks who may ask for it. What follows each append
(the lobby, the players' notifications and webhooks, the clock's next deadline, the bots' turn)
is the table subscriber's (`service.settling`); the worker's watch here fires the clocks, asks
again for the bots' moves and catches up on the notifications a crash left unsent."""

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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import urllib3

from bots.base import make_bot
from domain.core.errors import RulesetRevisionUnavailable, RuleViolation, UnknownRuleset
from domain.core.kernel import Game
from domain.core.messages import WORKER, Command
from domain.core.ruleset import Ruleset
from domain.core.seated import bot_seats_awaited
from domain.core.seating import (
    CLAIM_SEAT,
    PERSON,
    START_TABLE,
    TIME_OUT,
    TableOpened,
    table_clock,
)
from domain.core.table import ADMIN
from service import webhooks
from service.auth import new_token, seat_role, token_hash
from service.errors import CommandRefused, GameBusy, SeatNotPlayable
from service.games import CreatedGame, GameService
from service.players import (
    create_player,
    my_games,
    player_by_key,
    player_by_ticket,
    player_notifications,
    player_seat_finder,
    player_stream_ticket,
)
from service.settling import (
    awaited_people,
    deliver_notice,
    game_owner,
    notices_between,
    notify,
    players_of,
    set_next_deadline,
    settle_again,
    started,
)
from service.subscribers import schedule_steps
from service.webhooks import WebhookRefused
from store import keys
from store.credentials import TokenHashes
from store.errors import GameNotFound, VersionConflict
from store.players import Player

__all__ = [  # asked of this module by the API, the workers and the tests since it was one
    "Player",
    "SeatNotPlayable",
    "WebhookRefused",
    "create_player",
    "game_owner",
    "my_games",
    "player_by_key",
    "player_by_ticket",
    "player_notifications",
    "player_seat_finder",
    "player_stream_ticket",
]

log = logging.getLogger("chronicle.tables")

INVITATION_PREFIX = "inv_"
BOT_DELAY_S = float(os.environ.get("CHRONICLE_BOT_DELAY_S", "0.2"))
BOT_MOVES_PER_JOB = 500
NOTIFY_GRACE_S = float(os.environ.get("CHRONICLE_NOTIFY_GRACE_S", "5"))
"""How long after an append the worker's watch takes its notifications as lost (the request
that made it normally sends them within milliseconds) and sends them from the log."""

UNKNOWN_RULESET_WAIT_S = 300.0
"""How long the watch leaves a game of a ruleset this server lacks before it looks again (a
server sharing the Redis that has the ruleset sends its notifications meanwhile)."""


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


# --- notifications, derived from the log ------------------------------------------------------


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
        settle_again(service, rules, game_id, game)
    if mark and (store.notified_up_to(game_id) or 0) >= service.store.version(game_id):
        store.forget_notified(game_id, mark)
    return sent


# --- webhooks ----------------------------------------------------------------------------------


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
            schedule_steps(service, game_id, outcome.version, outcome.system_step_due)
        break  # the game moved on: the next deadline is set by the append
    else:
        set_next_deadline(players_of(service), rules, game, game_id)
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
