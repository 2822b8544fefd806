"""The compact archive format (issue 52, point 1; docs/archive-format.md): every golden game
encodes to a record of a few hundred bytes that re-decides, under the game's own revision, to
its log as served once archived; a record that is damaged, cut short, of an unknown version or
whose log misses its digest is refused, never served."""

from __future__ import annotations

import functools
import json
import random
import statistics
import zlib
from collections import defaultdict
from typing import Any

import pytest
import redis

from domain.core.messages import SYSTEM, Command
from domain.core.seating import TableOpened, table_clock
from domain.core.table import ADMIN
from service.archive_bytes import iso_of, seconds_of
from service.archive_format import (
    DIGEST_BYTES,
    FORMAT_VERSION,
    ArchiveRefused,
    NotArchivable,
    archived_log,
    decode,
    encode,
    log_digest,
    parsed,
)
from service.archive_replay import CREATE_THEN, LITERAL, OP
from service.games import GameService
from store.credentials import SecretVault
from store.redis_store import EventStore
from tests.support.golden import (
    MAX_COMMANDS,
    GoldenGame,
    golden_games,
    import_game,
    run_steps,
)

GAMES = {game.name: game for game in golden_games()}
TARGET_BYTES = 4096
"""Issue 52's target: the median archive of a finished 4-player game at most 4 KB."""
SMALL = "brief-2009/r1-3p-defaults"
REWIND_AFTER = 30
"""After how many commands the table game is rewound."""


@functools.cache
def record_of_game(name: str) -> bytes:
    """A golden game's record, encoded once for the tests of this module."""
    return encode(GAMES[name].envelopes)


def body_of(record: bytes) -> bytes:
    return zlib.decompress(record[1:])


def record_of(body: bytes) -> bytes:
    return bytes([FORMAT_VERSION]) + zlib.compress(body, 9)


# --- every golden game comes back ---------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_golden_game_decodes_from_its_record_to_its_log_as_served(name: str) -> None:
    game = GAMES[name]
    served = archived_log(game.envelopes)
    assert decode(record_of_game(name)) == served
    assert len(served) == game.record["events"]


def test_the_served_log_keeps_every_event_and_drops_only_the_ids_and_the_microseconds() -> None:
    game = GAMES[SMALL]
    served = archived_log(game.envelopes)
    for was, now in zip(game.envelopes, served, strict=True):
        assert {k: v for k, v in now.items() if k not in ("command_id", "recorded_at")} == {
            k: v for k, v in was.items() if k not in ("command_id", "recorded_at")
        }
        assert now["recorded_at"] == was["recorded_at"][:19] + "Z"
    commands = {(e["actor"], e["command_id"]) for e in game.envelopes}
    assert len({e["command_id"] for e in served}) == len(commands)


def test_a_game_read_from_the_store_encodes_as_its_export_does(store: EventStore) -> None:
    game = GAMES[SMALL]
    game_id = import_game(store, game)
    stored = [event.decoded() for event in store.read(game_id, 1, store.version(game_id))]
    assert decode(encode(stored)) == archived_log(game.envelopes)


def test_a_game_whose_seed_is_not_revealed_is_not_archived() -> None:
    with pytest.raises(NotArchivable):
        encode(GAMES[SMALL].envelopes[:-1])


def test_the_golden_records_are_at_most_4_kb_at_the_median_of_4_player_games() -> None:
    sizes: dict[tuple[str, int], list[int]] = defaultdict(list)
    for name in GAMES:
        record = record_of_game(name)
        game = GAMES[name]
        sizes[(game.record["ruleset"], len(game.record["players"]))].append(len(record))
    print("\narchive bytes per game (ruleset, players: median [min-max] of n games)")
    for (ruleset, players), found in sorted(sizes.items()):
        median = statistics.median(found)
        print(
            f"  {ruleset:12} {players}p: {median:6.0f} [{min(found)}-{max(found)}] n={len(found)}"
        )
    four = {r: statistics.median(s) for (r, p), s in sizes.items() if p == 4}
    assert set(four) == {g.record["ruleset"] for g in GAMES.values()}
    for ruleset, median in four.items():
        assert median <= TARGET_BYTES, ruleset
    assert (
        statistics.median([n for (_, p), s in sizes.items() if p == 4 for n in s]) <= TARGET_BYTES
    )


# --- what is refused ----------------------------------------------------------------------------


def refused(record: bytes) -> str:
    with pytest.raises(ArchiveRefused) as raised:
        decode(record)
    return str(raised.value)


def test_a_record_with_any_one_byte_changed_is_refused() -> None:
    record = record_of_game(SMALL)
    for at in range(len(record)):
        for bit in (0x01, 0x80):
            changed = bytearray(record)
            changed[at] ^= bit
            refused(bytes(changed))


def test_a_record_whose_entries_were_changed_and_compressed_again_is_refused() -> None:
    body = bytearray(body_of(record_of_game(SMALL)))
    body[-2] ^= 0x01  # the last entries: a seat's index or a time
    refused(record_of(bytes(body)))


