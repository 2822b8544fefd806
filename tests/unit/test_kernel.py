"""The kernel: chance, commands and events, the ruleset protocol, replay (contracts §1, §2, §4)."""

from __future__ import annotations

import ast
import random
from itertools import pairwise
from pathlib import Path

import pytest

from domain.core.chance import Chance, Draw, NoChanceAvailable
from domain.core.errors import (
    GameOver,
    IllegalAction,
    InvalidOptions,
    InvalidPlayerCount,
    NotYourTurn,
    UnknownRuleset,
)
from domain.core.kernel import (
    GameCreated,
    creation_events,
    decide,
    decision,
    fold,
    fold_decided,
    replay,
)
from domain.core.messages import (
    SYSTEM,
    Command,
    Recorded,
    event_from_record,
    event_record,
)
from domain.core.ruleset import find_ruleset, ruleset_names
from domain.core.table import ADMIN, ORDER_REWIND, UNDO
from domain.core.undo import can_undo
from service.chance import HmacSource, commitment, raw_outcome, verify_commitment, verify_draw
from service.rulesets import ruleset
from tests.support.table import folded_one_by_one
from tests.support.toy import SealedBids, ToyBidSealed, ToyDieRolled

SEED = bytes(range(32))
PLAYERS = ("ann", "bob", "cy")


def new_toy(seed: bytes = SEED, players=PLAYERS, **options):
    rules = SealedBids()
    chance = Chance(HmacSource(seed), 0)
    events = creation_events(rules, players, options, commitment(seed), chance)
    recorded = [Recorded(i, e, "system") for i, e in enumerate(events, 1)]
    return rules, replay(rules, recorded), recorded


def play(rules, game, log, seat, command, seed=SEED):
    chance = Chance(HmacSource(seed), game.draws)
    for event in decide(rules, game, seat, command, chance):
        log.append(Recorded(game.version + 1, event, seat))
        game = fold(rules, game, log[-1])
    return game


# --- chance ------------------------------------------------------------------------------


def test_the_same_seed_and_counter_always_give_the_same_outcome():
    assert raw_outcome(SEED, 7) == raw_outcome(SEED, 7)
    assert raw_outcome(SEED, 7) != raw_outcome(SEED, 8)
    assert raw_outcome(SEED, 7) != raw_outcome(bytes(32), 7)
    first = Chance(HmacSource(SEED), 0).dice(20)
    again = Chance(HmacSource(SEED), 0).dice(20)
    assert first == again
    assert set(first) <= set(range(1, 7))


def test_draws_continue_from_the_games_cursor():
    whole = Chance(HmacSource(SEED), 0)
    whole.dice(5)
    resumed = Chance(HmacSource(SEED), 3)
    resumed.dice(2)
    assert resumed.take_draws() == whole.take_draws()[3:]


def test_every_draw_records_its_counter_range_and_result():
    chance = Chance(HmacSource(SEED), 10)
    order = chance.shuffled(["a", "b", "c", "d"])
    draws = chance.take_draws()
    assert sorted(order) == ["a", "b", "c", "d"]
    assert [d.k for d in draws] == [10, 11, 12]
    assert [d.n for d in draws] == [4, 3, 2]
    assert all(verify_draw(SEED, d) for d in draws)
    assert not verify_draw(SEED, Draw(10, 4, (draws[0].result + 1) % 4))
    assert chance.take_draws() == ()


def test_the_commitment_verifies_the_revealed_seed_and_no_other():
    published = commitment(SEED)
    assert len(published) == 64
    assert verify_commitment(SEED, published)
    assert not verify_commitment(bytes(32), published)


def test_a_forbidden_chance_refuses_to_draw():
    with pytest.raises(NoChanceAvailable):
        Chance.forbidden().die()


# --- commands and events -----------------------------------------------------------------


def test_commands_from_json_compare_equal_to_listed_actions():
    listed = Command.of("place_army", land="tigris", via=["a", "b"])
    posted = Command.from_dict({"via": ["a", "b"], "type": "place_army", "land": "tigris"})
    assert posted == listed
    assert posted.as_dict() == {"type": "place_army", "land": "tigris", "via": ["a", "b"]}


def test_an_event_survives_its_stored_form():
    rolled = ToyDieRolled(rule="toy.roll", seat=2, face=5, draws=(Draw(3, 6, 4),))
    assert event_from_record(event_record(rolled)) == rolled


