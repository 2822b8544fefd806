"""Every card says what it does (issue 49, 4): the words on each card of every pack are read for
their numbers, "up to", "each", "may" and targets, and the card's structured effect (what the
engine carries out) must say the same. Liberate IV and V read "Choose up to two" while their
effect lacked the "up to" (hotw-2024 revision 2 fixed them); a card whose words and effect part
again fails here.

- hotw-2024: every text Event and every Honor in the pack (events.yaml, honors.yaml: its words
  are the card's `text`);
- hotw-ah2001: every row of the rulebook's Greater and Lesser Event tables
  (shared/rules/hotw-avalon-hill-2001.txt) against events.yaml and play.yaml's targets;
- brief-2009: the manual prints no card, only what it says of Leader, Weaponry and Israel;
- patchistory: the words of every Hero, Wonder and Special Building on the Terrain Tiles
  against the pack's numbers and political costs.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from domain.hotw.editions.hotw_2024.cards import Effect, EventCard, Honor
from service.rulesets import ruleset

NUMBER = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
N = r"(a|an|one|two|three|four|five|\d+)"


def number(word: str) -> int:
    return NUMBER[word.lower()] if word.lower() in NUMBER else int(word)


# --- hotw-2024 ---------------------------------------------------------------------------------

Said = tuple[str, dict[str, Any]]
"""One thing the words say: an effect's kind and the values they give its fields."""

GOLD_FOR_EACH = {
    "of your friendly lands": ("land",),
    "city": ("city",),
    "capital and each city": ("capital", "city"),
    "monument": ("monument",),
    "empire land": ("land",),
}


def hotw24_said(text: str) -> list[Said]:
    """What the words of a 2024 card say its effects are, in the order the words say them."""
    found: list[tuple[int, Said]] = []
    chosen = 0

    def say(at: int, kind: str, **fields: Any) -> None:
        found.append((at, (kind, fields)))

    for m in re.finditer(rf"[Cc]hoose (up to )?{N} Enemy lands?", text):
        chosen = number(m[2])
        say(m.start(), "remove_garrisons", count=chosen, up_to=bool(m[1]))
    for m in re.finditer(r"[Cc]hoose one area; every garrison in it is removed", text):
        say(m.start(), "remove_garrisons", count=None, up_to=False)
    for m in re.finditer(r"carry out building reduction", text):
        say(m.start(), "building_reduction")
    invade = "invade" in text
    for m in re.finditer(rf"[Pp]lace {N} arm(?:y|ies)\b", text):
        say(m.start(), "place_armies", count=number(m[1]), invade=invade)
    for m in re.finditer(r"place one of your armies in (each|it)\b", text):
        say(m.start(), "place_armies", count=chosen if m[1] == "each" else 1, invade=invade)
    for m in re.finditer(rf"\b(?:[Pp]lace|then) {N} (cit(?:y|ies)|forts?)\b", text):
        building = "city" if m[2].startswith("cit") else "fort"
        say(m.start(), "place_buildings", building=building, count=number(m[1]))
    for m in re.finditer(rf"[Cc]ollect {N} (?:extra )?gold(?! for| per)", text):
        say(m.start(), "collect_gold", amount=number(m[1]), per="flat")
    for m in re.finditer(
        rf"[Cc]ollect {N} (?:extra )?gold for each ([A-Za-z ]+?)(?: in| touching|\.|$)", text
    ):
        for per in GOLD_FOR_EACH[m[2].lower()]:
            say(m.start(), "collect_gold", amount=number(m[1]), per=per)
    if re.search(r"two gold per capital, one per city and one per monument", text):
        say(text.index("two gold per"), "collect_gold", amount=1, per="building_value")
    for m in re.finditer(rf"collect {N} gold per Empire land", text):
        say(m.start(), "collect_gold", amount=number(m[1]), per="land")
    for m in re.finditer(rf"[Aa]dd {N} people pieces?", text):
        say(m.start(), "add_people", count=number(m[1]))
    for m in re.finditer(rf"[Pp]lace {N} fleets?", text):
        say(m.start(), "place_fleet", count=number(m[1]))
    for m in re.finditer(rf"[Rr]emove {N} monuments?", text):
        back = re.search(rf"moves back {N} spaces?", text)
        say(
            m.start(),
            "remove_buildings",
            building="monument",
            count=number(m[1]),
            owner_loses_gold=number(back[1]) if back else 0,
        )
    return [said for _, said in sorted(found, key=lambda pair: pair[0])]


