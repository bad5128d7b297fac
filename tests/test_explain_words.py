"""Issue 21 items 5 and 8: the move list finds an attack under its target, and an explanation
settles a dispute in players' words (dice by colour and icons, the odds that matter, what a
declaration measured, why a card was cancelled, which fire a Misfire stopped)."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from domain.chance import describe_roll
from domain.engine import Fact
from domain.event_kinds import kind_name
from domain.events import DiceRolled
from domain.explain import explain_event, explanation_lines
from domain.record import read_record_file
from domain.words import Names, unit_labels, value_text
from tests.helpers import FIXTURES
from viewer.scrubber import build_payload
from viewer.timeline import Timeline


@cache
def _timeline(path: str) -> Timeline:
    record = read_record_file(FIXTURES / path)
    return Timeline(record.header, record.events)


def _explained(path: str, pick: Callable[[Fact], bool], viewer: str | None = None) -> str:
    tl = _timeline(path)
    index = next(i for i, f in enumerate(tl.facts) if pick(f))
    return "\n".join(explanation_lines(explain_event(tl.state_at(index), tl.facts, index, viewer)))


def test_values_read_as_words() -> None:
    """Issue 21 item 7: lists, mappings, flags, None and digests as words."""
    assert value_text([]) == "none"
    assert value_text(["a", "b"]) == "a, b"
    assert value_text({"P1": 57, "P2": 15}) == "P1 57, P2 15"
    assert value_text(None) == "none" and value_text(False) == "no"
    assert value_text("ab" * 32) == "sealed" and value_text(["ab" * 32] * 3) == "3 sealed"


def test_names_replace_whole_ids_and_keep_possessives() -> None:
    names = Names({"rebels": "Rebel Alliance", "tie_1": "TIE Fighter Squadron 1"})
    assert names.text("rebels' turn: tie_1 and tie_10") == (
        "Rebel Alliance's turn: TIE Fighter Squadron 1 and tie 10"
    )
    assert names.text("graf_spee fires") == "graf spee fires"  # humanised when unnamed


def test_kinds_read_as_words() -> None:
    assert kind_name("AttackDeclared") == "attack declared"
    assert kind_name("CommandIssued") == "order" and kind_name("DiceRolled") == "dice roll"


def test_the_unit_filter_finds_the_attacks_on_a_unit() -> None:
    """Issue 21 item 5 (SWA-ATK 1): every attack declared on the Victory is among the events of
    the Victory, in the timeline and in the page's payload, not only its own attacks."""
    tl = _timeline("games/armada/core_learning-score.wake.json")
    on_it = [
        f.seq
        for f in tl.facts
        if f.topic == "armada.AttackDeclared/1" and f.payload["defender"] == "victory"
    ]
    by_it = [
        f.seq
        for f in tl.facts
        if f.topic == "armada.AttackDeclared/1" and f.payload["attacker"] == "victory"
    ]
    assert on_it and by_it
    assert all("victory" in tl.events[seq - 1].units for seq in on_it + by_it)
    payload = build_payload(tl, "empire")
    assert all("victory" in payload["events"][seq - 1][2] for seq in on_it)


def test_an_armada_pool_shows_its_dice_and_the_odds_that_matter() -> None:
    """Issue 21 item 8 (SWA-DICE, SWA-ATK 2): dice by colour and icons, the chance of this
    damage or more, of exactly this, and the expected damage; never "needs 0+" or faces."""
    tl = _timeline("games/armada/core_learning-score.wake.json")
    rolls = [e for e in tl.decoded if isinstance(e, DiceRolled)]
    assert rolls
    for roll in rolls:
        line = describe_roll(roll)
        assert re.search(r"(red|blue|black) dice: ", line), line
        assert "needs" not in line and "p=" not in line and "[" + "2," not in line
        assert f"of {roll.roll.total} or more" in line and "of exactly" in line
        assert "expected" in line
    text = _explained(
        "games/armada/core_learning-score.wake.json",
        lambda f: f.topic == "wake.DiceRolled/1" and f.payload["purpose"] == "reroll",
    )
    assert "needs 0+" not in text and "faces [" not in text and "dice: " in text


def test_an_armada_declaration_says_what_was_measured_and_the_tokens_ready() -> None:
    """Issue 21 item 8 (SWA-ATK 1, SWA-DEF): arc, range band, distance, obstruction and the
    defender's defence tokens at the declaration."""
    text = _explained(
        "games/armada/core_learning-score.wake.json",
        lambda f: f.topic == "armada.AttackDeclared/1" and f.payload["attacker_kind"] == "ship",
    )
    first = text.splitlines()[0]
    assert re.search(r"from its (front|left|right|rear) arc at \w+ range", first), first
    assert "distance" in first and "obstructed" in first
    assert re.search(r"defence tokens: .*ready.*\(\d+ ready\) \[SWA-DEF\]", text), text


def test_iron_oak_odds_name_what_p_is() -> None:
    """Issue 21 item 8 (IO-6.2): "chance of success 3/5 (60%)", never "(p=3/5)"."""
    tl = _timeline("games/iron_oak/hampton_roads-magazine.wake.json")
    lines = [tl.text(seq, None) for seq in range(1, tl.length + 1)]
    rolled = [line for line in lines if "gunnery [IO-6.2]" in line]
    assert rolled and all(re.search(r"chance of success \d+/\d+ \(\d+%\)", x) for x in rolled)
    assert not any("(p=" in line for line in lines)


def test_iron_oak_misfire_says_which_fire_it_stopped() -> None:
    """Issue 21 item 8 (IO-3.3.2 D/E): the Misfire behind a shot that happened names the fire
    it stopped, without "location None"."""
    text = _explained(
        "games/iron_oak/hampton_roads-magazine.wake.json",
        lambda f: f.topic == "wake.CommandIssued/1" and "misfire" in str(f.payload["command"]),
    )
    assert "does not happen (IO-3.3.2D)" in text and "every other declared fire" in text
    assert "None" not in text and "location" not in text


def test_a_ships_hit_says_why_a_card_was_cancelled() -> None:
    """Issue 21 item 8 (ST-GAPS-HIT): the attack card's text and the defence card that
    cancelled it."""
    text = _explained(
        "games/ships/multi2-duel.wake.json",
        lambda f: f.topic == "ships.HitResolved/1" and bool(f.payload["cancelled"]),
    )
    assert re.search(r"card [\w -]+: \w+ attack \d+, played at", text), text
    assert re.search(r"cancelled: [\w -]+ cancels \w+ cards", text), text
    assert "['" not in text and "[]" not in text


def test_unit_labels_never_hint_at_a_hidden_card() -> None:
    """Issue 21 item 7 with hidden information (ST-1.9): a ship on the table is numbered only
    among the units every side sees; a card in a hand sharing its name changes nothing."""
    from domain.read_model import UnitView

    def unit(uid: str, name: str, private: bool = False) -> UnitView:
        return UnitView(
            id=uid,
            side="P1",
            name=name,
            kind="ship",
            status="active",
            damage=0,
            strength=1,
            details={"seat": "P1"},
            private=private,
        )

    labels = unit_labels([unit("P1-b1-V1", "Andromeda"), unit("P1-hand-1", "Andromeda", True)])
    assert labels == {"P1-b1-V1": "Andromeda (P1)", "P1-hand-1": "Andromeda (P1)"}
    squadrons = unit_labels([unit("tie_1", "TIE"), unit("tie_2", "TIE")])
    assert squadrons == {"tie_1": "TIE 1 (P1)", "tie_2": "TIE 2 (P1)"}