def test_a_private_event_shows_only_its_redacted_form_to_others():
    rules, game, log = new_toy()
    game = play(rules, game, log, 0, Command.of("bid", chips=3))
    sealed = log[-1]
    assert isinstance(sealed.event, ToyBidSealed)
    assert sealed.seen_by(0)["data"] == {"seat": 0, "chips": 3}
    for viewer in (1, 2, None):
        seen = sealed.seen_by(viewer)
        assert seen["data"] == {"seat": 0}
        assert seen["redacted"] is True
        assert "chips" not in str(seen)


# --- rulesets and the kernel -------------------------------------------------------------


def test_rulesets_are_found_by_name():
    assert find_ruleset("toy-sealed-bids") is SealedBids
    assert "toy-sealed-bids" in ruleset_names()
    with pytest.raises(UnknownRuleset):
        find_ruleset("chess")


def test_options_get_their_defaults_and_unknown_or_ill_typed_ones_are_refused():
    rules = SealedBids()
    assert rules.check_options({}) == {"rounds": 3, "die_sides": 6, "bonus": False}
    assert rules.check_options({"rounds": 5})["rounds"] == 5
    with pytest.raises(InvalidOptions) as unknown:
        rules.check_options({"colour": "red"})
    assert unknown.value.rule == "toy.setup"
    with pytest.raises(InvalidOptions):
        rules.check_options({"rounds": 9})
    with pytest.raises(InvalidOptions):
        rules.check_options({"bonus": "yes"})
    with pytest.raises(InvalidOptions):
        rules.check_options({"rounds": True})


def test_a_game_for_too_many_players_is_refused():
    with pytest.raises(InvalidPlayerCount) as refused:
        new_toy(players=("a", "b", "c", "d", "e"))
    assert refused.value.context["allowed"] == [2, 3, 4]


def test_the_creation_event_publishes_the_seed_commitment_not_the_seed():
    _, game, log = new_toy()
    created = log[0].event
    assert isinstance(created, GameCreated)
    assert created.seed_commitment == commitment(SEED)
    assert SEED.hex() not in str(log[0].as_dict())
    assert game.setup.players == PLAYERS
    assert game.draws == 2, "seating is a shuffle of three: two draws"


def test_sealed_choices_are_awaited_from_every_seat_at_once():
    rules, game, log = new_toy()
    assert rules.awaited_seats(game.state) == {0, 1, 2}
    game = play(rules, game, log, 1, Command.of("bid", chips=1))
    assert rules.awaited_seats(game.state) == {0, 2}


def test_a_seat_that_is_not_awaited_is_refused_with_the_turn_rule():
    rules, game, log = new_toy()
    game = play(rules, game, log, 1, Command.of("bid", chips=1))
    with pytest.raises(NotYourTurn) as refused:
        play(rules, game, log, 1, Command.of("bid", chips=2))
    assert refused.value.rule == "toy.turn"


def test_a_command_that_is_not_listed_is_refused_with_the_rulesets_reason():
    rules, game, _ = new_toy()
    with pytest.raises(IllegalAction) as refused:
        decide(rules, game, 0, Command.of("bid", chips=6), Chance.forbidden())
    assert refused.value.rule == "toy.bid"
    with pytest.raises(IllegalAction):
        decide(rules, game, 0, Command.of("resign"), Chance.forbidden())


def test_undoing_nothing_and_redeciding_draws_the_same_dice():
    """Counter-based chance: the same state and command always give the same outcome."""
    rules, game, log = new_toy()
    for seat, chips in ((0, 3), (1, 1), (2, 0)):
        game = play(rules, game, log, seat, Command.of("bid", chips=chips))
    first = decide(rules, game, 0, Command.of("roll"), Chance(HmacSource(SEED), game.draws))
    again = decide(rules, game, 0, Command.of("roll"), Chance(HmacSource(SEED), game.draws))
    assert first == again
    assert first[0].draws[0].k == game.draws


def random_game(seed: int, players: int):
    rng = random.Random(seed)
    game_seed = rng.randbytes(32)
    rules, game, log = new_toy(
        seed=game_seed,
        players=PLAYERS[:2] + ("dee", "eve")[: players - 2],
        rounds=rng.choice((1, 3, 5)),
    )
    incremental = [game]
    while not rules.is_over(game.state):
        seat = rng.choice(sorted(rules.awaited_seats(game.state)))
        actions = list(rules.legal_actions(game.state, seat))
        assert actions == list(rules.legal_actions(game.state, seat)), "deterministic order"
        game = play(rules, game, log, seat, rng.choice(actions), seed=game_seed)
        incremental.append(game)
    return rules, game, log, game_seed


