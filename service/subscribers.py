"""The one place where what follows a command is wired (`service.bus`): the subscribers to
each append, in the order they run, and the handlers of what a command or a creation made due.

- the status index: the game is put in its new status's index before the append and taken out
  of its old one after it (it is never missing from the index of the status it has);
- the table's settling (`service.settling`): marked for its notifications before, the lobby,
  clock, bots and notifications after;
- the seed's reveal, once the game is over (contracts §4);
- after a command or a creation: the steps no seat takes that it made due, and snapshots,
  handed to the service's scheduler.

Nothing after the append may fail the command that made it: the table's settling and the
scheduling log what they lose (the worker's watch and sweeper ask again); the status index and
the reveal fail the request as they always have (the sweeper reveals a seed a crash lost)."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable

from domain.core.seated import is_over
from service.bus import (
    AppendSubscriber,
    Change,
    CommandPlayed,
    Follow,
    GameCreated,
    Service,
    Subscribers,
)
from service.loading import status_of
from service.scheduler import NoScheduler, snapshot_due
from service.settling import table_settling

log = logging.getLogger("chronicle.service")


def status_index(service: Service, change: Change) -> Follow | None:
    """A creation is indexed by the store's create itself."""
    if change.before is None:
        return None
    status, was = change.status, status_of(change.rules, change.before)
    if status == was:
        return None
    name = change.rules.name
    service.store.index_status(change.game_id, name, status)
    return functools.partial(service.store.unindex_status, change.game_id, name, was)


def seed_reveal(service: Service, change: Change) -> Follow | None:
    """The seed is revealed in the log once the game is over (a creation reveals nothing)."""
    after = change.after
    if change.before is None or after.seed_revealed is not None or not is_over(change.rules, after):
        return None
    return functools.partial(service.reveal_seed, change.game_id)


def schedule_steps(service: Service, game_id: str, version: int, due: bool | None) -> None:
    """Have the steps due at `version` taken (`due` None: ask whether any is)."""
    if isinstance(service.scheduler, NoScheduler):
        return
    try:
        if service.system_step_due(game_id) if due is None else due:
            service.scheduler.system_steps(game_id, version)
    except Exception:  # logged; asked for again by the next command and the sweeper
        log.warning("could not settle the system steps of game %s", game_id, exc_info=True)


def steps_of_the_new_game(service: Service, created: GameCreated) -> None:
    schedule_steps(service, created.game_id, created.version, None)


def what_the_command_made_due(service: Service, played: CommandPlayed) -> None:
    """The step it made due (with a snapshot where it became due, for a worker elsewhere to
    load), or a snapshot when its events crossed a multiple of the service's `snapshot_every`
    (one is written where a step became due, or after it)."""
    game_id, version, due = played.game_id, played.version, played.system_step_due
    if due and service.scheduler.steps_elsewhere:
        snapshot_for_the_step(service, game_id, version)
    schedule_steps(service, game_id, version, due)
    if not due and snapshot_due(service.snapshot_every, played.first_version, version):
        schedule(service.scheduler.snapshot, game_id, version)


def snapshot_for_the_step(service: Service, game_id: str, version: int) -> None:
    """Leave a snapshot of the state this process holds where a step became due, for the
    worker that takes the step: it loads that instead of folding every event since it last
    saw the game (a few hundred, between two epoch closes)."""
    game = service.cache.get(game_id)
    if game is None or game.version != version:
        return
    try:
        service.save_snapshot(service.rules_of(game), game_id, game)
    except Exception:  # the worker folds the events instead
        log.warning("could not snapshot game %s for its step", game_id, exc_info=True)


def schedule(what: Callable[[str, int], None], game_id: str, version: int) -> None:
    try:
        what(game_id, version)
    except Exception:  # a missed snapshot only costs a longer load later
        log.warning("could not schedule work for game %s", game_id, exc_info=True)


ON_APPEND: tuple[AppendSubscriber, ...] = (status_index, table_settling, seed_reveal)

SUBSCRIBERS = Subscribers(
    on_append=ON_APPEND,
    handlers={
        GameCreated: (steps_of_the_new_game,),
        CommandPlayed: (what_the_command_made_due,),
    },
)
