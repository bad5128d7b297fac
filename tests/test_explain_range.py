"""Issue 13, the explain panel: the range at an attack's declaration, in every ruleset's bundled
games. Morze's declaration prints distance/range (PL-4a) and Armada's the range band that decides
the dice (SWA-ATK 1-2); SHIPS & TACTICS names the range its segment stands for (ST-2.2) and where
each target stands (ST-0, ST-GAPS reach); Iron & Oak's declaration names each fire's range from
the state it is declared in (IO-6.1), the one its resolution then uses."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from domain.engine import Fact, GameState, apply_fact, new_game
from domain.explain import Explanation, event_names, explain_event, explanation_lines
from domain.record import read_record_file
from tests.helpers import FIXTURES

GAMES = FIXTURES / "games"


def _explained(
    path: Path, wanted: Callable[[Fact], bool]
) -> Iterator[tuple[Fact, GameState, Explanation]]:
    """Each fact of a bundled game that ``wanted`` picks, the state before it, its
    explanation (the umpire's)."""
    record = read_record_file(path)
    state = new_game(record.header)
    for index, fact in enumerate(record.events):
        if wanted(fact):
            yield fact, state, explain_event(state, record.events, index)
        state = apply_fact(state, fact, check=False)


def _games(ruleset: str) -> list[Path]:
    return sorted((GAMES / ruleset).glob("*.wake.json"))


@pytest.mark.parametrize("path", _games("armada"), ids=lambda p: p.stem)
def test_armada_attacks_are_explained_with_their_range_band(path: Path) -> None:
    """SWA-ATK 1, SWA-ATK 2: the range band decides which dice are legal; every event of an
    attack (its declaration, its rolls, its damage) is explained with the declaration and its
    band, the one recorded in the event."""
    declared: dict[str, str] = {}
    seen = 0
    for fact, _, ex in _explained(
        path,
        lambda f: (
            f.topic in ("armada.AttackDeclared/1", "armada.DamageTotalled/1")
            or (f.topic == "wake.DiceRolled/1" and f.payload["rule"].startswith("SWA-ATK"))
        ),
    ):
        text = "\n".join(explanation_lines(ex))
        bands = re.findall(r"at (close|medium|long) range", text)
        assert bands, f"event {fact.seq} ({fact.topic}) is explained without a range"
        if fact.topic == "armada.AttackDeclared/1":
            assert f"at {fact.payload['range']} range" in ex.text
            declared[fact.payload["attacker"]] = fact.payload["range"]
        seen += 1
    assert seen > 20 and declared


@pytest.mark.parametrize("path", _games("ships"), ids=lambda p: p.stem)
def test_ships_attacks_name_the_range_and_where_each_target_stands(path: Path) -> None:
    """ST-2.2: SHIPS measures no distance, the segment is the range ("at long range"), in the
    declaration and in each hit; ST-0/ST-GAPS: each target's box (the vanguard is always
    reached, a rearguard only by some attacks) comes from the state it is declared in."""
    attacks = hits = 0
    for fact, state, ex in _explained(
        path, lambda f: f.topic in ("ships.AttackDeclared/1", "ships.HitResolved/1")
    ):
        segment = fact.payload["segment"]
        if segment in ("long", "medium", "short"):
            assert f" at {segment} range" in ex.text, ex.text
        if fact.topic == "ships.HitResolved/1":
            hits += 1
            continue
        attacks += 1
        names = event_names(state, fact, None)  # issue 21 item 7: units by name
        assert segment in ("long", "medium", "short")
        assert len(ex.notes) == len(fact.payload["targets"])
        for target, note in zip(fact.payload["targets"], ex.notes, strict=True):
            unit = state.rules.units[target]
            assert note.startswith(f"{names.name(target)} stands in {unit.owner}'s {unit.box}")
            if unit.box == "vanguard":
                assert "(ST-0)" in note
            else:
                assert "(provisional rule ST-GAPS-REACH:" in note
    assert attacks > 10 and hits > 10


@pytest.mark.parametrize(
    "path",
    [GAMES / "ships/multi6-dropout.wake.json", GAMES / "ships/multi4-line_weapon.wake.json"],
    ids=lambda p: p.stem,
)
def test_ships_rearguard_targets_say_why_the_attack_reaches_them(path: Path) -> None:
    """ST-GAPS (provisional reach, bundled combat data): a rearguard is reached once its
    player has no vanguard ship, by missile and torpedo cards, or by guns at short range."""
    reasons = set()
    for _, _, ex in _explained(path, lambda f: f.topic == "ships.AttackDeclared/1"):
        for note in ex.notes:
            if "rearguard" in note:
                reasons.add(note.split(": ", 1)[1])
    assert any("exposed" in r for r in reasons)
    assert any("guns at short range" in r for r in reasons)


@pytest.mark.parametrize("path", _games("iron_oak"), ids=lambda p: p.stem)
def test_iron_oak_fire_declarations_name_each_fires_range(path: Path) -> None:
    """IO-6.1: the declaration names each fire's range from the state it is declared in, and
    it is the range its resolution (GunneryResolved, in the same gunnery segment) uses."""
    events = read_record_file(path).events
    words = {"point blank": "point_blank", "short": "short", "medium": "medium", "long": "long"}
    checked = 0
    for fact, state, ex in _explained(
        path, lambda f: f.topic == "iron_oak.FireDeclared/1" and bool(f.payload["fires"])
    ):
        names = event_names(state, fact, None)  # issue 21 item 7: units by name
        segment = []  # the events up to the next step: the fires' resolutions
        for later in events[fact.seq :]:
            if later.topic == "iron_oak.StepBegan/1":
                break
            segment.append(later)
        assert len(ex.notes) == len(fact.payload["fires"])
        for fire, note in zip(fact.payload["fires"], ex.notes, strict=True):
            match = re.fullmatch(
                rf"{re.escape(names.name(fire['firer']))} s{fire['section']} → "
                rf"{re.escape(names.name(fire['target']))}: "
                r"(point blank|short|medium|long) range \(IO-6\.1\)",
                note,
            )
            assert match, note
            resolved = [
                f.payload["range"]
                for f in segment
                if f.topic == "iron_oak.GunneryResolved/1"
                and (f.payload["firer"], f.payload["section"], f.payload["target"])
                == (fire["firer"], fire["section"], fire["target"])
            ]
            if resolved:  # a fire cancelled by a Misfire (IO-3.3.2 D) has no resolution
                assert resolved == [words[match.group(1)]]
                checked += 1
    assert checked > 5


def test_morze_declarations_already_print_distance_and_range() -> None:
    """PL-4a: Morze's declaration carries distance/range (centre to centre): no note needed."""
    path = GAMES / "morze/river_plate-annihilation.wake.json"
    found = list(_explained(path, lambda f: f.topic == "morze.AttackDeclared/1"))
    assert found
    for _, _, ex in found:
        assert re.search(r"\(\d+\.\d+/\d+ cm\)$", ex.text) and ex.notes == ()
