"""Hidden information never leaks in hotw-2024 (contracts §5).

Random games are played through the API (the Flask test client, in process). While they are
played, and at many versions once they are over, every seat, the admin and a spectator ask every
endpoint: state, state?at=, the event feed, export, stream, explain, legal actions, result,
position, refusals. Every answer is held to an oracle worked out from the game's event log
(tests/support/hotw_secrets.py): no caller is ever shown an item it may not see at that version
(another seat's Area tokens, an Event card before it is revealed, the counted-out cards, an Honor
stack's order, a face-down Endgame token), nor another's events unredacted or with their chance
draws, nor the seed before it is revealed.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from domain.core.chance import Chance
from domain.core.frozen import evolved
from domain.core.kernel import Game, creation_events, decide, fold, replay
from domain.core.messages import Recorded
from domain.hotw.editions.hotw_2024 import Option
from service.chance import HmacSource, commitment
from service.codec import recorded_from
from service.games import GameService
from service.rulesets import ruleset
from service.wiring import game_service
from tests.support.api import bearer, everything_asked, sandboxes, sse_frames
from tests.support.hotw_secrets import REVEALING_TYPES, SECRET_TYPES, Oracle, Timeline

HOTW = "hotw-2024"
OPTIONAL_RULES = tuple(option.value for option in Option)
RULES = ruleset(HOTW)
TABLE_PROCEDURES = frozenset(
    {"undo", "propose_rewind", "accept_rewind", "refuse_rewind", "order_rewind"}
)
NEVER_LEGAL = {"command": {"type": "move_army", "land": "italia"}}
PROBE_EVERY = 8
"""After every command that deals, draws, passes or reveals a hidden item two callers (in
turn) ask about the game as it stands; after every 8th other command, one caller does."""
SAMPLE_EVERY = 40
"""Once the game is over, every caller also asks state?at= every 40th version."""


@dataclass
class Caller:
    name: str
    viewer: int | None
    token: str | None

    @property
    def headers(self) -> dict[str, str]:
        return bearer(self.token)


@dataclass
class Answers:
    """Answers collected while a game is played, checked once its whole log is known."""

    views: list[tuple[str, str, int, Caller]] = field(default_factory=list)
    events: list[tuple[str, dict[str, Any], Caller]] = field(default_factory=list)
    explanations: list[tuple[str, str, Caller]] = field(default_factory=list)
    after_end: bool = False
    """Set once the game is finished and its seed revealed: every event then reads in full to
    every caller, so what is served from then on is held to that instead."""
    in_full: list[tuple[str, dict[str, Any], Caller]] = field(default_factory=list)

    def view(self, where: str, response: Any, version: int, caller: Caller) -> Any:
        assert response.status_code < 500, response.get_data(as_text=True)
        self.views.append((where, response.get_data(as_text=True), version, caller))
        return response.get_json(silent=True)

    def served(self, where: str, events: list[dict[str, Any]], caller: Caller) -> None:
        served = [(where, event, caller) for event in events]
        if self.after_end:
            self.in_full += served
        else:
            self.events += served

    def explained(self, where: str, text: str, caller: Caller) -> None:
        if self.after_end:
            self.in_full.append((where, json.loads(text), caller))
        else:
            self.explanations.append((where, text, caller))

    def check(self, oracle: Oracle) -> None:
        for where, text, version, caller in self.views:
            oracle.view(f"{caller.name} {where}", text, version, caller.viewer, caller.token)
        for where, event, caller in self.events:
            oracle.event(f"{caller.name} {where}", event, caller.viewer, caller.token)
        for where, text, caller in self.explanations:
            oracle.explanation(f"{caller.name} {where}", text, caller.viewer, caller.token)
        for where, body, caller in self.in_full:
            name = f"{caller.name} {where} v{body['version']} {body.get('type')}"
            assert body.get("redacted") is not True, f"{name}: still redacted after the end"
            oracle.event_in_full(name, json.dumps(body), caller.token)


class LoadsInOrder:
    """`GameService.load_at` for a sweep over a finished game's versions in ascending order:
    it folds on from a version it loaded lately, from the log read once, instead of reading
    and decoding a snapshot for every answer (a test-only speed-up;
    `matches_the_real_load_at` compares it with the real one)."""

    def __init__(self, service: GameService, game_id: str, log: list[Recorded]) -> None:
        self.service = service
        self.real = service.load_at
        self.game_id = game_id
        self.log = log
        self.rules = service.ruleset_of(game_id)
        self.recent: dict[int, Game[Any]] = {}

    def __call__(self, game_id: str, version: int) -> tuple[Any, Game[Any]]:
        if game_id != self.game_id or not 1 <= version <= len(self.log):
            return self.real(game_id, version)
        game = self.recent.get(version)
        if game is None:
            earlier = [v for v in self.recent if v < version]
            start = max(earlier) if earlier else 0
            base = self.recent[start] if earlier else None
            game = replay(self.rules, self.log[start:version], base)
            self.recent[version] = game
            for old in sorted(self.recent)[:-4]:
                del self.recent[old]
        return self.rules, game

    def matches_the_real_load_at(self, versions: list[int]) -> bool:
        return all(
            self(self.game_id, v)[1].state == self.real(self.game_id, v)[1].state
            for v in sorted(versions)
        )


class Table:
    """One game and its callers: every seat, the admin and a spectator."""

    def __init__(
        self, api: Any, service: GameService, players: int, options: dict[str, bool], seed: str
    ):
        created = service.create_game(
            HOTW,
            [f"player-{n}" for n in range(players)],
            options,
            seed=hashlib.sha256(f"leaks:{seed}".encode()).digest(),
        )
        self.api = api
        self.service = service
        self.game_id = created.game_id
        self.url = f"/games/{created.game_id}"
        self.version = created.version
        self.seats = [Caller(f"seat {n}", n, t) for n, t in enumerate(created.tokens.seats)]
        self.callers = [
            *self.seats,
            Caller("admin", None, created.tokens.admin),
            Caller("spectator", None, None),
        ]
        self.tokens = [created.tokens.admin, *created.tokens.seats]
        self.rng = random.Random(seed)
        self.answers = Answers()
        self.cursor = {caller.name: 0 for caller in self.callers}
        self.turn = 0
        self.last_move: tuple[Caller, dict[str, Any], str] = (self.seats[0], {}, "")

    def next_caller(self) -> Caller:
        """Callers take turns at the questions not everyone asks every time."""
        self.turn += 1
        return self.callers[self.turn % len(self.callers)]

    def get(self, caller: Caller, path: str, version: int | None = None) -> Any:
        response = self.api.get(self.url + path, headers=caller.headers)
        return self.answers.view(path or "summary", response, version or self.version, caller)

    def post(self, caller: Caller, body: dict[str, Any], key: str | None = None) -> Any:
        headers = {**caller.headers, **({"Idempotency-Key": key} if key else {})}
        response = self.api.post(f"{self.url}/commands", json=body, headers=headers)
        assert response.status_code < 500, response.get_data(as_text=True)
        return response

    # --- playing ----------------------------------------------------------------------------

    def play(self) -> None:
        step = 0
        while True:
            summary = self.get(self.callers[-1], "")
            if summary["status"] == "finished":
                return
            caller = self.seats[self.rng.choice(summary["awaiting"])]
            legal = self.get(caller, "/legal-actions")
            moves = [a for a in legal["actions"] if a["command"]["type"] not in TABLE_PROCEDURES]
            step += 1
            self.last_move = (caller, self.rng.choice(moves), f"move-{step}")
            response = self.post(*self.last_move)
            assert response.status_code == 201, response.get_json()
            self.answers.served("command", response.get_json()["events"], caller)
            made = [s.decoded() for s in self.service.store.read(self.game_id, self.version + 1)]
            self.version = made[-1]["version"]  # the command's events, and the worker's after it
            if {e["type"] for e in made} & (SECRET_TYPES | REVEALING_TYPES):
                self.ask_now([self.next_caller(), self.next_caller()])
            elif step % PROBE_EVERY == 0:
                self.ask_now([self.next_caller()])

    def ask_now(self, callers: list[Caller]) -> None:
        """The game as it stands, asked by `callers`; a refusal, the (not yet) result, and
        the events one caller has not read yet."""
        for caller in callers:
            state = self.get(caller, "/state")
            assert state["version"] == self.version
            if caller.viewer is not None:
                self.get(caller, "/legal-actions")
        # a move the rules never allow, by a seat whose turn it is or is not
        refused = self.seats[self.turn % len(self.seats)]
        self.answers.view("refused", self.post(refused, NEVER_LEGAL), self.version, refused)
        # the last move again, with its idempotency key, by another seat: keys are per seat, so
        # it is that seat's own move, judged as such (refused), never the mover's answer replayed
        mover, move, key = self.last_move
        other = self.seats[((mover.viewer or 0) + 1) % len(self.seats)]
        again = self.post(other, move, key)
        assert again.status_code in (409, 422), again.get_json()
        self.answers.view("replayed", again, self.version, other)
        self.get(self.next_caller(), "/result")
        if state["status"] == "active":  # the admin's position export waits for the end
            assert self.get(self.callers[-2], "/position")["code"] == "game_not_finished"
        self.read_feed(self.next_caller())

    def read_feed(self, caller: Caller) -> None:
        """The events `caller` has not read yet, a page at a time."""
        start: int | None = self.cursor[caller.name] + 1
        while start is not None:
            path = f"{self.url}/events?from={start}&limit=200"
            response = self.api.get(path, headers=caller.headers)
            assert response.status_code == 200
            page = response.get_json()
            self.answers.served("feed", page["events"], caller)
            if page["events"]:
                self.cursor[caller.name] = page["events"][-1]["version"]
            start = page["next"]

    # --- once it is over --------------------------------------------------------------------

    def ask_about_the_past(self, log: list[Recorded]) -> None:
        """Every caller: state?at= where hidden items moved (at the first move inside each such
        command, and after it) and regularly; explain of every event the rules hide from
        someone. Every other event is explained too, by one caller in turn."""
        final = log[-1].version
        self.answers.after_end = True
        secret = {r.version for r in log if r.event.type in SECRET_TYPES}
        commands: dict[str, list[int]] = {}
        for recorded in log:
            commands.setdefault(recorded.command_id, []).append(recorded.version)
        states = set(range(1, final + 1, SAMPLE_EVERY))
        for versions in commands.values():
            moved = [v for v in versions if log[v - 1].event.type in SECRET_TYPES | REVEALING_TYPES]
            if moved:
                states |= {moved[0], versions[-1]}
        for version in range(1, final + 1):
            for caller in self.callers:
                if version in states:
                    self.get(caller, f"/state?at={version}", version)
            explainers = self.callers if version in secret else [self.next_caller()]
            for caller in explainers:
                response = self.api.get(
                    f"{self.url}/events/{version}/explain", headers=caller.headers
                )
                assert response.status_code == 200
                self.answers.explained("explain", response.get_data(as_text=True), caller)
        for caller in self.callers:
            self.cursor[caller.name] = 0
            self.read_feed(caller)
            export = self.api.get(f"{self.url}/export", headers=caller.headers)
            lines = [json.loads(line) for line in export.get_data(as_text=True).splitlines()]
            assert [e["version"] for e in lines] == list(range(1, final + 1))
            self.answers.served("export", lines, caller)
            stream = self.api.get(f"{self.url}/stream", headers=caller.headers, buffered=False)
            frames = [f for f in sse_frames(stream.response) if f.is_event]
            stream.close()
            assert [f.id for f in frames] == list(range(1, final + 1))
            self.answers.served("stream", [f.data for f in frames], caller)
            for path in ("", "/state", "/result", "/legal-actions"):
                self.get(caller, path, final)
            for path in (f"/state?at={final + 1}", f"/events/{final + 1}/explain"):
                assert self.api.get(self.url + path, headers=caller.headers).status_code == 404
                self.get(caller, path, final)
            # the whole position: anyone's, once the game is over and its seed revealed
            position = self.api.get(f"{self.url}/position", headers=caller.headers)
            assert position.status_code == 200, position.get_json()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("players", "options", "seed"),
    [
        (3, {"dice": True}, "three"),
        (4, {"dice": False}, "four"),
        (5, {"dice": True}, "five"),
        (4, {option: True for option in OPTIONAL_RULES}, "all optional rules"),
        (
            3,
            {
                "dice": False,
                "event_card_selection": True,
                "hidden_empire_cards": True,
                "paired_area_tokens": True,
            },
            "secret options without dice",
        ),
    ],
)
def test_no_hotw_answer_shows_any_caller_what_the_rules_hide_from_it(
    api, redis_url, vault, monkeypatch, players, options, seed
):
    service = game_service(redis_url)
    table = Table(api, service, players, options, seed)
    table.play()

    log = [recorded_from(stored) for stored in service.store.read(table.game_id, 1)]
    timeline = Timeline.of(log)
    loads = LoadsInOrder(service, table.game_id, log)
    monkeypatch.setattr(service, "load_at", loads)
    table.ask_about_the_past(log)
    assert loads.matches_the_real_load_at([1, len(log) // 2, len(log)])

    oracle = Oracle(timeline, vault.seed(table.game_id).hex(), table.tokens)
    table.answers.check(oracle)
    found = oracle.findings
    assert timeline.violations == []
    assert found.leaks == [], "\n".join(found.leaks)
    # the checks had something to find: each seat was shown its own secrets, others not
    assert sorted(found.own_secrets_seen) == list(range(players))
    assert found.redacted_seen > 100
    assert found.answers > 5000


# --- non-interference: what others see does not depend on what is hidden from them ---------


def position_in_epoch_two(seed: str) -> Any:
    """The first of a few random games that reaches a turn of Epoch II while seat 1 still holds
    its Area tokens and its face-down Event card, played in process up to that turn."""
    for attempt in range(20):
        state = playing_until_seat_one_hides_things(f"{seed}:{attempt}")
        if state is not None:
            return state
    raise AssertionError("no random game reached such a position")


def playing_until_seat_one_hides_things(seed: str) -> Any:
    rules = RULES
    secret = hashlib.sha256(f"interference:{seed}".encode()).digest()
    rng = random.Random(seed)
    names = tuple(f"player-{n}" for n in range(4))
    events = creation_events(rules, names, {}, commitment(secret), Chance(HmacSource(secret), 0))
    game = replay(rules, [Recorded(n, e, "system") for n, e in enumerate(events, start=1)])
    while True:
        state = game.state
        if (
            state.epoch == 2
            and state.turn is not None
            and state.turn.seat != 1
            and state.players[1].event_card is not None
            and state.players[1].area_tokens
        ):
            return state
        if rules.is_over(state):
            return None
        due = rules.system_action(state)
        actor = "system" if due else rng.choice(sorted(rules.awaited_seats(state)))
        command = due or rng.choice(list(rules.legal_actions(state, actor)))
        chance = Chance(HmacSource(secret), game.draws)
        for event in decide(rules, game, actor, command, chance):
            game = fold(rules, game, Recorded(game.version + 1, event, actor))


def with_other_secrets(state: Any) -> Any:
    """The same position with everything hidden from all but seat 1 changed: seat 1's Area
    tokens swapped with tokens in the bag, its Event card swapped with a card counted out for
    Epoch III, its Honor stack in another order, and the bag in another order."""
    player = state.players[1]
    bag = list(state.bag)
    tokens = list(player.area_tokens)
    for n in range(min(len(tokens), len(bag))):
        tokens[n], bag[n] = bag[n], tokens[n]
    later = list(state.event_decks[3])
    card, later[0] = later[0], player.event_card
    changed = evolved(
        player,
        area_tokens=tuple(tokens),
        event_card=card,
        honor_stack=tuple(reversed(player.honor_stack)),
    )
    state = state.with_player(1, changed)
    return evolved(
        state,
        bag=tuple(reversed(bag)),
        event_decks={**state.event_decks, 3: tuple(later)},
    )


def test_what_other_callers_see_does_not_depend_on_one_seats_secrets(api):
    """Two sandbox games start from positions that differ only in what the rules hide from
    everyone but seat 1 (its Area tokens and Event card, its Honor stack's order, the bag, the
    cards counted out for later). Every other seat, the admin and a spectator must get exactly
    the same answers from both; seat 1 does see the difference."""
    state = position_in_epoch_two("epoch-two")
    other = with_other_secrets(state)
    assert other != state
    setup = {"ruleset": HOTW, "players": [p.name for p in state.players], "options": {}}
    worlds = sandboxes(api, setup, [RULES.encode_state(s) for s in (state, other)])
    for who in (0, 2, 3, "admin", "spectator"):
        seen = []
        for game in worlds:
            token = {"admin": game["admin_token"], "spectator": None}.get(who)  # type: ignore[call-overload]
            if isinstance(who, int):
                token = game["seat_tokens"][who]
            seen.append(everything_asked(api, game, token, NEVER_LEGAL))
        assert seen[0] == seen[1], f"{who} can tell seat 1's secrets apart"
    mine = [everything_asked(api, game, game["seat_tokens"][1], NEVER_LEGAL) for game in worlds]
    assert mine[0] != mine[1], "seat 1 itself sees its own secrets"


# --- chance draws as a side channel ----------------------------------------------------------


def test_the_public_draw_of_the_face_up_endgame_token_tells_nothing_of_the_seats_tokens():
    """A spectator reads Epoch I's bag (AreasActivated, in board order) and the face-up Endgame
    token with its draw `[k, n, index]`. Were the draw independent of the seats' secret draws,
    `bag.index(token) - index` could not always be how many of their tokens precede it."""
    told = []
    for game in range(30):
        secret = hashlib.sha256(f"side-channel:{game}".encode()).digest()
        names = ("a", "b", "c", "d")
        events = creation_events(
            RULES, names, {}, commitment(secret), Chance(HmacSource(secret), 0)
        )
        log = [Recorded(n, e, "system") for n, e in enumerate(events, start=1)]
        public = [recorded.seen_by(None) for recorded in log]
        bag = next(e for e in public if e["type"] == "hotw.AreasActivated")["data"]["tokens"]
        face_up = next(e for e in public if e["type"] == "hotw.EndgameTokenPlaced")
        ((_, _, index),) = face_up["draws"]
        position = bag.index(face_up["data"]["token"])
        drawn = [r.event.data()["token"] for r in log if r.event.type == "hotw.AreaTokenDrawn"]
        told.append(position - index == sum(bag.index(t) < position for t in drawn))
    assert not all(told), "the spectator can always tell"
