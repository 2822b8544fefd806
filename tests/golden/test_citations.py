"""Every event of every ruleset cites where the rulebook says it, never a placeholder: its page
where the text prints one, else its section heading (issue 32, item 13)."""

from __future__ import annotations

import pytest
import redis

from service.games import GameService
from service.loading import StateCache
from service.queries import GameQueries
from service.replay_html import replay_html
from store.credentials import SecretVault
from store.redis_store import EventStore
from tests.support.golden import GoldenGame, golden_games, import_game

ONE_OF_EACH = {g.record["ruleset"]: g for g in golden_games() if g.record["revision"] == 1}


@pytest.mark.parametrize(
    "game", sorted(ONE_OF_EACH.values(), key=lambda g: g.name), ids=lambda g: g.name
)
def test_the_narrative_and_the_replay_cite_a_page_or_a_section_never_a_placeholder(
    game: GoldenGame, redis_url: str
) -> None:
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    service = GameService(EventStore(client), SecretVault(client), cache=StateCache())
    game_id = import_game(service.store, game)
    entries = GameQueries(service).narrative(game_id, None, 1, 5000)["entries"]
    assert len(entries) == len(game.lines)
    for entry in entries:
        if entry["rule_text"]:
            assert entry["citation"], entry["rule"]
        assert "?" not in entry["citation"], entry
    assert "p. ?" not in replay_html(service, game_id)
