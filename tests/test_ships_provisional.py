"""Issue 22 items 5–6: an invented rule is never cited as the seed's, and every invented outcome
is labelled. Wake's stand-ins for the normal rules (ST-GAPS) have their own IDs in the digest's
style (ST-GAPS-HIT, -REACH, -AIR, -BOARD, -HACK, -MINOVSKY, -CARD), each summarised as
PROVISIONAL; a refusal resting on one cites it and says "provisional"; the log lines of
boarding, hacking and Minovsky particles carry ``[provisional: ID]``, and explain names the
rule with its summary."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import WakeError
from domain.frozen import changed
from domain.ruleset import get_ruleset
from domain.rulesets.ships import events as ev
from domain.rulesets.ships import provisional as prov
from domain.rulesets.ships.state import ShipsState
from tests.ships_helpers import decide, play, ship, table

P1V = ship("P1", "yamato")
P1R = ship("P1", "kongo_cruiser", "rearguard")
P2V = ship("P2", "musai")
P2R = ship("P2", "dolos", "rearguard")
FLEETS = [P1V, P1R, P2V, P2R]


def _refusal(state: ShipsState, side: str, command: dict[str, Any]) -> WakeError:
    with pytest.raises(WakeError) as info:
        decide(state, side, command)
    return info.value


def _cites(error: WakeError, rule: str) -> None:
    assert error.rule == rule, error
    assert not (error.rule or "").startswith("ST-3"), error  # never the seed's segment rule
    assert f"provisional rule {rule}" in error.message, error


def test_a_missile_card_barred_by_minovsky_cites_the_provisional_minovsky_rule() -> None:
    state = changed(table(units=FLEETS, hands={"P1": ["edf_missiles"]}), minovsky=True)
    order = {"type": "attack", "ship": P1V.id, "target": P2V.id, "cards": ["edf_missiles"]}
    _cites(_refusal(state, "P1", order), prov.MINOVSKY)


def test_a_hacked_ship_with_nothing_to_fire_cites_the_provisional_hacking_rule() -> None:
    hacked = changed(P1V, hacked=True)
    state = table(units=[hacked, P1R, P2V, P2R])
    _cites(_refusal(state, "P1", {"type": "attack", "ship": P1V.id, "target": P2V.id}), prov.HACK)


def test_a_hacked_vanguard_forced_to_spend_its_card_cites_the_provisional_hacking_rule() -> None:
    """ST-3.2 makes a vanguard that can attack attack; a hacked one can only by playing its
    attack card, which it must then do: the refusal cites the provisional hacking rule (and
    names ST-3.2 as why it must attack)."""
    hacked = changed(P1V, hacked=True)
    state = table(units=[hacked, P1R, P2V, P2R], hands={"P1": ["shock_cannon"]})
    error = _refusal(state, "P1", {"type": "end_turn"})
    _cites(error, prov.HACK)
    assert "(ST-3.2)" in error.message and "attack card" in error.message


def test_every_provisional_rule_has_a_summary_marked_provisional() -> None:
    ruleset = get_ruleset("ships")
    for rule in (prov.HIT, prov.REACH, prov.AIR, prov.BOARD, prov.HACK, prov.MINOVSKY, prov.CARD):
        assert ruleset.rule_summary(rule).startswith("PROVISIONAL"), rule


def test_boarding_hacking_and_minovsky_are_labelled_in_the_log_and_explained() -> None:
    ruleset = get_ruleset("ships")
    state = table(units=FLEETS, segment="boarding")
    _, events = play(state, "P1", {"type": "board", "ship": P1V.id, "target": P2V.id})
    boarding = next(e for e in events if isinstance(e, ev.BoardingResolved))
    assert f"[provisional: {prov.BOARD}]" in ruleset.describe(boarding)
    assert any(prov.BOARD in n for n in ruleset.event_notes(state, boarding))
    state = table(units=FLEETS, hands={"P1": ["omoikane_hack"]})
    hack = {"type": "hack", "card": "omoikane_hack", "targets": [P2V.id]}
    _, events = play(state, "P1", hack)
    hacked = next(e for e in events if isinstance(e, ev.ShipsHacked))
    assert f"[provisional: {prov.HACK}]" in ruleset.describe(hacked)
    assert any(prov.HACK in n for n in ruleset.event_notes(state, hacked))
    dispersed = ev.MinovskyAnswered(player="P2", dispersed=True, card="minovsky")
    assert f"[provisional: {prov.MINOVSKY}]" in ruleset.describe(dispersed)
    notes = ruleset.event_notes(state, dispersed)
    assert any("PROVISIONAL" in n and "long range" in n for n in notes)
    kept = ev.MinovskyAnswered(player="P2", dispersed=False)
    assert "provisional" not in ruleset.describe(kept)


def test_a_hacked_ship_firing_its_card_shows_why_its_guns_are_0() -> None:
    hacked = changed(P1V, hacked=True)
    state = table(units=[hacked, P1R, P2V, P2R], hands={"P1": ["shock_cannon"]})
    order = {"type": "attack", "ship": P1V.id, "target": P2V.id, "cards": ["shock_cannon"]}
    after, events = play(state, "P1", order)
    while not any(isinstance(e, ev.HitResolved) for e in events):  # P2 answers: no defence
        after, events = play(after, "P2", {"type": "defend", "cards": []})
    hit = next(e for e in events if isinstance(e, ev.HitResolved))
    notes = get_ruleset("ships").event_notes(state, hit)
    assert hit.guns == 0 and any(prov.HACK in n for n in notes)


def test_the_viewer_labels_every_invented_outcome_of_a_bundled_game() -> None:
    """The viewer's move list and log (``viewer.timeline``): in a six-player game with boarding,
    hacking and dispersed Minovsky particles, each of those lines says it is provisional."""
    from domain.record import read_record_file
    from tests.helpers import FIXTURES
    from viewer.timeline import Timeline

    record = read_record_file(FIXTURES / "games/ships/multi6-nadesico.wake.json")
    timeline = Timeline(record.header, record.events)
    kinds = {"BoardingResolved": prov.BOARD, "ShipsHacked": prov.HACK}
    seen = set()
    for info, event in zip(timeline.events, timeline.decoded, strict=True):
        rule = kinds.get(type(event).__name__)
        if isinstance(event, ev.MinovskyAnswered) and event.dispersed:
            rule = prov.MINOVSKY
        if rule is not None:
            assert f"[provisional: {rule}]" in info.text, info.text
            seen.add(rule)
    assert seen == {prov.BOARD, prov.HACK, prov.MINOVSKY}
