"""The byte-level pieces of the archive record (docs/archive-format.md): unsigned and zigzag
varints, length-prefixed strings, and a reader that refuses a truncated record."""

from __future__ import annotations

import calendar
from datetime import UTC, datetime


class ArchiveRefused(Exception):
    """An archive record that is not served: malformed, truncated, of an unknown format
    version, or whose re-decided log does not reach the digest it carries."""


class NotArchivable(ValueError):
    """A log this format cannot keep: not a finished game with its seed revealed, or one whose
    re-decision does not give its own log back (`encode` never writes a record it cannot
    read)."""


def varint(value: int) -> bytes:
    """LEB128: seven bits a byte, low bits first, the high bit set on all but the last."""
    if value < 0:
        raise ValueError(f"a varint is not negative: {value}")
    out = bytearray()
    while True:
        low, value = value & 0x7F, value >> 7
        if not value:
            out.append(low)
            return bytes(out)
        out.append(low | 0x80)


def zigzag(value: int) -> bytes:
    """A signed whole number as a varint: 0, -1, 1, -2 … become 0, 1, 2, 3 …"""
    return varint(value * 2 if value >= 0 else -value * 2 - 1)


def text(value: str) -> bytes:
    raw = value.encode()
    return varint(len(raw)) + raw


def blob(value: bytes) -> bytes:
    return varint(len(value)) + value


MAX_VARINT_BYTES = 10


class Reader:
    """Reads a record's body front to back; any read past its end is `ArchiveRefused`."""

    def __init__(self, body: bytes) -> None:
        self.body = body
        self.at = 0

    def take(self, size: int) -> bytes:
        if size < 0 or self.at + size > len(self.body):
            raise ArchiveRefused(f"the record is truncated at byte {self.at} of its body")
        chunk = self.body[self.at : self.at + size]
        self.at += size
        return chunk

    def varint(self) -> int:
        value = shift = 0
        for _ in range(MAX_VARINT_BYTES):
            byte = self.take(1)[0]
            value |= (byte & 0x7F) << shift
            if not byte & 0x80:
                return value
            shift += 7
        raise ArchiveRefused(f"a varint longer than {MAX_VARINT_BYTES} bytes at byte {self.at}")

    def zigzag(self) -> int:
        raw = self.varint()
        return raw // 2 if raw % 2 == 0 else -(raw + 1) // 2

    def blob(self) -> bytes:
        return self.take(self.varint())

    def text(self) -> str:
        try:
            return self.blob().decode()
        except UnicodeDecodeError:
            raise ArchiveRefused(f"a string that is not UTF-8 before byte {self.at}") from None

    def end(self) -> None:
        if self.at != len(self.body):
            raise ArchiveRefused(f"{len(self.body) - self.at} bytes follow the record's last entry")


def seconds_of(iso: str) -> int:
    """Whole seconds since 1970 (UTC) of a `recorded_at`, rounded down."""
    try:
        moment = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except ValueError:
        raise NotArchivable(f"an event recorded at {iso!r}, not a time") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return calendar.timegm(moment.utctimetuple())


def iso_of(seconds: int) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def second_iso(iso: str) -> str:
    return iso_of(seconds_of(iso))