@pytest.mark.parametrize("seed", range(40))
def test_random_games_replay_to_the_incrementally_built_state(seed):
    rules, game, log, game_seed = random_game(seed, 2 + seed % 3)
    assert replay(rules, log) == game
    assert game.draws == sum(len(r.event.draws) for r in log)
    for recorded in log:
        assert all(verify_draw(game_seed, d) for d in recorded.event.draws)
    with pytest.raises(GameOver):
        decide(rules, game, 0, Command.of("roll"), Chance.forbidden())


def test_a_snapshot_of_the_state_decodes_to_the_same_state():
    rules, game, _, _ = random_game(3, 3)
    assert rules.decode_state(rules.encode_state(game.state)) == game.state


# --- purity ------------------------------------------------------------------------------

FORBIDDEN_IN_DOMAIN = {
    "redis",
    "flask",
    "marshmallow",
    "random",
    "time",
    "uuid",
    "rq",
    "requests",
    "yaml",
    "os",
    "socket",
    "subprocess",
    "datetime",
    "secrets",
}


def test_the_domain_imports_nothing_impure():
    root = Path(__file__).resolve().parents[2] / "domain"
    offenders = []
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                if name.split(".")[0] in FORBIDDEN_IN_DOMAIN:
                    offenders.append(f"{path.name}: {name}")
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "open":
                offenders.append(f"{path.name}: open()")
    assert offenders == []


def new_2024_game(secret: bytes, players=("a", "b", "c", "d")):
    rules = ruleset("hotw-2024")
    chance = Chance(HmacSource(secret), 0)
    events = creation_events(rules, players, {}, commitment(secret), chance)
    log = [Recorded(n, e, SYSTEM) for n, e in enumerate(events, 1)]
    return rules, replay(rules, log), log


def test_the_state_a_decision_carries_is_the_fold_of_its_events():
    """The service folds a command's events with the state its decision worked out on the way
    (`fold_decided`); it must be the very game that folding them again one by one gives, for
    every command of a random 2024 game, epoch closes included."""
    secret = b"fold-decided".ljust(32, b".")
    rules, game, _ = new_2024_game(secret)
    rng = random.Random(4)
    carried = 0
    while not rules.is_over(game.state):
        due = rules.system_action(game.state)
        actor = SYSTEM if due else min(rules.awaited_seats(game.state))
        command = due or rng.choice(list(rules.legal_actions(game.state, actor)))
        decided = decision(rules, game, actor, command, Chance(HmacSource(secret), game.draws))
        recorded = [
            Recorded(game.version + n, e, actor, f"c{game.version}")
            for n, e in enumerate(decided.events, 1)
        ]
        folded = folded_one_by_one(rules, recorded, game)
        assert fold_decided(rules, game, recorded, decided.state) == folded
        assert replay(rules, recorded, game) == folded
        carried += decided.state is not None
        game = folded
    assert carried > 300


@pytest.mark.parametrize("seed", range(3))
def test_a_replay_is_the_event_by_event_fold_of_what_undos_and_rewinds_left(seed):
    """`replay` folds a seat's command in one go; with undos, rewinds, chance barriers and epoch
    closes in the log it must give the very game that folding each event kept gives, undo
    steps and all."""
    secret = f"replay-{seed}".encode().ljust(32, b".")
    rules, game, log = new_2024_game(secret, ("a", "b", "c", "d", "e")[: 3 + seed])
    rng = random.Random(seed)
    undone = rewound = 0
    while not rules.is_over(game.state) and len(log) < 2_500:
        due = rules.system_action(game.state)
        actor = SYSTEM if due else min(rules.awaited_seats(game.state))
        command = due or rng.choice(list(rules.legal_actions(game.state, actor)))
        if not due and can_undo(rules, game, actor) and rng.random() < 0.2:
            command, undone = Command.of(UNDO), undone + 1
        elif not due and game.version > 200 and rng.random() < 0.01:
            ends = [r.version for r, after in pairwise(log) if r.command_id != after.command_id]
            back = rng.choice([v for v in ends if v >= game.first_playable])  # as the service asks
            actor, command, rewound = ADMIN, Command.of(ORDER_REWIND, to_version=back), rewound + 1
        chance = Chance(HmacSource(secret), game.draws)
        events = decision(rules, game, actor, command, chance).events
        new = [
            Recorded(game.version + n, e, actor, f"c{len(log)}") for n, e in enumerate(events, 1)
        ]
        log += new
        taken_back = actor == ADMIN or command.type == UNDO  # the service loads these afresh
        game = replay(rules, log) if taken_back else replay(rules, new, game)
        if taken_back or len(log) % 100 < len(new):
            assert game == folded_one_by_one(rules, log)
    assert game == folded_one_by_one(rules, log)
    assert undone > 5 and rewound > 0
