"""The global indexes of games (by status, by ruleset, listed or not, unstarted, awaiting the
seed's reveal), written by commands of their own after a game's script, and the pages read from
them: O(page), however many games there are."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence

import redis

from store import keys
from store.records import PRIVATE, GameMeta, ListedPage, meta_from


class GameIndexes:
    """The indexes of the games of one store (the base of `EventStore`)."""

    redis: redis.Redis

    def _index_new(
        self,
        game_id: str,
        ruleset: str,
        status: str,
        created_at: float,
        reveal: bool,
        listed: bool = True,
    ) -> None:
        pipe = self.redis.pipeline(transaction=False)
        if listed:  # a private table is never on a listed index, not even for a moment
            for index in keys.listed_indexes(status, ruleset):
                pipe.zadd(index, {game_id: created_at})
        pipe.zadd(keys.ruleset_index(ruleset), {game_id: created_at})
        pipe.zadd(keys.status_index(status), {game_id: created_at})
        pipe.zadd(keys.status_index(status, ruleset), {game_id: created_at})
        pipe.zadd(keys.UNSTARTED, {game_id: created_at})
        if status == "finished" and reveal:
            pipe.zadd(keys.REVEAL_PENDING, {game_id: created_at})
        pipe.execute()

    def index_status(self, game_id: str, ruleset: str, status: str) -> None:
        """List the game under `status` too: called before the append that moves it there, so
        that a game is always in the index of its status (a reader drops the stale entries
        it meets: an append that failed after this, or the status it left)."""
        asked = self.redis.pipeline(transaction=False)
        asked.zscore(keys.GAME_INDEX, game_id)
        asked.hget(keys.meta(game_id), "listing")
        score, listing = asked.execute()
        created_at = score or time.time()
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(keys.status_index(status), {game_id: created_at})
        pipe.zadd(keys.status_index(status, ruleset), {game_id: created_at})
        if listing != PRIVATE:
            pipe.zadd(keys.listed_index(status), {game_id: created_at})
            pipe.zadd(keys.listed_index(status, ruleset), {game_id: created_at})
        pipe.execute()

    def unindex_status(self, game_id: str, ruleset: str, status: str) -> None:
        """The game has left `status`."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrem(keys.status_index(status), game_id)
        pipe.zrem(keys.status_index(status, ruleset), game_id)
        pipe.zrem(keys.listed_index(status), game_id)
        pipe.zrem(keys.listed_index(status, ruleset), game_id)
        pipe.execute()

    def ensure_indexed(self) -> None:
        """Build the indexes of games made before they existed (once per database and index
        layout: O(games) that one time). Every unfinished game goes on the unstarted list too,
        where the sweep checks it once: an older game no seat acted in expires like a new one,
        and one a seat acted in leaves the list. Every game but a private table goes on the
        listed indexes (`GET /games`)."""
        if self.redis.get(keys.INDEXED) == keys.INDEX_LAYOUT:
            return
        start = 0
        while ids := self.redis.zrange(keys.GAME_INDEX, start, start + 499, withscores=True):
            metas = {m.game_id: m for m in self._metas([game_id for game_id, _ in ids])}
            pipe = self.redis.pipeline(transaction=False)
            for game_id, created_at in ids:
                meta = metas.get(game_id)
                if meta is None:
                    continue
                pipe.zadd(keys.ruleset_index(meta.ruleset), {game_id: created_at})
                pipe.zadd(keys.status_index(meta.status), {game_id: created_at})
                pipe.zadd(keys.status_index(meta.status, meta.ruleset), {game_id: created_at})
                if meta.status == "finished" and meta.extra.get("seed_revealed") != "true":
                    pipe.zadd(keys.REVEAL_PENDING, {game_id: created_at})
                if meta.status != "finished":
                    pipe.zadd(keys.UNSTARTED, {game_id: created_at})
                if meta.extra.get("listing") != PRIVATE:
                    for index in keys.listed_indexes(meta.status, meta.ruleset):
                        pipe.zadd(index, {game_id: created_at})
            pipe.execute()
            start += len(ids)
        self.redis.set(keys.INDEXED, keys.INDEX_LAYOUT)

    def unstarted_before(self, created_before: float, limit: int) -> list[str]:
        """Games on the unstarted list created before that time (oldest first)."""
        found: list[str] = self.redis.zrangebyscore(
            keys.UNSTARTED, "-inf", f"({created_before}", start=0, num=limit
        )
        return found

    def forget_unstarted(self, *game_ids: str) -> None:
        if game_ids:
            self.redis.zrem(keys.UNSTARTED, *game_ids)

    def reveal_pending(self, limit: int) -> list[str]:
        found: list[str] = self.redis.zrange(keys.REVEAL_PENDING, 0, limit - 1)
        return found

    def forget_reveal_pending(self, *game_ids: str) -> None:
        if game_ids:
            self.redis.zrem(keys.REVEAL_PENDING, *game_ids)

    def list_games(
        self,
        *,
        offset: int = 0,
        limit: int = 50,
        status: str | None = None,
        ruleset: str | None = None,
        public_only: bool = False,
    ) -> tuple[list[GameMeta], int]:
        """Games newest first, filtered; returns one page and the number that matched. Reads
        one index (all games, a status, a ruleset, or both) a page at a time: O(page), however
        many games there are. An index entry whose game has since left that status is dropped
        as it is met (the count is the index's size, which may still hold a few of those).
        `public_only`: the listed games only (`listed_page`)."""
        if public_only:
            listed = self.listed_page(status=status, ruleset=ruleset, limit=limit, offset=offset)
            return listed.games, listed.total
        if status is None and ruleset is None:
            index = keys.GAME_INDEX
        else:
            self.ensure_indexed()
            if status is None:
                index = keys.ruleset_index(str(ruleset))
            else:
                index = keys.status_index(status, ruleset)
        page: list[GameMeta] = []
        stale: list[str] = []
        start = offset
        while len(page) < limit:
            want = limit - len(page)
            ids = self.redis.zrevrange(index, start, start + want - 1)
            if not ids:
                break
            metas = {m.game_id: m for m in self._metas(ids)}
            for game_id in ids:
                meta = metas.get(game_id)
                if meta is None and index == keys.GAME_INDEX:
                    continue
                if meta is None or (status is not None and meta.status != status):
                    stale.append(game_id)
                    continue
                page.append(meta)
            start += len(ids)
        if stale:
            self.redis.zrem(index, *stale)
        return page, max(0, int(self.redis.zcard(index)))

    def listed_page(
        self,
        *,
        status: str | None = None,
        ruleset: str | None = None,
        limit: int = 50,
        offset: int = 0,
        after: tuple[float, str] | None = None,
    ) -> ListedPage:
        """One page of the listed games (every game but a private table), newest first, from
        the listed index of that status and ruleset: O(page), however many games (public or
        private) there are. `after` (a cursor: the creation score and id of the last game of the
        page before) gives the games after that one in this order, so a page never repeats or
        skips a game because others were created meanwhile; without it, `offset` skips some.
        An entry whose game has left the status, expired or turned private is dropped from the
        index as it is met."""
        self.ensure_indexed()
        index = keys.listed_index(status, ruleset)
        page: list[GameMeta] = []
        last: tuple[float, str] | None = after
        stale: list[str] = []
        start = 0 if after is not None else offset
        exhausted = False
        while len(page) < limit:
            want = limit - len(page)
            entries = self._listed_after(index, after, start, want)
            if not entries:
                exhausted = True
                break
            start += len(entries)
            shown = [
                (game_id, score)
                for game_id, score in entries
                if after is None or score < after[0] or game_id < after[1]
            ]
            metas = {m.game_id: m for m in self._metas([game_id for game_id, _ in shown])}
            for game_id, score in shown:
                meta = metas.get(game_id)
                if (
                    meta is None
                    or (status is not None and meta.status != status)
                    or meta.extra.get("listing") == PRIVATE
                ):
                    stale.append(game_id)
                    continue
                if len(page) < limit:
                    page.append(meta)
                    last = (score, game_id)
        if stale:
            self.redis.zrem(index, *stale)
        more = not exhausted and last is not None and self._any_after(index, last)
        return ListedPage(page, int(self.redis.zcard(index)), last if more else None)

    def _listed_after(
        self, index: str, after: tuple[float, str] | None, start: int, count: int
    ) -> list[tuple[str, float]]:
        """Index entries newest first, from the `start`th on; with `after`, of those at or
        below its score (the caller drops the ties at or before its id: Redis orders the games
        of one score by id, descending here)."""
        if after is None:
            found = self.redis.zrevrange(index, start, start + count - 1, withscores=True)
        else:
            found = self.redis.zrevrangebyscore(
                index, repr(after[0]), "-inf", start=start, num=count, withscores=True
            )
        return [(str(game_id), float(score)) for game_id, score in found]

    def _any_after(self, index: str, after: tuple[float, str]) -> bool:
        start = 0
        while entries := self._listed_after(index, after, start, 50):
            if any(score < after[0] or game_id < after[1] for game_id, score in entries):
                return True
            start += len(entries)
        return False

    def metas(self, game_ids: Sequence[str]) -> list[GameMeta]:
        """The metas of those games that exist, in order."""
        return self._metas(game_ids)

    def _metas(self, game_ids: Sequence[str]) -> list[GameMeta]:
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hgetall(keys.meta(game_id))
        return [
            meta_from(game_id, raw)
            for game_id, raw in zip(game_ids, pipe.execute(), strict=True)
            if raw
        ]

    def _unindex_expired(self, game_id: str, meta: Mapping[str, str]) -> None:
        """An expired game leaves every index (`meta`: its hash as it was before)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrem(keys.GAME_INDEX, game_id)
        pipe.zrem(keys.UNSTARTED, game_id)
        pipe.zrem(keys.REVEAL_PENDING, game_id)
        if meta:
            ruleset, status = meta.get("ruleset", ""), meta.get("status", "")
            pipe.zrem(keys.ruleset_index(ruleset), game_id)
            pipe.zrem(keys.status_index(status), game_id)
            pipe.zrem(keys.status_index(status, ruleset), game_id)
            for index in keys.listed_indexes(status, ruleset):
                pipe.zrem(index, game_id)
        pipe.execute()
