"""An independent oracle for Patchistory, written from the rulebook's text
(shared/rules/patchistory.txt) and not from the engine: it imports none of `domain/patchistory`'s
chapter modules, only reads the state before each event, the event itself and the data pack's
printed numbers (the Era's war gains, the Descendant Track, the Trade Routes' spaces).

Checked, for every event:

- The Auction (3-4 players): "The minimum bid for any Tile is 1 Coin"; "beat the bid of a
  claimed Tile by placing at least 1 more Coin than the highest bid"; "if your bid is not being
  beaten, you may not add Coin to nor move your bid"; "Once Coin has been added to the Auction,
  it may not be removed"; "Bidding ends immediately when all Tiles have a bid on them" (exactly
  one each); "Each player Forfeits the Coin they committed to the Auction and takes the Tile they
  won". Two players: "If two players choose the same Tile, the player who bid the most wins, and
  the other player gains the other Tile"; equal bids: "the Start Player chooses their Tile first".
- War: each red player is an Aggressor and "forfeits their War Preparation Cost (0/1/2)
  Resources"; strength is the announced strength plus "1 Strength" per Resource forfeited;
  "The player with the highest total is the winner. Defender wins in case of a tie. If there is a
  tie and no player is a Defender ... both players are considered defeated"; spoils (5/10/15) to a
  winning Aggressor, (3/6/9) to a winning Defender, "7 Culture from that player" when winning "by
  5 or more" (Culture never below 0: the loser pays what it can). "If a player is involved in two
  Wars when it is their turn, they may choose which War to resolve first."
- The Vote: "discard the Card with the fewest number of Votes" (all tied fewest, 3-4 players;
  none with 2); "1 Culture per Vote to the player winning the category, and half that amount
  (rounded down) to the player coming in second ... The fourth place player forfeits Culture equal
  to half the number of Votes"; two players: the fewer-Votes card gives half, equal cards full;
  tied players "are lowered in rank according to how many players are tied".
- Movement: "Each Worker may move a number of spaces equal to your Transport value" (once each
  Movement); "At the end of Movement, be sure that there is only one Worker per space. Only
  during Movement may you have more than one Worker on a space" (since revision 5 a Worker may
  stop on an occupied square; before, never): no two Workers of a seat stand on one square when
  its Movement ends, and a Worker sent home from a shared square at the end had shared it.
  Squares are compared (a Hero, Wonder or Special Building is one space: Workers move onto its
  first square, so two Workers sharing it stand on one square).
- Production and maintenance: the Goods of Workers on Trade Routes (the space each stands on);
  "Forfeit Food equal to the highest value shown on your Descendant Track ... forfeit 3 Culture
  for every Food you are short".

Departures of today's engine that the lead is fixing under issue 32 are tagged `[issue32.N]`
(`AWAITING_LEAD_FIX`); the lead removes a tag once his fix is merged.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tests.oracle.checks import EventChecks

AWAITING_LEAD_FIX: dict[str, str] = {}

MINIMUM_BID = 1
AGGRESSOR_GAIN = (5, 10, 15)
DEFENDER_GAIN = (3, 6, 9)
PREPARATION_COST = (0, 1, 2)
CRUSHING_MARGIN, CRUSHING_CULTURE = 5, 7
FOOD_SHORT_CULTURE = 3
MARX_FOOD = 5
"""Karl Marx's Worker Maintenance (a Hero's ability, data/patchistory/game.yaml)."""
ROUTE_GOODS = ("coin", "food", "resource", "culture")
SHARING_REVISION = 5
"""The revision of Chronicle's Patchistory since which Workers may share a space in Movement."""
SHARED = "a Worker stopped on an occupied square"
CROWDED = "a Worker crowded out at the end of Movement"


def lowered_ranks_valid(ranks: tuple[int, ...]) -> bool:
    """Tied players share the lowest place of their group: for every rank r given, exactly r
    players hold rank r or better."""
    return all(sum(1 for x in ranks if x <= r) == r for r in set(ranks))


