"""The compact archive of a finished game (issue 52, point 1; docs/archive-format.md).

A finished game, its seed revealed, is re-decided from its setup, its seed and its commands,
each kept as its index among the acting seat's legal actions: `encode` turns the game's log as
stored into a record of a few kilobytes, `decode` re-decides it under the game's own revision
and returns its log as served once archived (`archived_log`), refusing (`ArchiveRefused`) any
record that is malformed, of an unknown version, or whose log misses the digest it carries.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from domain.core.messages import Recorded
from service.archive_bytes import (
    ArchiveRefused,
    NotArchivable,
    Reader,
    blob,
    second_iso,
    seconds_of,
    text,
    varint,
    zigzag,
)
from service.archive_replay import (
    LAST_OP,
    LITERAL,
    OP,
    WITH_LITERAL,
    Entry,
    Redecision,
    Setting,
    candidates,
    literal_of,
)
from service.codec import canonical_json
from service.rulesets import import_rulesets_once
from service.rulesets import ruleset as bound_ruleset

__all__ = ["ArchiveRefused", "NotArchivable", "archived_log", "decode", "encode", "log_digest"]

FORMAT_VERSION = 1
DIGEST_BYTES = 32
ZLIB_LEVEL = 9
VOLATILE_ID = "command_id"


# --- the log as served once archived ------------------------------------------------------------


def archived_log(envelopes: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A game's log as an archived game serves it: each event as the service reads it (its
    envelope through the upcasters, `Recorded.as_dict`), with its command's id replaced by
    `v<version of the command's first event>` and its `recorded_at` cut to the second. The one
    definition that `encode`, `decode`, the tests and the endpoints serve."""
    import_rulesets_once()
    served: list[dict[str, Any]] = []
    command: tuple[Any, Any] | None = None
    first = 0
    for envelope in envelopes:
        body = Recorded.from_dict(envelope).as_dict()
        if (body["actor"], body[VOLATILE_ID]) != command:
            command, first = (body["actor"], body[VOLATILE_ID]), body["version"]
        served.append(
            body | {VOLATILE_ID: f"v{first}", "recorded_at": second_iso(body["recorded_at"])}
        )
    return served


def log_digest(served: Sequence[Mapping[str, Any]]) -> bytes:
    """SHA-256 of the log as served, as its NDJSON export (one canonical JSON line each)."""
    digest = hashlib.sha256()
    for envelope in served:
        digest.update((canonical_json(envelope) + "\n").encode())
    return digest.digest()


# --- encoding -----------------------------------------------------------------------------------


def encode(envelopes: Sequence[Mapping[str, Any]]) -> bytes:
    """The archive record of a finished game from its whole log as stored (every envelope,
    with its version), its seed revealed."""
    served = archived_log(envelopes)
    setting = setting_of(served)
    redecision = Redecision(bound_ruleset(setting.ruleset, setting.revision), setting)
    entries = [entry_of(redecision, group) for group in commands_of(served)]
    if redecision.log != served:
        raise NotArchivable("the re-decided log differs from the game's")
    return record_bytes(setting, entries, log_digest(served))


def setting_of(served: Sequence[Mapping[str, Any]]) -> Setting:
    """What the record keeps of the game's setup, from its GameCreated and SeedRevealed."""
    if not served or served[0]["type"] != "GameCreated":
        raise NotArchivable("a log that does not start with GameCreated")
    revealed = [e for e in served if e["type"] == "SeedRevealed"]
    if not revealed:
        raise NotArchivable("a game whose seed is not revealed: its chance cannot be re-drawn")
    created = served[0]["data"]
    return Setting(
        ruleset=created["ruleset"],
        revision=int(created.get("revision", 1)),
        pack_digest=created.get("pack_digest", ""),
        players=tuple(created["players"]),
        options=dict(created["options"]),
        seed=bytes.fromhex(revealed[-1]["data"]["seed"]),
        start=seconds_of(served[0]["recorded_at"]),
        events=len(served),
    )