def hotw24_effects(effects: tuple[Effect, ...]) -> list[Said]:
    """The effects, each with the fields the words speak of."""
    spoken = {
        "remove_garrisons": ("count", "up_to"),
        "building_reduction": (),
        "place_armies": ("count", "invade"),
        "place_buildings": ("building", "count"),
        "collect_gold": ("amount", "per"),
        "add_people": ("count",),
        "place_fleet": ("count",),
        "remove_buildings": ("building", "count", "owner_loses_gold"),
    }
    out: list[Said] = []
    for effect in effects:
        names = spoken.get(effect.kind)
        assert names is not None, f"no words are read for a {effect.kind} effect yet"
        values = {name: getattr(effect, name) for name in names}
        out.append((effect.kind, {k: getattr(v, "value", v) for k, v in values.items()}))
    return out


def hotw24_mismatches(card: EventCard | Honor) -> Iterator[str]:
    text = card.text
    effects = card.effects if isinstance(card, EventCard) else card.effect
    said, done = hotw24_said(text), hotw24_effects(effects)
    if said != done:
        yield f"{card.id}: the words say {said}, the effects do {done}"
    if isinstance(card, EventCard):
        icon = "(and an Honor for the Honor icon)" in text
        if icon != card.honor_icon:
            words = "say" if icon else "lack"
            yield f"{card.id}: honor_icon {card.honor_icon}, the words {words} it"
    elif "in the Endgame" in text and hotw24_effects(card.endgame_effect) != done:
        yield f"{card.id}: the Endgame effect is not the card's effect"
    if re.search(r"\bmay\b", text) and not any(getattr(e, "up_to", False) for e in effects):
        yield f"{card.id}: the words say 'may', no effect lets the player choose less"


def test_every_2024_card_does_what_its_words_say() -> None:
    cards = ruleset("hotw-2024").pack.cards
    texts: list[EventCard | Honor] = [c for c in cards.all_events() if c.text]
    assert len(texts) == 30 and len(cards.honors) == 10
    found = [m for card in (*texts, *cards.honors) for m in hotw24_mismatches(card)]
    assert found == []


def test_choose_up_to_two_is_read_from_the_words_of_liberate_iv_and_v() -> None:
    """The reading itself: Liberate's words give two lands, "up to", then one army in each."""
    cards = ruleset("hotw-2024").pack.cards
    for card in ("liberate-3", "liberate-4", "liberate-5"):
        assert hotw24_said(cards.event(card).text) == [
            ("remove_garrisons", {"count": 2, "up_to": True}),
            ("place_armies", {"count": 2, "invade": False}),
        ]


def test_a_card_whose_effect_lacks_its_up_to_fails_the_words_check() -> None:
    """Revision 1's Liberate IV, as it was, is caught."""
    old = ruleset("hotw-2024").at_revision(1).pack.cards.event("liberate-4")
    assert [m for m in hotw24_mismatches(old) if "up_to': False" in m]


# --- hotw-ah2001 -------------------------------------------------------------------------------

AH2001_TEXT = Path("shared") / "rules" / "hotw-avalon-hill-2001.txt"
ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6, "VII": 7}
AH2001_WORDS: dict[str, tuple[tuple[str, str], ...]] = {
    # kind: (a phrase with one number in it, the effect field or target that number is)
    "leader": ((rf"rolls {N} dice when attacking", "attack_dice"),),
    "weaponry": ((r"adds \+(\d) to each", "bonus"),),
    "minor-empire": ((r"Strength: (\d+)", "strength"),),
    "kingdom": ((rf"Place {N} army", "armies=1"),),
    "migrants": ((rf"Place {N} armies", "armies"), (rf"in any {N} Lands", "picks")),
    "civil-war": ((rf"Place {N} armies", "armies"), (rf"in {N} different Lands", "picks")),
    "jewish-revolt": ((rf"using {N} dice", "attack_dice"),),
    "siegecraft": ((r"gain a \+(\d) bonus", "bonus"),),
    "crusade": ((rf"Place {N} armies", "armies"), (r"with \+(\d) to their die", "bonus")),
    "black-death": ((rf"Choose {N} adjacent Areas", "areas"), (rf"roll {N} die", "dice")),
    "treachery": ((rf"name {N} Land", "picks"),),
    "naval-power": ((rf"only roll {N} dice", "defence_dice"),),
    "engineering": ((rf"add {N} forts", "forts"),),
    "coins": ((rf"receives {N} coins?", "coins"),),
    "famine": ((rf"Choose {N} Area", "picks"), (rf"roll {N} die", "dice")),
    "plague": ((rf"must roll {N} dice\. If", "first_dice"), (rf"using {N} dice", "spread_dice")),
    "pestilence": (
        (rf"Choose {N} Land", "picks"),
        (rf"must roll {N} dice", "first_dice"),
        (rf"must roll {N} dice\. Again", "adjacent_dice"),
    ),
    "jihad": ((rf"uses {N} dice to attack", "attack_dice"),),
    "disaster": ((rf"Choose up to {N} Lands", "picks"), (rf"up to {N} Lands", "lands")),
    "astronomy": ((rf"place {N} fleet", "fleets"),),
}
"""What each kind of card's words give a number for (`picks`: how many targets the player
names, play.yaml's targets; `armies=1`: the effect places one army, which the pack leaves
implicit)."""