def vote_culture(players: int, rank: int, value: int, votes: int) -> int:
    """Calculating Vote Points: 1st gains the card's value, 2nd half of it (3-4 players), 3rd
    nothing, 4th forfeits half the Votes; two players: only the winner gains."""
    if rank == 1:
        return value
    if players == 2:
        return 0
    if rank == 2:
        return value // 2
    if rank == 4:
        return -(votes // 2)
    return 0


@dataclass
class PatchistoryOracle(EventChecks):
    """Feed it every event of one game with the states around it (`observe`)."""

    pack: Any
    version: int = 0
    checked: Counter[str] = field(default_factory=Counter)
    wars_resolved_for: Counter[int] = field(default_factory=Counter)
    war_choice_seen: bool = False
    sealed_auction: bool = False
    """The Auction under way is the 2-player sealed one."""
    moved_to: list[tuple[int, int]] = field(default_factory=list)
    """The squares the moving seat's Workers moved to this Movement."""
    revealed: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    sides: dict[int, bool] = field(default_factory=dict)

    # --- the Auction -----------------------------------------------------------------------

    def _BidPlaced(self, before: Any, event: Any, after: Any) -> list[str]:
        self.sealed_auction = False  # Vasco Da Gama leaves a 2-player game an open Auction
        found = []
        seat = event.seat
        bids, amounts = before.bids, before.amounts
        mine = bids[seat] if seat < len(bids) else -1
        had = amounts[seat] if mine >= 0 else 0
        others = [amounts[s] for s in range(len(bids)) if s != seat and bids[s] == event.tile]
        if mine >= 0:
            beaten = any(
                amounts[s] > had for s in range(len(bids)) if s != seat and bids[s] == mine
            )
            if not beaten:
                found.append(f"seat {seat} bid again while its bid on tile {mine} was not beaten")
        if event.added < 0 or event.amount != had + event.added:
            found.append(
                f"a bid of {event.amount} from {had} committed and {event.added} added: "
                "committed Coin may not be removed"
            )
        if event.added > before.civs[seat].coin:
            found.append(f"added {event.added} Coin with {before.civs[seat].coin}")
        if event.amount < MINIMUM_BID:
            found.append(f"a bid of {event.amount}, under the minimum of {MINIMUM_BID}")
        if others and event.amount < max(others) + 1:
            found.append(
                f"a bid of {event.amount} on tile {event.tile} where {max(others)} is highest"
            )
        after_bids = list(bids)
        after_bids[seat] = event.tile
        # the game's first Auction places its Tiles one at a time: it cannot end before every
        # participant's Tile is out
        tiles = max(len(before.offered), len(before.participants))
        every_one = all(after_bids.count(t) == 1 for t in range(tiles))
        if (event.next == -1) != every_one:
            found.append(
                f"next={event.next}, but every Tile {'has' if every_one else 'has not'} "
                "exactly one bid"
            )
        return found

    def _TileWon(self, before: Any, event: Any, after: Any) -> list[str]:
        if self.sealed_auction:
            return self._two_player_tile(before, event)
        found = []
        tile = before.bids[event.seat]
        if tile < 0 or before.offered[tile].tile != event.tile:
            found.append(f"seat {event.seat} won {event.tile}, not the Tile its bid is on")
        elif before.offered[tile].side != event.side:
            found.append(f"won with side {event.side!r}, placed {before.offered[tile].side!r}")
        if event.paid != before.amounts[event.seat]:
            found.append(f"paid {event.paid}, its bid was {before.amounts[event.seat]}")
        return found

    def _BidsRevealed(self, before: Any, event: Any, after: Any) -> list[str]:
        self.revealed = (tuple(event.tiles), tuple(event.coins))
        self.sealed_auction = True
        found = []
        for seat, coin in enumerate(event.coins):
            if coin < MINIMUM_BID and before.civs[seat].coin >= MINIMUM_BID:
                found.append(f"seat {seat} bid {coin}")
            if coin > before.civs[seat].coin:
                found.append(f"seat {seat} bid {coin} with {before.civs[seat].coin} Coin")
        return found

    def _two_player_tile(self, before: Any, event: Any) -> list[str]:
        revealed = self.revealed
        if revealed is None:
            return ["a 2-player Tile won with no bids revealed"]
        tiles, coins = revealed
        offered = [o.tile for o in before.offered]
        if event.tile not in offered:
            return [f"{event.tile} was not at the Auction"]
        got = offered.index(event.tile)
        seat, other = event.seat, 1 - event.seat
        found = []
        if event.paid != coins[seat]:
            found.append(f"seat {seat} paid {event.paid}, it bid {coins[seat]}")
        if tiles[seat] != tiles[other] or coins[seat] > coins[other]:
            expected = {tiles[seat]}
        elif coins[seat] < coins[other]:
            expected = {1 - tiles[seat]}
        else:
            expected = {0, 1}  # the Start Player chooses first; the other takes what is left
        if got not in expected:
            found.append(f"seat {seat} took Tile #{got + 1} with bids {tiles} and Coin {coins}")
        return found

    # --- War ---------------------------------------------------------------------------------

    def _SidesRevealed(self, before: Any, event: Any, after: Any) -> list[str]:
        self.sides = dict(zip(event.seats, event.blue, strict=True))
        return []

    def _WarDeclared(self, before: Any, event: Any, after: Any) -> list[str]:
        found = []
        sides = self.sides
        red = tuple(s for s, blue in sides.items() if not blue)
        if sides and set(event.aggressors) != set(red):
            found.append(f"aggressors {event.aggressors}, the red sides were {red}")
        cost = PREPARATION_COST[before.era - 1]
        for seat, paid in zip(event.aggressors, event.paid, strict=True):
            due = min(cost, before.civs[seat].resource)
            if paid != due:
                found.append(f"seat {seat} paid {paid} for War Preparation, the text gives {due}")
        return found

    def _PhaseBegan(self, before: Any, event: Any, after: Any) -> list[str]:
        self.moved_to.clear()
        self.wars_resolved_for.clear()
        self.war_choice_seen = False
        return []

    def _WarChosen(self, before: Any, event: Any, after: Any) -> list[str]:
        """The player's choice of the War to resolve first (the event the lead's fix may add
        under this name; rename here if it is named otherwise)."""
        self.war_choice_seen = True
        return []

    def _WarResolved(self, before: Any, event: Any, after: Any) -> list[str]:
        found = []
        route = next(r for r in before.routes if r.id == event.route)
        aggressors = set(route.aggressors)
        seats = tuple(event.seats)
        for i, seat in enumerate(seats):
            total = event.base[i] + event.resources[i] + event.votes[i]
            if event.totals[i] != total:
                found.append(
                    f"seat {seat} total {event.totals[i]}, the text gives {total} "
                    f"({event.base[i]} + {event.resources[i]} Resources + {event.votes[i]})"
                )
        totals = dict(zip(seats, event.totals, strict=True))
        best = max(totals.values())
        top = [s for s in seats if totals[s] == best]
        winners = tuple(top) if len(top) == 1 else tuple(s for s in top if s not in aggressors)
        if tuple(sorted(event.winners)) != tuple(sorted(winners)):
            found.append(
                f"totals {event.totals}: winners {event.winners}, the text gives {winners}"
            )
        expected = dict.fromkeys(seats, 0)
        for winner in winners:
            gains = AGGRESSOR_GAIN if winner in aggressors else DEFENDER_GAIN
            expected[winner] += gains[before.era - 1]
            for loser in seats:
                if loser != winner and totals[winner] - totals[loser] >= CRUSHING_MARGIN:
                    taken = min(CRUSHING_CULTURE, before.civs[loser].culture)
                    expected[loser] -= taken
                    expected[winner] += taken
        got = dict(zip(seats, event.culture, strict=True))
        if got != expected:
            found.append(f"spoils {got}, the text gives {expected}")
        found += self._war_order(before, event, seats)
        return found

    def _war_order(self, before: Any, event: Any, seats: tuple[int, ...]) -> list[str]:
        """ "Resolve the Negotiation and War Phase in turn order ... If a player is involved in
        two Wars when it is their turn, they may choose which War to resolve first": the War
        resolved now is that of the first of its players in turn order (the others' turns come
        later); if that player still has two Wars, the first one resolved must be its choice."""
        order = [(before.start + i) % before.players for i in range(before.players)]
        player = min(seats, key=order.index)
        routes = {r.id: r for r in before.routes}
        pending = [w for w in before.wars if w in routes and player in (routes[w].a, routes[w].b)]
        found = []
        if len(pending) >= 2 and not self.wars_resolved_for[player] and not self.war_choice_seen:
            found.append(
                f"[issue32.12] seat {player} is in {len(pending)} Wars at its turn and was not "
                "asked which to resolve first"
            )
        self.wars_resolved_for[player] += 1
        return found

    # --- Movement ----------------------------------------------------------------------------

    def _WorkerMoved(self, before: Any, event: Any, after: Any) -> list[str]:
        found = []
        workers = list(before.civs[event.seat].workers)
        frm, to = tuple(event.frm), tuple(event.to)
        if workers.count(frm) <= self.moved_to.count(frm):
            found.append(f"seat {event.seat} moved a Worker from {frm} twice this Movement")
        if to in workers:
            if self.pack.revision < SHARING_REVISION:
                found.append(
                    f"seat {event.seat}'s Worker stopped on {to}, where a Worker stands "
                    f"(revision {self.pack.revision} has one Worker per space throughout)"
                )
            self.checked[SHARED] += 1
        self.moved_to.append(to)
        return found

    def _TurnPassed(self, before: Any, event: Any, after: Any) -> list[str]:
        """The end of a seat's Movement: one Worker per space."""
        found = []
        if before.phase == "movement":
            workers = list(after.civs[event.seat].workers)
            doubled = sorted({w for w in workers if workers.count(w) > 1})
            if doubled:
                found.append(
                    f"seat {event.seat} ended its Movement with two Workers on {doubled[0]}"
                )
        self.moved_to.clear()
        return found

    def _WorkerCrowdedOut(self, before: Any, event: Any, after: Any) -> list[str]:
        workers = list(before.civs[event.seat].workers)
        self.checked[CROWDED] += 1
        if workers.count(tuple(event.at)) < 2:
            return [f"seat {event.seat}'s Worker on {tuple(event.at)} sent home, sharing nothing"]
        return []

    # --- the Vote ----------------------------------------------------------------------------

    def _ProsperityScored(self, before: Any, event: Any, after: Any) -> list[str]:
        found = []
        players = before.players
        votes_on = dict(zip(before.vote_cards, before.votes_on, strict=False))
        if votes_on.get(event.card, event.votes) != event.votes:
            found.append(f"{event.votes} Votes, the card holds {votes_on.get(event.card)}")
        value = event.votes
        if players == 2:
            other = [v for c, v in votes_on.items() if c != event.card]
            if other and event.votes < other[0]:
                value = event.votes // 2
        elif votes_on and event.votes == min(votes_on.values()):
            found.append(f"{event.card} has the fewest Votes and was scored, not discarded")
        if event.value != value:
            found.append(f"value {event.value}, the text gives {value}")
        if not lowered_ranks_valid(tuple(event.ranks)):
            found.append(f"ranks {event.ranks} do not lower tied players")
        for seat, (rank, culture) in enumerate(zip(event.ranks, event.culture, strict=True)):
            due = vote_culture(players, rank, value, event.votes)
            had = before.civs[seat].culture
            if due < 0 and culture == due and after.civs[seat].culture == max(0, had + due):
                continue  # recorded as due, the Culture stopping at 0 (behind the screen)
            if due < 0:
                due = -min(-due, had)
            if culture != due:
                found.append(f"seat {seat} ranked {rank} got {culture}, the text gives {due}")
        return found

    def _ProsperityDiscarded(self, before: Any, event: Any, after: Any) -> list[str]:
        if before.players == 2:
            return ["a card discarded in a 2-player game"]
        votes_on = dict(zip(before.vote_cards, before.votes_on, strict=False))
        if votes_on and event.votes != min(votes_on.values()):
            return [f"{event.card} with {event.votes} Votes discarded, not the fewest"]
        return []

    # --- Production and maintenance ------------------------------------------------------------

    def _GoodsProduced(self, before: Any, event: Any, after: Any) -> list[str]:
        gained = dict.fromkeys(ROUTE_GOODS, 0)
        on_routes = 0
        for route in before.routes:
            for seat, space in route.workers:
                if seat != event.seat:
                    continue
                kind = self.pack.general if route.kind == "general" else self.pack.allied
                on_routes += 1
                for good, n in dict(kind.spaces[space].goods or {}).items():
                    gained[good] += n
        got = dict(zip(ROUTE_GOODS, event.routes, strict=True))
        # Cyrus the Great (a Hero) adds a Culture per Worker on a route: allowed on top
        culture_ok = gained["culture"] <= got["culture"] <= gained["culture"] + on_routes
        if any(got[g] != gained[g] for g in ROUTE_GOODS[:3]) or not culture_ok:
            return [f"seat {event.seat} gained {got} from Trade Routes, the spaces give {gained}"]
        return []

    def _Maintained(self, before: Any, event: Any, after: Any) -> list[str]:
        if event.what != "workers":
            return []
        civ = before.civs[event.seat]
        track = self.pack.numbers["descendant_track"]
        options = []
        for due in (track[civ.born], MARX_FOOD):
            paid = min(due, civ.food)
            culture = min((due - paid) * FOOD_SHORT_CULTURE, civ.culture)
            options.append((paid, culture))
        if (event.food, event.culture) not in options or event.resource:
            return [
                f"seat {event.seat} fed its Workers {event.food} Food and {event.culture} "
                f"Culture, the Descendant Track gives {options[0]}"
            ]
        return []
