"""Read models: what each caller may see of a game (contracts §5).

Every answer here goes through one of two filters: `Ruleset.view(state, viewer)` for states and
`Recorded.seen_by(viewer)` for events, where the viewer is a seat or None (spectators and the
admin). Once a game is finished and its seed revealed nothing is hidden any more: events read in
full to everyone, and anyone may export the whole position at any version. Nothing here reads
the secrets slot.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from domain.core.kernel import Game, fold, is_over
from domain.core.messages import Recorded, registered_event_types
from domain.core.ruleset import Ruleset, find_ruleset
from domain.core.seating import Seating, ranked_last
from domain.core.table import TABLE_COMMAND_SPECS, ActionsUndone, GameRewound
from domain.core.undo import table_actions
from service import fanout, following
from service.codec import canonical_json, recorded_from
from service.cursors import VERSION_KEY as VERSION_KEY  # the API reads the cursors here too
from service.cursors import BadCursor as BadCursor
from service.cursors import decode_cursor, encode_cursor, version_cursor
from service.games import GameService
from service.loading import VersionOutOfRange
from service.rulesets import available, rule_entry
from service.rulesets import ruleset as bound_ruleset
from store.records import GameMeta, StoredEvent

EXPORT_PAGE = 500
STREAM_PAGE = 200


class GameNotFinished(Exception):
    def __init__(self, game_id: str, version: int) -> None:
        super().__init__(f"game {game_id} is not finished")
        self.version = version


class ResultNotAvailable(Exception):
    def __init__(self, ruleset: str) -> None:
        super().__init__(f"the ruleset {ruleset!r} does not report results")


class NoBoard(Exception):
    def __init__(self, ruleset: str) -> None:
        super().__init__(f"the ruleset {ruleset!r} does not draw its table")


class EventNotFound(Exception):
    def __init__(self, version: int, current: int) -> None:
        super().__init__(f"no event {version}: the game's events are 1..{current}")
        self.version = version
        self.current = current


@dataclass(frozen=True)
class Frame:
    """One frame of a game's stream in both of its wire forms: `text`, a Server-Sent Events
    frame, and `line`, an NDJSON line (a `GameStreamLine`)."""

    text: str
    line: str = ""
    id: str = ""
    """The id a follower resumes after, once it has this frame (none for a keep-alive)."""

    @classmethod
    def event(cls, version: int, type_: str, data: str) -> Frame:
        line = f'{{"kind":"event","id":"{version}","event":{data}}}\n'
        return cls(f"id: {version}\nevent: {type_}\ndata: {data}\n\n", line, str(version))

    @classmethod
    def heartbeat(cls) -> Frame:
        return cls(": keep-alive\n\n", HEARTBEAT_LINE)

    @classmethod
    def opening(cls, game_id: str, after: int) -> Frame:
        """The first frame: a comment, and as its id the version the stream starts after. It
        fires no event, but an EventSource keeps the id, so a reconnection before any event
        arrived still sends `Last-Event-ID` (and a stream ticket is renewed on a reconnect).
        In NDJSON, an `opening` line with that id."""
        return cls(
            f": events of game {game_id} after version {after}\nid: {after}\n\n",
            opening_line(str(after)),
            str(after),
        )

    @classmethod
    def error(cls, data: str, retry_ms: int | None = None) -> Frame:
        """An `error` event (no id, so a client resumes after the last event it got), with
        the reconnection delay a client should wait, if any."""
        retry = f"retry: {retry_ms}\n" if retry_ms is not None else ""
        return cls(f"event: error\n{retry}data: {data}\n\n", error_line(data, retry_ms))


HEARTBEAT_LINE = '{"kind":"heartbeat"}\n'
"""A keep-alive of a stream read as NDJSON."""


def opening_line(after: str) -> str:
    """The first NDJSON line of a stream: the id it starts after (so that the answer begins at
    once, and a follower knows where to resume from before anything came)."""
    return f'{{"kind":"opening","id":"{after}"}}\n'


def error_line(data: str, retry_ms: int | None) -> str:
    """The last NDJSON line of a stream that cannot go on: the one error body (`data`), and how
    long to wait before following again."""
    retry = "" if retry_ms is None else f',"retry_ms":{retry_ms}'
    return f'{{"kind":"error","error":{data}{retry}}}\n'


def iso_time(epoch_seconds: str) -> str:
    try:
        moment = datetime.fromtimestamp(float(epoch_seconds), UTC)
    except ValueError:
        return ""
    return moment.isoformat(timespec="seconds").replace("+00:00", "Z")


def draws_board(rules: Ruleset[Any]) -> bool:
    """Whether the ruleset overrides the `draw_board` hook (the default draws nothing)."""
    return type(rules).draw_board is not Ruleset.draw_board


class GameQueries:
    def __init__(self, games: GameService) -> None:
        self.games = games
        self.store = games.store

    def open_book(self, game_id: str) -> bool:
        """Whether the game is finished and its seed revealed: then nothing is hidden any more,
        and every event (shuffles, draws and secret choices included) reads in full to anyone,
        so that anyone can re-verify every outcome."""
        meta = self.store.meta(game_id)
        return meta.status == "finished" and meta.extra.get("seed_revealed") == "true"

    @staticmethod
    def seen(recorded: Recorded, viewer: int | None, open_book: bool) -> dict[str, Any]:
        return recorded.as_dict() if open_book else recorded.seen_by(viewer)

    # --- rulesets and games ---------------------------------------------------------------

    def rulesets(self) -> list[dict[str, Any]]:
        return [find_ruleset(name).describe() for name in available()]

    @staticmethod
    def ruleset_detail(name: str) -> dict[str, Any]:
        """A ruleset's description, commands (table procedures included), names and whether it
        draws its table."""
        rules = bound_ruleset(name)
        specs = [*rules.command_schemas(), *TABLE_COMMAND_SPECS]
        return {
            **rules.describe(),
            "commands": [spec.describe() for spec in specs],
            "names": dict(rules.names()),
            "cards": dict(rules.card_texts()),
            "board": draws_board(rules),
            "event_types": list(registered_event_types()),
        }

    def listing(
        self,
        *,
        status: str | None,
        ruleset: str | None,
        offset: int,
        limit: int,
        cursor: str | None = None,
    ) -> dict[str, Any]:
        """Listed games (never a private table), newest first, one page of their index;
        `next_cursor` continues exactly after this page (BadCursor: not one of ours)."""
        page = self.store.listed_page(
            status=status,
            ruleset=ruleset,
            limit=limit,
            offset=offset,
            after=None if cursor is None else decode_cursor(cursor),
        )
        return {
            "games": [self._listed(meta) for meta in page.games],
            "total": page.total,
            "offset": offset,
            "limit": limit,
            "next_cursor": None if page.next_after is None else encode_cursor(page.next_after),
        }

    @staticmethod
    def _listed(meta: GameMeta) -> dict[str, Any]:
        return {
            "game_id": meta.game_id,
            "ruleset": meta.ruleset,
            "status": meta.status,
            "players": list(meta.players),
            "version": meta.version,
            "awaiting": json.loads(meta.extra.get("awaiting", "[]")),
            "created_at": iso_time(meta.created_at),
            "sandbox_of": meta.extra.get("sandbox_of"),
            "open_seats": int(meta.extra.get("open_seats", 0)),
        }

    def summary(self, game_id: str) -> dict[str, Any]:
        meta = self.store.meta(game_id)
        rules, game = self.games.load(game_id)
        return {
            "game_id": game_id,
            "ruleset": rules.name,
            "title": rules.title,
            "status": self.games.status_of(rules, game),
            "players": list(game.setup.players),
            "options": dict(game.setup.options),
            "revision": game.setup.revision,
            "pack_digest": game.setup.pack_digest,
            "awaiting": sorted(rules.awaited_seats(game.state)),
            "summary": rules.summary(game.state),
            "version": game.version,
            "seed_commitment": game.setup.seed_commitment,
            "seed_revealed": meta.extra.get("seed_revealed") == "true",
            "created_at": iso_time(meta.created_at),
            "sandbox_of": meta.extra.get("sandbox_of"),
        }

    # --- one caller's view ----------------------------------------------------------------

    def _game(self, game_id: str, at: int | None) -> tuple[Ruleset[Any], Game[Any]]:
        return self.games.load(game_id) if at is None else self.games.load_at(game_id, at)

    def view(self, game_id: str, viewer: int | None, at: int | None = None) -> dict[str, Any]:
        """The state after version `at` (default: now) as `viewer` may see it."""
        rules, game = self._game(game_id, at)
        return {
            "game_id": game_id,
            "version": game.version,
            "viewer": viewer,
            "status": self.games.status_of(rules, game),
            "awaiting": sorted(rules.awaited_seats(game.state)),
            "summary": rules.summary(game.state),
            "view": rules.view(game.state, viewer),
        }

    def legal_actions(self, game_id: str, seat: int) -> dict[str, Any]:
        """The seat's legal actions, each a command body ready to post back."""
        rules, game = self.games.load(game_id)
        over = is_over(rules, game) or has_left(game, seat)
        actions = [] if over else list(rules.legal_actions(game.state, seat))
        procedures = [] if over else table_actions(rules, game, seat)
        players = list(self.store.meta(game_id).players)

        commands = [action.as_dict() for action in actions]
        worded = [rules.action_words(game.state, command, players) for command in commands]

        return {
            "game_id": game_id,
            "seat": seat,
            "version": game.version,
            "your_turn": not over and seat in rules.awaited_seats(game.state),
            "actions": [
                {"command": command, "expected_version": game.version} for command in commands
            ],
            "action_words": [{"words": words, "label": label} for words, label in worded],
            "table_actions": [
                {"command": action.as_dict(), "expected_version": game.version}
                for action in procedures
            ],
        }

    def board(self, game_id: str, viewer: int | None, at: int | None = None) -> str:
        """The table after version `at` (default: now) as `viewer` may see it, drawn by the
        ruleset (an SVG document); NoBoard when the ruleset draws nothing."""
        rules, game = self._game(game_id, at)
        svg = rules.draw_board(game.state, viewer)
        if svg is None:
            raise NoBoard(rules.name)
        return svg

    # --- events ---------------------------------------------------------------------------

    def narrative(
        self, game_id: str, viewer: int | None, from_version: int, limit: int
    ) -> dict[str, Any]:
        """The events from `from_version` told in words, with the rule, its page and the
        draws behind each, as `viewer` may see them."""
        meta = self.store.meta(game_id)
        rules = self.games.ruleset_of(game_id)
        players = list(meta.players)
        current = self.store.version(game_id)
        stored = self.store.read(game_id, from_version, current, limit) if current else []
        whole = self.open_book(game_id)
        entries = []
        page = [recorded_from(item) for item in stored]
        for recorded, empires in zip(
            page, self._empires_in_play(game_id, rules, page), strict=True
        ):
            seen = self.seen(recorded, viewer, whole)
            entry = rule_entry(rules, seen["rule"]) or {}
            entries.append(
                {
                    "version": seen["version"],
                    "type": seen["type"],
                    "actor": seen["actor"],
                    "words": rules.narrate(seen, players, empires),
                    "rule": seen["rule"],
                    "page": str(entry.get("page", "")),
                    "section": str(entry.get("section", "")),
                    "citation": str(entry.get("citation", "")),
                    "rule_text": str(entry.get("text", "")),
                    "cites": list(seen.get("cites", [])),
                    "draws": [{"k": k, "n": n, "result": r} for k, n, r in seen.get("draws", [])],
                    "scripted": bool(seen.get("scripted")),
                    "data": seen["data"] if isinstance(seen["data"], dict) else {},
                    "redacted": bool(seen.get("redacted")),
                    "recorded_at": seen["recorded_at"],
                }
            )
        last = stored[-1].version if stored else None
        return {
            "game_id": game_id,
            "version": current,
            "players": players,
            "entries": entries,
            "next": last + 1 if last is not None and last < current else None,
            "next_cursor": version_cursor(
                last + 1 if last is not None and last < current else None
            ),
        }

    def _empires_in_play(
        self, game_id: str, rules: Ruleset[Any], page: Sequence[Recorded]
    ) -> list[Mapping[int, str]]:
        """The Empire each seat played as each event of `page` (events in a row) happened, so
        the log can say whose Empire fought: the game before the page's first event, then
        folded through the page (an undo or a rewind loads the game it leads to)."""
        if not page or type(rules).empires_in_play is Ruleset.empires_in_play:
            return [{} for _ in page]
        first = page[0].version
        game = self.games.load_at(game_id, first - 1)[1] if first > 1 else None
        told: list[Mapping[int, str]] = []
        for at, recorded in enumerate(page):
            told.append(rules.empires_in_play(game.state) if game is not None else {})
            if at == len(page) - 1:
                break
            if isinstance(recorded.event, ActionsUndone | GameRewound):
                game = self.games.load_at(game_id, recorded.version)[1]
            else:
                game = fold(rules, game, recorded)
        return told

    def feed(
        self, game_id: str, viewer: int | None, from_version: int, limit: int
    ) -> dict[str, Any]:
        current = self.store.version(game_id)
        stored = self.store.read(game_id, from_version, current, limit) if current else []
        whole = self.open_book(game_id)
        events = [self.seen(recorded_from(s), viewer, whole) for s in stored]
        last = stored[-1].version if stored else None
        return {
            "ruleset": self.store.meta(game_id).ruleset,
            "game_id": game_id,
            "version": current,
            "events": events,
            "next": last + 1 if last is not None and last < current else None,
            "next_cursor": version_cursor(
                last + 1 if last is not None and last < current else None
            ),
        }

    def export(self, game_id: str, viewer: int | None) -> Iterator[str]:
        """Every event up to now as `viewer` may see it, one JSON document per line."""
        current = self.store.version(game_id)
        whole = self.open_book(game_id)

        def lines() -> Iterator[str]:
            start = 1
            while start <= current:
                page = self.store.read(game_id, start, current, EXPORT_PAGE)
                if not page:
                    return
                for stored in page:
                    yield canonical_json(self.seen(recorded_from(stored), viewer, whole)) + "\n"
                start = page[-1].version + 1

        return lines()

    def stream(
        self, game_id: str, viewer: int | None, after: int, heartbeat_s: float
    ) -> Iterator[Frame]:
        """Every frame of `stream_pages`, one at a time."""
        for page in self.stream_pages(game_id, viewer, after, heartbeat_s):
            yield from page

    def stream_pages(
        self, game_id: str, viewer: int | None, after: int, heartbeat_s: float
    ) -> Iterator[list[Frame]]:
        """Server-Sent Events: every event after `after`, as it is appended, each once and in
        order; a comment every `heartbeat_s` while nothing happens; ends once the game is
        finished, its seed revealed, and everything has been sent. In pages: the frames that
        came together (one write each). The new events come from the game's one reader in
        this process (`service.fanout`), rendered once per viewer class for all its streams."""
        current = self.store.version(game_id)
        if after > current:
            raise VersionOutOfRange(after, current)
        feeds = fanout.feeds_of(self.store, rendered)

        def pages() -> Iterator[list[Frame]]:
            follower = feeds.follow(game_id, viewer, after)  # on the feed from its opening
            try:
                yield [Frame.opening(game_id, after)]
                for page in following.followed(follower.read, heartbeat_s, follower.ended):
                    yield [Frame.heartbeat()] if page is None else list(page)
            finally:
                follower.leave()

        return pages()

    def explain(self, game_id: str, version: int, viewer: int | None) -> dict[str, Any]:
        """Why an event happened: its rule, the catalogue's entry for it, and the inputs that
        decided it, all as `viewer` may see them."""
        current = self.store.version(game_id)
        if not 1 <= version <= current:
            raise EventNotFound(version, current)
        recorded = recorded_from(self.store.read(game_id, version, version)[0])
        seen = self.seen(recorded, viewer, self.open_book(game_id))
        rules = self.games.ruleset_of(game_id)
        before = self.games.load_at(game_id, version - 1)[1] if version > 1 else None
        empires = rules.empires_in_play(before.state) if before is not None else {}
        data = seen["data"]
        cited = [rule_entry(rules, rule) for rule in recorded.event.cites]
        entries = [rule_entry(rules, recorded.event.rule), *cited]
        return {
            "game_id": game_id,
            "version": version,
            "type": seen["type"],
            "rule": seen["rule"],
            "rule_entry": entries[0],
            "cites": list(recorded.event.cites),
            "cited_entries": [entry for entry in cited if entry is not None],
            "departures": [
                {key: entry[key] for key in ("id", "reading", "departs_from")}
                for entry in entries
                if entry is not None and entry["departs_from"]
            ],
            "data_used": rules.data_used(seen["type"], data if isinstance(data, dict) else {}),
            "actor": seen["actor"],
            "words": rules.narrate(seen, list(self.store.meta(game_id).players), empires),
            "command_id": seen["command_id"],
            "recorded_at": seen["recorded_at"],
            "redacted": bool(seen.get("redacted")),
            "inputs": {
                "data": data,
                "words": rules.data_words(seen, list(self.store.meta(game_id).players)),
                "draws": [{"k": k, "n": n, "result": r} for k, n, r in seen.get("draws", [])],
                "scripted": bool(seen.get("scripted")),
                "context": data.get("context") if isinstance(data, dict) else None,
            },
            "before": self._before(rules, before),
        }

    def _before(self, rules: Ruleset[Any], game: Game[Any] | None) -> dict[str, Any] | None:
        """The public facts of the position the event happened in."""
        if game is None:
            return None
        return {
            "version": game.version,
            "awaiting": sorted(rules.awaited_seats(game.state)),
            "summary": rules.summary(game.state),
        }

    # --- the end of a game ----------------------------------------------------------------

    def result(self, game_id: str) -> dict[str, Any]:
        rules, game = self.games.load(game_id)
        if not is_over(rules, game):
            raise GameNotFinished(game_id, game.version)
        try:
            result = rules.result(game.state)
        except NotImplementedError:
            raise ResultNotAvailable(rules.name) from None
        players = list(game.setup.players)
        if game.seating is not None:  # a claimed seat is its player's
            players = [
                name or label for name, label in zip(game.seating.names, players, strict=True)
            ]
        ranking = [{**entry, "player": players[entry["seat"]]} for entry in result["ranking"]]
        if game.seating is not None:
            ranking = seats_that_left_last(ranking, game.seating)
        return {
            "game_id": game_id,
            "ruleset": rules.name,
            "version": game.version,
            "players": players,
            "scores": result["scores"],
            "ranking": ranking,
            "tie_breaks": result.get("tie_breaks", []),
            "details": result.get("details", {}),
        }

    def position(self, game_id: str, at: int | None) -> dict[str, Any]:
        """The whole position (every seat's hidden items included) as a document a sandbox can
        start from. Only once the game is finished, when nothing is left to hide."""
        rules, now = self.games.load(game_id)
        if not rules.is_over(now.state) or now.seed_revealed is None:
            raise GameNotFinished(game_id, now.version)
        _, game = self._game(game_id, at)
        return {
            "setup": {
                "ruleset": game.setup.ruleset,
                "players": list(game.setup.players),
                "options": dict(game.setup.options),
                "revision": game.setup.revision,
                "pack_digest": game.setup.pack_digest,
            },
            "version": game.version,
            "draws": game.draws,
            "state": rules.encode_state(game.state),
        }