def commands_of(served: Sequence[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    """The log's commands: each run of events of one command id (served ids are per command)."""
    group: list[dict[str, Any]] = []
    for envelope in served:
        if group and envelope[VOLATILE_ID] != group[0][VOLATILE_ID]:
            yield group
            group = []
        group.append(envelope)
    if group:
        yield group


def entry_of(redecision: Redecision, group: list[dict[str, Any]]) -> Entry:
    """The cheapest entry that re-decides `group` exactly (a literal copy when none does), and
    taken, so that the next group is judged on the game after it."""
    times = {e["recorded_at"] for e in group}
    if len(times) != 1:
        raise NotArchivable(f"the command at version {group[0]['version']} spans two times")
    seconds = seconds_of(times.pop())
    for entry in candidates(redecision, group, seconds):
        taken = redecision.attempt(entry)
        if taken is not None and taken == group:
            redecision.commit(entry)
            return entry
    literal = Entry(OP, LITERAL, None, literal_of(group), seconds)
    redecision.commit(literal)
    return literal


def record_bytes(setting: Setting, entries: Sequence[Entry], digest: bytes) -> bytes:
    body = bytearray(digest)
    body += blob(setting.seed)
    body += text(setting.ruleset) + varint(setting.revision) + text(setting.pack_digest)
    body += varint(len(setting.players)) + b"".join(text(p) for p in setting.players)
    body += text(canonical_json(setting.options))
    body += varint(setting.start) + varint(setting.events) + varint(len(entries))
    previous = setting.start
    for entry in entries:
        body += entry_bytes(entry, previous)
        previous = entry.seconds
    return bytes([FORMAT_VERSION]) + zlib.compress(bytes(body), ZLIB_LEVEL)


def entry_bytes(entry: Entry, previous: int) -> bytes:
    out = varint(entry.value << 2 | entry.kind)
    if entry.seat is not None:
        out += varint(entry.seat)
    if entry.kind == OP and entry.value in WITH_LITERAL:
        out += text(entry.literal)
    return out + zigzag(entry.seconds - previous)


# --- decoding -----------------------------------------------------------------------------------


def decode(record: bytes) -> list[dict[str, Any]]:
    """The game's log as served once archived, re-decided under its own revision from the
    record; `ArchiveRefused` unless it reaches the record's digest."""
    setting, entries, digest = parsed(record)
    try:
        redecision = Redecision(bound_ruleset(setting.ruleset, setting.revision), setting)
    except Exception as exc:  # an unknown ruleset or a revision this server lacks
        raise ArchiveRefused(f"no rules to re-decide it: {type(exc).__name__}: {exc}") from None
    for number, entry in enumerate(entries, start=1):
        try:
            redecision.commit(entry)
        except ArchiveRefused:
            raise
        except Exception as exc:  # any failure of the rules on an entry: the record is wrong
            raise ArchiveRefused(
                f"entry {number} cannot be re-decided: {type(exc).__name__}: {exc}"[:500]
            ) from None
    log = redecision.log
    if len(log) != setting.events or log_digest(log) != digest:
        raise ArchiveRefused(
            f"the re-decided log ({len(log)} events) does not reach the record's digest"
        )
    return log


def parsed(record: bytes) -> tuple[Setting, list[Entry], bytes]:
    if not record:
        raise ArchiveRefused("an empty record")
    if record[0] != FORMAT_VERSION:
        raise ArchiveRefused(f"an archive record of unknown format version {record[0]}")
    try:
        inflater = zlib.decompressobj()
        body = inflater.decompress(record[1:]) + inflater.flush()
    except zlib.error as exc:
        raise ArchiveRefused(f"a record that does not inflate: {exc}") from None
    if not inflater.eof or inflater.unused_data:
        raise ArchiveRefused("a truncated or padded record")
    reader = Reader(body)
    digest = reader.take(DIGEST_BYTES)
    setting = setting_read(reader)
    previous = setting.start
    entries = []
    for _ in range(reader.varint()):
        entry = entry_read(reader, previous)
        entries.append(entry)
        previous = entry.seconds
    reader.end()
    return setting, entries, digest


def setting_read(reader: Reader) -> Setting:
    seed = reader.blob()
    ruleset, revision, pack_digest = reader.text(), reader.varint(), reader.text()
    players = tuple(reader.text() for _ in range(reader.varint()))
    try:
        options = json.loads(reader.text())
    except json.JSONDecodeError:
        raise ArchiveRefused("the record's options are not JSON") from None
    if not isinstance(options, dict):
        raise ArchiveRefused("the record's options are not an object")
    start, events = reader.varint(), reader.varint()
    return Setting(ruleset, revision, pack_digest, players, options, seed, start, events)


def entry_read(reader: Reader, previous: int) -> Entry:
    head = reader.varint()
    kind, value = head & 3, head >> 2
    if kind > OP or (kind == OP and value > LAST_OP):
        raise ArchiveRefused(f"an entry of unknown kind {head}")
    seat = reader.varint() if Entry.names_seat(kind, value) else None
    literal = reader.text() if kind == OP and value in WITH_LITERAL else ""
    return Entry(kind, value, seat, literal, previous + reader.zigzag())