AH2001_KNOWN: dict[str, str] = {
    "migrants-australia: the words say two Lands, not 'up to' two; play.yaml lists migrants "
    "under up_to": "issue 49, 2 (the ah2001 helper's ruling)",
    "migrants-north-america: the words say two Lands, not 'up to' two; play.yaml lists migrants "
    "under up_to": "issue 49, 2",
    "migrants-africa: the words say two Lands, not 'up to' two; play.yaml lists migrants under "
    "up_to": "issue 49, 2",
    "Allies: a card of the rulebook's tables the pack does not have": "issue 49, 1",
}
"""Mismatches of hotw-ah2001 reported to the helper changing its pack in parallel (issue 49, 1
and 2); each may go when its fix is merged, and no other may appear."""


def find_text(start: Path, relative: Path) -> Path | None:
    """A rule text in a `shared/rules` folder beside the repository or above it."""
    for folder in (start, *start.parents):
        if (folder / relative).is_file():
            return folder / relative
    return None


def ah2001_rows(text: str) -> Iterator[tuple[str, str, int, str]]:
    """(epochs, name, count, description) of every row of the Event card tables."""
    plain = re.sub(r"<[^>]+>", "", text)
    for line in plain.splitlines():
        cells = [c.strip() for c in line.split("\t")]
        if len(cells) == 4 and cells[2].isdigit() and cells[0] != "Epoch":
            epochs, name, count, words = cells
            yield epochs, re.sub(r"\s+", " ", name), int(count), re.sub(r"\s+", " ", words)


def ah2001_epochs(cell: str) -> frozenset[int]:
    if cell == "All":
        return frozenset(range(1, 8))
    ends = [ROMAN[part] for part in re.split(r"\s*[–-]\s*", cell)]
    return frozenset(range(ends[0], ends[-1] + 1))


def ah2001_mismatches(tables: Any, text: str) -> Iterator[str]:
    by_name = {card.name.lower(): card for card in tables.events}
    targets = tables.targets
    for epochs, name, count, words in ah2001_rows(text):
        card = by_name.get(name.lower())
        if card is None:
            yield f"{name}: a card of the rulebook's tables the pack does not have"
            continue
        if card.count != count:
            yield f"{card.id}: {card.count} copies, the table prints {count}"
        if card.epochs != ah2001_epochs(epochs):
            yield f"{card.id}: epochs {sorted(card.epochs)}, the table prints {epochs}"
        before = "Resolve this card before placing your first army" in words
        if card.before_first_army != before:
            yield f"{card.id}: before_first_army {card.before_first_army}, the words differ"
        for phrase, field in AH2001_WORDS.get(card.kind, ()):
            found = re.search(phrase, words)
            if found is None:
                yield f"{card.id}: the words lack {phrase!r}"
                continue
            said = number(found[1])
            if field == "picks":
                done = targets.picks.get(card.kind)
            elif "=" in field:
                field, implicit = field.split("=")
                done = card.effect.get(field, int(implicit))
            else:
                done = card.effect.get(field)
            if done != said:
                yield f"{card.id}: {field} is {done}, the words say {said}"
        up_to = bool(re.search(r"\bup to\b", words))
        if up_to != (card.kind in targets.up_to):
            yield (
                f"{card.id}: the words say {'up to' if up_to else 'two Lands'}"
                + ("" if up_to else ", not 'up to' two")
                + f"; play.yaml {'lists' if not up_to else 'does not list'} {card.kind} under up_to"
            )


