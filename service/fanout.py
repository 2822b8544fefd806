"""One read of a game's new events per web process, for every stream that follows it.

The first stream to follow a game starts the game's `Feed`: one reader (a greenlet under
`chronicle serve`'s gevent workers, a thread elsewhere) that waits for new events with the one
blocking-read bound (`store.blocking`, through `EventStore.read_after`), renders each page of
them once per viewer class that follows (spectators share one form, each seat has its own; once
the book is open everyone shares the whole form) and hands the rendered page to each
`Follower`'s bounded queue. The last follower to leave stops it.

A follower is exact on its own: it starts behind (catching up from the store, a page at a
time, from where it resumes), takes from its queue only the version that comes next (one it
already has is skipped, a gap is filled from the store), and when its queue overflowed (it
reads slower than the game is played) it is caught up from the store again; so a follower
that joins late or falls behind gets every event once and in order, and never holds the
others back.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

import redis

from store.records import GameMeta, StoredEvent
from store.redis_store import EventStore

T = TypeVar("T")
Page = tuple[tuple[int, T], ...]
"""Rendered events for one viewer: (version, frame) in order."""
Render = Callable[[Sequence[StoredEvent], int | None, bool], Page[T]]
"""`render(events, viewer, open_book)`: the events as `viewer` may see them."""

PAGE = 200
"""Events one read takes at most (a reader's, or a follower's catching up)."""
QUEUE_PAGES = 64
"""Pages a follower's queue holds before it is left to catch up from the store."""
WRITES_PER_S = 1000.0
"""How many writes a second all the streams of one game may make in one process: a follower
writes at most once every followers / WRITES_PER_S seconds (a stream alone, at once; each of
a thousand, once a second at most), what came meanwhile going in its next write."""
MOST_GATHER_S = 1.0
"""However many follow, a follower writes what came at least once a second."""
READER_WAIT_MS = 15_000.0
"""How long a reader would wait for new events (capped by `store.blocking`)."""


def open_book(meta: GameMeta) -> bool:
    """The game is finished and its seed revealed: nothing is hidden any more."""
    return meta.status == "finished" and meta.extra.get("seed_revealed") == "true"


class Follower(Generic[T]):
    """One stream's place on a game's feed: what it has sent (`last`) and what waits for it."""

    def __init__(self, feed: Feed[T], viewer: int | None, after: int) -> None:
        self.feed = feed
        self.viewer = viewer
        self.last = after
        self.waiting: queue.Queue[Page[T]] = queue.Queue(maxsize=QUEUE_PAGES)
        self.behind = True
        """It must catch up from the store before it takes from its queue."""
        self.wrote_at = 0.0
        self.overflowed = 0
        """How many pages its queue had no room for (it caught up from the store instead)."""

    def offer(self, page: Page[T]) -> None:
        try:
            self.waiting.put_nowait(page)
        except queue.Full:
            self.behind = True
            self.overflowed += 1

    def read(self, wait_ms: float | None) -> list[T]:
        """The frames that come next: what the store has after `last` while behind, else what
        the feed handed over (waiting up to `wait_ms` for it; None: not at all). A read that
        fails sent nothing: the next one catches up from the store where this one started."""
        start = self.last
        try:
            return self.next_frames(wait_ms)
        except Exception:
            self.last, self.behind = start, True
            raise

    def next_frames(self, wait_ms: float | None) -> list[T]:
        feed = self.feed
        if self.behind or (feed.over and self.last < feed.final):
            return self.caught_up()
        try:
            if wait_ms is None:
                page = self.waiting.get_nowait()
            else:
                page = self.waiting.get(timeout=max(wait_ms, 1.0) / 1000)
        except queue.Empty:
            page = ()
        if not page and feed.failure is not None and self.waiting.empty():
            raise feed.failure
        frames = self.next_of(page)
        if frames:
            self.gathered()
        while not self.behind:  # and whatever else came meanwhile, in the same write
            try:
                frames.extend(self.next_of(self.waiting.get_nowait()))
            except queue.Empty:
                break
        return frames

    def gathered(self) -> None:
        """Write at most once every `Feed.gather_s`: within that of the last write, wait out
        the rest of it, so that what else comes meanwhile goes in the same write (the first
        event after a quiet spell goes at once)."""
        gather_s, now = self.feed.gather_s(), time.monotonic()
        if now - self.wrote_at < gather_s:
            time.sleep(gather_s - (now - self.wrote_at))
        self.wrote_at = time.monotonic()

    def next_of(self, page: Page[T]) -> list[T]:
        frames: list[T] = []
        for version, frame in page:
            if version <= self.last:
                continue  # sent already, while catching up
            if version > self.last + 1:
                frames.extend(self.fetched(version - 1))
            frames.append(frame)
            self.last = version
        return frames

    def caught_up(self) -> list[T]:
        """One page from the store after `last` (behind still, if there may be more)."""
        self.behind = False  # an overflow while reading sets it again
        stored = self.feed.store.read(self.feed.game_id, self.last + 1, None, PAGE)
        if len(stored) == PAGE:
            self.behind = True
        return self.taken(stored)

    def fetched(self, to_version: int) -> list[T]:
        """What the store has from after `last` up to `to_version` (a gap in the feed)."""
        frames: list[T] = []
        while self.last < to_version:
            stored = self.feed.store.read(self.feed.game_id, self.last + 1, to_version, PAGE)
            if not stored:
                break
            frames.extend(self.taken(stored))
        return frames

    def taken(self, stored: Sequence[StoredEvent]) -> list[T]:
        if not stored:
            return []
        whole = open_book(self.feed.store.meta(self.feed.game_id))
        page = self.feed.render(stored, self.viewer, whole)
        self.last = stored[-1].version
        return [frame for _, frame in page]

    def ended(self) -> bool:
        """The game is over and this stream has sent every event."""
        return self.feed.over and self.last >= self.feed.final and not self.behind

    def leave(self) -> None:
        self.feed.leave(self)


