"""Sandboxes: a game that starts from a position document instead of being set up, checked to
be playable before it is created, and scripted chance (a what-if's die faces or draws, used
instead of the seed's outcomes)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from domain.core.chance import Chance, ChanceScriptError, ScriptedChance, script_problems
from domain.core.errors import RulesetRevisionUnavailable, RuleViolation
from domain.core.kernel import (
    Game,
    NeedsEarlierBase,
    decision,
    fold_decided,
    position_events,
    replay,
)
from domain.core.messages import WORKER, Event, Recorded
from domain.core.ruleset import Ruleset
from service import chance as chance_source
from service.codec import state_hash
from service.loading import MAX_SYSTEM_STEPS, system_step


def sandbox_start(
    rules: Ruleset[Any],
    source_game_id: str,
    position: Mapping[str, Any],
    chance: Mapping[str, Any] | None,
) -> tuple[list[Event], tuple[str, ...], bytes, str]:
    """The events that start a sandbox of `rules` (the source game's ruleset) from `position`,
    its players, its new seed and the seed's commitment; `InvalidPosition` (or
    `InvalidChanceScript`) when the ruleset cannot start a game from it."""
    script = chance_script(rules, chance) if chance is not None else None
    setup = position["setup"]
    if setup["ruleset"] != rules.name:
        raise InvalidPosition(
            f"the position is of {setup['ruleset']!r}, the game of {rules.name!r}",
            {"ruleset": rules.name},
        )
    check_revision(rules, setup.get("revision"))
    players = tuple(setup["players"])
    seed = chance_source.new_seed()
    commitment = chance_source.commitment(seed)
    events = position_events(
        rules,
        players,
        dict(setup["options"]),
        commitment,
        position["state"],
        source_game_id,
        script,
    )
    check_position(rules, events)
    return events, players, seed, commitment


def check_revision(rules: Ruleset[Any], given: int | None) -> None:
    """A sandbox keeps the revision of the game it comes from."""
    if given is None or given == rules.revision:
        return
    try:
        rules.at_revision(given)
    except RulesetRevisionUnavailable as unavailable:
        unavailable.in_request = True
        raise
    raise InvalidPosition(
        f"the position is of {rules.name} revision {given}, the game of revision "
        f"{rules.revision}: a sandbox keeps the revision of the game it comes from",
        {"revision": rules.revision},
    )


def check_position(rules: Ruleset[Any], events: list[Event]) -> None:
    """A sandbox's position must load and answer every question the service will ask of it:
    a position the ruleset cannot read is refused here, not by a failure on a later request."""
    try:
        game = replay(rules, [Recorded(i, e, "system") for i, e in enumerate(events, start=1)])
        state = game.state
        seats = list(game.setup.seats)
        rules.awaited_seats(state)
        for seat in seats:
            list(rules.legal_actions(state, seat))
        for viewer in [*seats, None]:
            json.dumps(rules.view(state, viewer))
        json.dumps(rules.summary(state))
        rules.is_over(state)
        rules.system_action(state)
        broken = rules.invariant_failures(state)
        if broken:
            raise InvalidPosition(
                f"the position breaks the ruleset's invariants: {'; '.join(broken)}"[:500],
                {"reason": "invariant", "invariants": broken[:20]},
            )
        try_first_moves(rules, state, seats)
        if state_hash(rules.encode_state(state)) != state_hash(
            rules.encode_state(rules.decode_state(rules.encode_state(state)))
        ):
            raise ValueError("the position does not survive encoding")
    except InvalidPosition:
        raise
    except Exception as exc:  # any failure of the ruleset on this input means "not a position"
        raise InvalidPosition(
            f"the ruleset cannot use this position: {type(exc).__name__}: {exc}"[:500],
            {"reason": type(exc).__name__},
        ) from None


TRIAL_MOVES = 3
"""How many of each awaited seat's legal actions a new sandbox decides on trial."""


def try_first_moves(rules: Ruleset[Any], state: Any, seats: Sequence[int]) -> None:
    """Decide, on a throwaway chance source, the step the system must take now and the first
    few legal actions of each awaited seat: a position the rules refuse to play from is
    refused when it is loaded, not by a 500 on the next command. A refusal by the rules
    (a RuleViolation) is an answer, not a failure."""
    trial = chance_source.HmacSource(bytes(chance_source.SEED_BYTES))
    due = rules.system_action(state)
    if due is not None:
        rules.decide_system(state, due, Chance(trial, 0))
    awaited = set(rules.awaited_seats(state))
    if due is None and not awaited and not rules.is_over(state):
        raise InvalidPosition(
            "nobody can move from this position: it awaits no seat, the system has no step to "
            "take, and the game is not over",
            {"reason": "stuck"},
        )
    for seat in (s for s in seats if s in awaited):
        for n, command in enumerate(rules.legal_actions(state, seat)):
            if n == TRIAL_MOVES:
                break
            try:
                rules.decide(state, seat, command, Chance(trial, 0))
            except RuleViolation:
                continue