def test_every_ah2001_event_card_does_what_the_rulebook_table_prints() -> None:
    path = find_text(Path(__file__).resolve().parent, AH2001_TEXT)
    assert path is not None, f"the rule text {AH2001_TEXT} is beside every checkout (/work/shared)"
    text = path.read_text(encoding="utf-8")
    rows = list(ah2001_rows(text))
    assert len(rows) == 10 + 32  # the Greater table's 10 rows, the Lesser table's 32
    tables = ruleset("hotw-ah2001").pack.tables
    found = list(ah2001_mismatches(tables, text))
    unknown = [m for m in found if m not in AH2001_KNOWN]
    assert unknown == []


# --- brief-2009 --------------------------------------------------------------------------------


def test_brief_2009_cards_say_what_its_manual_says_of_them() -> None:
    """The manual prints no card; it says "Each player receives one Leader and one Weaponry
    Event card" (one copy per seat, six at most) and of Israel "Only Kingdom playable in later
    epochs; must be played at turn start" (red)."""
    tables = ruleset("brief-2009").pack.tables
    cards = {card.id: card for card in tables.events}
    most = max(ruleset("brief-2009").player_counts)
    assert cards["leader"].count == most and cards["weaponry"].count == most
    later = [c.id for c in tables.events if c.kind == "kingdom" and c.later_epochs]
    assert later == ["israel"]
    assert cards["israel"].timing == "red"


# --- patchistory -------------------------------------------------------------------------------

KIND_WORD = {"hero": "Hero", "wonder": "Wonder", "special": "Special Building"}
PATCHISTORY_WORDS: dict[str, tuple[str, tuple[str, ...]]] = {
    # ability: (a phrase with one number in it, the pack's number it prints)
    "ziggurat": (r"forfeit (\d+) if none", ("ziggurat_none_culture",)),
    "pyramids": (r"gain (\d+) Culture", ("pyramids_culture",)),
    "hanging-gardens": (r"gain (\d+) Food", ("hanging_gardens_food",)),
    "kremlin": (r"gain (\d+) Votes", ("kremlin_votes",)),
    "chichen-itza": (r"for (\d+) Culture each", ("chichen_itza_culture",)),
    "wall-street": (r"1 Culture per (\d+) Coin", ("wall_street_coin_per_culture",)),
    "marx": (r"Maintenance cost is (\d+)", ("maintenance", "marx_food")),
    "che-guevara": (r"Political Points are (\d+)", ("che_guevara_politics",)),
    "bismarck": (r"gains you (\d+) Culture", ("threaten", "bismarck_culture")),
}


def patchistory_mismatches(pack: Any) -> Iterator[str]:
    features = {
        (f.id, f.ability, f.kind, f.text)
        for tile in pack.tiles.values()
        for side in (tile.white, tile.black)
        for f in side.features
        if f.ability
    }
    costs = pack.numbers["political_costs"]
    for fid, ability, kind, text in sorted(features):
        if not text.startswith(f"{KIND_WORD[kind]}: "):
            yield f"{fid}: a {kind} whose words begin {text.split(':')[0]!r}"
        if ability in PATCHISTORY_WORDS:
            phrase, path = PATCHISTORY_WORDS[ability]
            found = re.search(phrase, text)
            printed = pack.number(*path)
            if found is None or int(found[1]) != printed:
                yield f"{fid}: the words {text!r}, the pack's {'.'.join(path)} is {printed}"
        management = re.search(r"Management \((\d+) Points?\)", text)
        if management and costs.get(ability) != int(management[1]):
            cost = costs.get(ability)
            yield f"{fid}: Management costs {cost} Points, the words say {management[1]}"
        if ability.startswith("cheaper-"):
            action = ability.removeprefix("cheaper-").replace("-", " ")
            if f"the {action} action costs 1 Political Point less" not in text:
                yield f"{fid}: {ability}, but the words say {text!r}"
            if action.replace(" ", "-") not in costs:
                yield f"{fid}: {ability} makes cheaper an action that has no political cost"


def test_every_patchistory_hero_wonder_and_special_building_does_what_its_words_say() -> None:
    pack = ruleset("patchistory").pack
    assert list(patchistory_mismatches(pack)) == []