class Feed(Generic[T]):
    """One game's reader and its followers, in one process."""

    def __init__(self, feeds: GameFeeds[T], game_id: str) -> None:
        self.feeds = feeds
        self.store = feeds.store
        self.render = feeds.render
        self.game_id = game_id
        self.followers: list[Follower[T]] = []
        self.over = False
        self.final = 0
        self.failure: Exception | None = None
        self.stopped = False

    def gather_s(self) -> float:
        """How long each follower gathers what comes before it writes again."""
        return min(MOST_GATHER_S, len(self.followers) / WRITES_PER_S)

    def start(self) -> None:
        threading.Thread(target=self.run, name=f"feed {self.game_id}", daemon=True).start()

    def leave(self, follower: Follower[T]) -> None:
        self.feeds.left(self, follower)

    def run(self) -> None:
        try:
            self.follow_the_store()
        except Exception as exc:  # the store failed: each follower tells it and ends
            self.failure = exc
            self.wake_all()
        finally:
            self.feeds.forget(self)

    def follow_the_store(self) -> None:
        meta: GameMeta | None = None
        last = 0
        while not self.stopped:
            try:
                if meta is None:
                    meta = self.store.meta(self.game_id)
                    last = meta.version
                if self.ended_at(meta, last):
                    return
                page = self.store.read_after(
                    self.game_id, last, block_ms=int(READER_WAIT_MS), count=PAGE
                )
                if self.stopped:
                    return
                meta = self.store.meta(self.game_id)
            except redis.exceptions.TimeoutError:
                continue  # Redis answered later than its client waits: read again
            if page:
                self.hand_out(page, open_book(meta))
                last = page[-1].version

    def ended_at(self, meta: GameMeta, last: int) -> bool:
        if open_book(meta) and last >= meta.version:
            self.over, self.final = True, meta.version
            self.wake_all()
        return self.over

    def hand_out(self, stored: Sequence[StoredEvent], whole: bool) -> None:
        """Render the page once per viewer class that follows, and offer it to each."""
        followers = self.feeds.followers_of(self)
        forms: dict[int | None, Page[T]] = {}
        for follower in followers:
            viewer = None if whole else follower.viewer
            if viewer not in forms:
                forms[viewer] = self.render(stored, viewer, whole)
            follower.offer(forms[viewer])

    def wake_all(self) -> None:
        for follower in self.feeds.followers_of(self):
            follower.offer(())


class GameFeeds(Generic[T]):
    """Every game followed in this process (one per store), each with its one reader."""

    def __init__(self, store: EventStore, render: Render[T]) -> None:
        self.store = store
        self.render = render
        self.lock = threading.Lock()
        self.feeds: dict[str, Feed[T]] = {}

    def follow(self, game_id: str, viewer: int | None, after: int) -> Follower[T]:
        """A follower of `game_id` that has sent everything up to `after`; the game's reader
        starts with its first follower."""
        with self.lock:
            feed = self.feeds.get(game_id)
            fresh = feed is None
            if feed is None:
                feed = self.feeds[game_id] = Feed(self, game_id)
            follower = Follower(feed, viewer, after)
            feed.followers.append(follower)
        if fresh:
            feed.start()
        return follower

    def followers_of(self, feed: Feed[T]) -> list[Follower[T]]:
        with self.lock:
            return list(feed.followers)

    def left(self, feed: Feed[T], follower: Follower[T]) -> None:
        """The last follower to leave stops the reader (at the end of its current wait)."""
        with self.lock:
            with contextlib.suppress(ValueError):
                feed.followers.remove(follower)
            if not feed.followers:
                feed.stopped = True
                if self.feeds.get(feed.game_id) is feed:
                    del self.feeds[feed.game_id]

    def forget(self, feed: Feed[T]) -> None:
        """A reader that ended (the game is over, or the store failed): the next follower
        starts another."""
        with self.lock:
            if self.feeds.get(feed.game_id) is feed:
                del self.feeds[feed.game_id]

    def followed(self) -> dict[str, int]:
        """How many followers each game followed here has (for tests and the dashboard)."""
        with self.lock:
            return {game_id: len(feed.followers) for game_id, feed in self.feeds.items()}


_by_store: weakref.WeakKeyDictionary[EventStore, GameFeeds[Any]] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def feeds_of(store: EventStore, render: Render[T]) -> GameFeeds[T]:
    """The process's feeds of `store`'s games (made at the first stream)."""
    with _lock:
        found = _by_store.get(store)
        if found is None:
            found = _by_store[store] = GameFeeds(store, render)
    return found