def has_left(game: Game[Any], seat: int) -> bool:
    """The seat resigned or timed out for good: it has nothing left to play (a bot plays its
    pieces, or the table was abandoned), domain.core.seating."""
    return game.seating is not None and bool(game.seating.left[seat])


def seats_that_left_last(ranking: list[dict[str, Any]], seating: Seating) -> list[dict[str, Any]]:
    """A result's ranking with the seats that resigned or timed out last, ranked below every
    seat that stayed (domain.core.seating.ranked_last)."""
    by_seat = {entry["seat"]: entry for entry in ranking}
    order = ranked_last([entry["seat"] for entry in ranking], seating)
    stayed = [s for s in order if not seating.left[s]]
    worst = max((by_seat[s].get("place", 0) for s in stayed), default=0)
    return [
        by_seat[s] if not seating.left[s] else {**by_seat[s], "place": worst + 1} for s in order
    ]


def rendered(
    stored: Sequence[StoredEvent], viewer: int | None, whole: bool
) -> tuple[tuple[int, Frame], ...]:
    """The stream's frames of `stored` as `viewer` may see them (`whole`: the book is open)."""
    frames = []
    for event in stored:
        recorded = recorded_from(event)
        data = canonical_json(GameQueries.seen(recorded, viewer, whole))
        frames.append((recorded.version, Frame.event(recorded.version, recorded.event.type, data)))
    return tuple(frames)


def seen_events(
    records: Sequence[Recorded],
    viewer: int | None,
    envelopes: Sequence[dict[str, Any]] = (),
) -> list[dict[str, Any]]:
    """The records as `viewer` may see them (`envelopes`: their `as_dict()`, if built)."""
    if envelopes:
        return [r.seen_by(viewer, e) for r, e in zip(records, envelopes, strict=True)]
    return [r.seen_by(viewer) for r in records]
