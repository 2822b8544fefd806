"""Bots that play Chronicle games: a seeded `RandomBot`, and a `GreedyBot` for any ruleset with
a strategy (`Ruleset.strategy()`; History of the World has one). One interface,
`choose(position, actions, seat) -> Command`, in-process (the domain state and `legal_actions`)
and over HTTP (the caller's `/state` view and the legal-actions answer).

Bots are clients of the rules, not part of them: they live outside `domain/` and may use
`random`.
"""

from __future__ import annotations

from bots.base import BOT_NAMES, Bot, as_commands, make_bot
from bots.greedy import GreedyBot
from bots.random_bot import RandomBot

__all__ = ["BOT_NAMES", "Bot", "GreedyBot", "RandomBot", "as_commands", "make_bot"]
