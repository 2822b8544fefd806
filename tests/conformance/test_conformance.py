"""Every registered ruleset against the conformance kit (tests/support/conformance.py).

Parametrised over `service.rulesets.available()` (with the toys of tests/support/toy.py): a
ruleset registered later is checked with no edit here. Each test plays its batch of seeded
random games (`CHRONICLE_CONFORMANCE_GAMES` per ruleset, default 24; 500 for a long run).
"""

from __future__ import annotations

import pytest

from tests.support import conformance as kit

CASES = [
    pytest.param(name, games, id=f"{name}-games-{games.start}-{games.stop - 1}")
    for name in kit.ruleset_names()
    for games in kit.batches()
]
RULESETS = [pytest.param(name, id=name) for name in kit.ruleset_names()]


def _failures(found: list[str]) -> str:
    return "\n".join(found[:20]) + (f"\n... and {len(found) - 20} more" if len(found) > 20 else "")


@pytest.mark.parametrize("name", RULESETS)
def test_every_ruleset_has_a_rules_catalogue(name):
    subject = kit.subject(name)
    assert subject.catalogue is not None, f"{name} has no rules catalogue (data/<pack>/rules.yaml)"
    assert len(subject.catalogue) > 0
    for rule in (subject.rules.turn_rule, subject.rules.end_rule, subject.rules.setup_rule):
        assert rule in subject.catalogue, f"{name} cites {rule!r}, not in its catalogue"


@pytest.mark.parametrize(("name", "games"), CASES)
def test_random_games_end_with_the_invariants_kept_after_every_event(name, games):
    subject = kit.subject(name)
    found: list[str] = []
    for run in kit.playthroughs(subject, games):
        found += run.failures
        assert subject.rules.is_over(run.final.state) or run.failures, run.where()
    assert not found, _failures(found)


@pytest.mark.parametrize(("name", "games"), CASES)
def test_replay_of_the_recorded_log_equals_the_state_played_to(name, games):
    found: list[str] = []
    for run in kit.playthroughs(kit.subject(name), games):
        found += kit.replay_failures(run)
    assert not found, _failures(found)


@pytest.mark.parametrize(("name", "games"), CASES)
def test_every_state_between_commands_survives_its_json_form(name, games):
    found: list[str] = []
    for n, run in enumerate(kit.playthroughs(kit.subject(name), games)):
        found += kit.codec_failures(run, every=n < kit.WORD_GAMES)
    assert not found, _failures(found)


@pytest.mark.parametrize(("name", "games"), CASES)
def test_every_listed_action_is_accepted_and_the_listing_is_deterministic(name, games):
    found: list[str] = []
    decided = 0
    for run in kit.playthroughs(kit.subject(name), games):
        failures, count = kit.legal_action_failures(run)
        found += failures
        decided += count
    assert not found, _failures(found)
    assert decided > 0


@pytest.mark.parametrize(("name", "games"), CASES)
def test_every_listed_action_fits_the_command_schema_the_api_documents(name, games):
    found: list[str] = []
    checked = 0
    for run in kit.playthroughs(kit.subject(name), games):
        failures, count = kit.command_schema_failures(run)
        found += failures
        checked += count
    assert not found, _failures(found)
    if kit.subject(name).rules.command_schemas():
        assert checked > 0


@pytest.mark.parametrize(("name", "games"), CASES)
def test_every_refusal_cites_a_rule_of_the_catalogue(name, games):
    subject = kit.subject(name)
    found = kit.setup_refusal_failures(subject)
    failures, refused = list(found.failures), found.refused
    for run in kit.playthroughs(subject, games):
        checked = kit.refusal_failures(run)
        failures += checked.failures
        refused += checked.refused
    assert not failures, _failures(failures)
    assert refused > 0


@pytest.mark.parametrize(("name", "games"), CASES)
def test_a_viewer_that_cannot_tell_two_histories_apart_is_told_the_same(name, games):
    found: list[str] = []
    compared = private = 0
    for run in kit.playthroughs(kit.subject(name), games):
        leaks = kit.indistinguishable_failures(run)
        found += leaks.failures
        compared += leaks.compared
        private += any(not r.event.visibility.is_public for r in run.log)
    assert not found, _failures(found)
    assert compared > 0 or not private, "no alternative history looked alike to any viewer"


@pytest.mark.parametrize(("name", "games"), CASES)
def test_no_view_names_what_events_hidden_from_its_viewer_hold(name, games):
    found: list[str] = []
    for index in list(games)[: kit.WORD_GAMES]:
        found += kit.hidden_word_failures(kit.play(kit.subject(name), index)).failures
    assert not found, _failures(found)


@pytest.mark.parametrize(("name", "games"), CASES)
def test_a_mid_game_position_loads_into_a_sandbox_game_after_storage(name, games):
    found: list[str] = []
    for run in kit.playthroughs(kit.subject(name), games):
        found += kit.position_failures(run)
    assert not found, _failures(found)