def test_a_truncated_record_is_refused() -> None:
    record = record_of_game(SMALL)
    for size in (0, 1, 2, len(record) // 2, len(record) - 1):
        refused(record[:size])
    body = body_of(record)
    assert "truncated" in refused(record_of(body[: len(body) - 3]))
    assert "truncated" in refused(record_of(body[: DIGEST_BYTES - 1]))


def test_a_record_with_bytes_after_its_last_entry_is_refused() -> None:
    refused(record_of_game(SMALL) + b"\x00")
    assert "follow" in refused(record_of(body_of(record_of_game(SMALL)) + b"\x00"))


def test_a_record_of_an_unknown_format_version_is_refused() -> None:
    record = record_of_game(SMALL)
    assert "unknown format version 2" in refused(bytes([2]) + record[1:])
    assert "unknown format version 0" in refused(bytes([0]) + record[1:])


def test_a_record_whose_log_does_not_reach_its_digest_is_refused() -> None:
    body = bytearray(body_of(record_of_game(SMALL)))
    assert bytes(body[:DIGEST_BYTES]) == log_digest(archived_log(GAMES[SMALL].envelopes))
    body[0] ^= 0xFF
    assert "digest" in refused(record_of(bytes(body)))


def test_a_record_of_another_games_digest_is_refused() -> None:
    other: GoldenGame = GAMES["brief-2009/r1-4p-defaults"]
    body = bytearray(body_of(record_of_game(SMALL)))
    body[:DIGEST_BYTES] = log_digest(archived_log(other.envelopes))
    assert "digest" in refused(record_of(bytes(body)))


# --- what no legal action re-decides ------------------------------------------------------------


def played_at_a_table(client: redis.Redis) -> list[dict[str, Any]]:
    """A 3-player game through the service, opened as a table (seat 0 held, seat 1 claimed,
    seat 2 left to a bot when the admin starts it), in which seat 0 hands its seat to a bot and
    seat 1 resigns (seating events, no seat's legal action), then played to its end at random;
    its log as stored."""
    service = GameService(EventStore(client), SecretVault(client))
    table = TableOpened(
        rule="",
        open_seats=(1, 2),
        listing="public",
        clock=table_clock({}),
        on_timeout="bot",
        holders=("p0", "", ""),
        names=("a", "", ""),
    )
    players = ["a", "b", "c"]
    game_id = service.create_game("brief-2009", players, seed=bytes(range(32)), table=table).game_id
    service.handle(game_id, SYSTEM, Command.of("claim_seat", seat=1, player="p1", name="b"))
    service.handle(game_id, ADMIN, Command.of("start_table", strategy="random"))
    service.handle(game_id, 0, Command.of("hand_to_bot", strategy="greedy"))
    service.handle(game_id, 1, Command.of("resign_seat"))
    resigned = service.store.version(game_id)
    rng = random.Random(52)
    for played in range(MAX_COMMANDS):
        if played == REWIND_AFTER:
            service.order_rewind(game_id, resigned)
        rules, game = service.load(game_id)
        if rules.is_over(game.state):
            break
        if service.system_step_due(game_id):
            run_steps(service, game_id)
            continue
        seat = rng.choice(sorted(rules.awaited_seats(game.state)))
        service.handle(game_id, seat, rng.choice(list(rules.legal_actions(game.state, seat))))
    store = service.store
    return [event.decoded() for event in store.read(game_id, 1, store.version(game_id))]


def test_a_tables_seating_and_a_rewind_are_kept_literally_and_the_game_still_comes_back(
    client: redis.Redis,
) -> None:
    log = played_at_a_table(client)
    assert log[-1]["type"] == "SeedRevealed"
    record = encode(log)
    _, entries, _ = parsed(record)
    assert (entries[0].kind, entries[0].value) == (OP, CREATE_THEN)
    assert [e["type"] for e in json.loads(entries[0].literal)["events"]] == ["TableOpened"]
    literals = [e for e in entries if e.kind == OP and e.value == LITERAL]
    assert [json.loads(e.literal)["events"][0]["type"] for e in literals] == [
        "SeatClaimed",
        "TableStarted",
        "SeatHandedToBot",
        "SeatResigned",
        "GameRewound",
    ]
    assert decode(record) == archived_log(log)
    print(f"\na table game of brief-2009, 3 players: {len(record)} bytes")


def played_slowly(envelopes: list[dict[str, Any]], seed: int) -> list[dict[str, Any]]:
    """The log as if its commands had come 2 s to 3 min apart (golden games are played at
    machine speed: every time delta is 0 there), each command's events at one time."""
    rng = random.Random(seed)
    at, command, slowed = seconds_of(envelopes[0]["recorded_at"]), None, []
    for envelope in envelopes:
        if (envelope["actor"], envelope["command_id"]) != command:
            command = (envelope["actor"], envelope["command_id"])
            at += rng.randint(2, 180)
        slowed.append(envelope | {"recorded_at": f"{iso_of(at)[:-1]}.{rng.randrange(10**6):06}Z"})
    return slowed


@pytest.mark.parametrize(
    "name",
    [
        "brief-2009/r5-4p-defaults",
        "hotw-2024/r2-4p-all-options",
        "hotw-ah2001/r11-4p-no-pe-minors",
        "patchistory/r5-4p-defaults",
    ],
)
def test_a_4_player_game_played_over_hours_is_still_at_most_4_kb(name: str) -> None:
    slow = played_slowly(GAMES[name].envelopes, 52)
    record = encode(slow)
    hours = (seconds_of(slow[-1]["recorded_at"]) - seconds_of(slow[0]["recorded_at"])) / 3600
    print(f"\n{name} over {hours:.1f} h: {len(record)} bytes")
    assert decode(record) == archived_log(slow)
    assert len(record) <= TARGET_BYTES