class InvalidPosition(Exception):
    """A position document the ruleset cannot start a game from."""

    def __init__(self, message: str, details: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = dict(details or {})


MAX_SCRIPT = 1000
"""The most entries a sandbox's chance script may hold."""


def chance_script(rules: Ruleset[Any], chance: Mapping[str, Any]) -> tuple[tuple[int, int], ...]:
    """A sandbox's chance script from the request's `chance`: `faces` (die faces, each a draw
    of [0, die_sides), face f read as f - 1) or `draws` (`[n, result]` pairs, a whole number in
    [0, n) each), not both; refused as `InvalidChanceScript` when it cannot be used."""
    faces, draws = chance.get("faces"), chance.get("draws")
    if (faces is None) == (draws is None):
        raise InvalidChanceScript(
            "a chance script gives either `faces` (die faces) or `draws` ([n, result] pairs), "
            "exactly one of them; a die face f of a d6 among other draws is the draw [6, f-1]",
            {"given": sorted(chance)},
        )
    sides = rules.die_sides
    if faces is not None:
        wrong = [i for i, face in enumerate(faces) if not 1 <= face <= sides]
        if wrong:
            raise InvalidChanceScript(
                f"{rules.name} rolls a d{sides}: every face is 1 to {sides}; face {wrong[0]} "
                f"is {faces[wrong[0]]}",
                {"faces": wrong[:20], "sides": sides},
            )
        script = tuple((sides, int(face) - 1) for face in faces)
    else:
        script = tuple((int(n), int(result)) for n, result in draws)
        wrong_draws = script_problems(script)
        if wrong_draws:
            raise InvalidChanceScript(
                f"every draw is [n, result] with 0 <= result < n: {wrong_draws[0]}",
                {"draws": wrong_draws[:20]},
            )
    if not 1 <= len(script) <= MAX_SCRIPT:
        raise InvalidChanceScript(
            f"a chance script holds 1 to {MAX_SCRIPT} entries, this one {len(script)}",
            {"entries": len(script)},
        )
    return script


def script_covers_steps(rules: Ruleset[Any], game: Game[Any], version: int) -> None:
    """In a scripted sandbox, a seat's command is refused (`ChanceScriptUnusable`, judged at
    `version`) when the steps no seat takes that it makes due (an epoch closing) would need
    draws the script cannot give: the sandbox is never left closing on a step it cannot take."""
    script = game.chance_script
    if script is None:
        return
    for _ in range(MAX_SYSTEM_STEPS):
        due = system_step(rules, game)
        if due is None:
            return
        try:
            decided = decision(rules, game, WORKER, due, ScriptedChance(script, game.draws))
        except ChanceScriptError as unusable:
            raise ChanceScriptUnusable(unusable, version) from None
        steps = tuple(
            Recorded(game.version + i, e, WORKER, "script-check")
            for i, e in enumerate(decided.events, start=1)
        )
        try:
            game = fold_decided(rules, game, steps, decided.state)
        except NeedsEarlierBase:
            return  # a step that takes something back: nothing more to foresee here


class InvalidChanceScript(Exception):
    """A sandbox's chance script that cannot be used (a face off the die, a draw outside its
    range, both or neither of faces and draws)."""

    def __init__(self, message: str, details: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = dict(details or {})


class ChanceScriptUnusable(Exception):
    """A command of a scripted sandbox needs a draw its script cannot give: the script has run
    out (`exhausted`) or its next entry is of another range. Nothing is recorded; a script never
    falls back to the seed. Make a new sandbox with a longer (or fitting) script."""

    def __init__(self, error: ChanceScriptError, current_version: int) -> None:
        super().__init__(error.message)
        self.message = error.message
        self.exhausted = error.exhausted
        self.current_version = current_version
        self.details: dict[str, Any] = {"k": error.k, "n": error.n, "script_entries": error.given}
        if error.scripted is not None:
            self.details["scripted"] = list(error.scripted)
