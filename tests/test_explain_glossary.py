"""Issue 13, the explain panel: what the dice notation, floors, target numbers, re-rolls and each
ruleset's terms mean (domain.glossary, Ruleset.glossary), found in real explanations of the
bundled games."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from domain.engine import Fact, apply_fact, new_game, replay
from domain.explain import explain_event, explanation_lines
from domain.glossary import GENERIC_KINDS, Term, find_terms, literal_pattern
from domain.record import read_record_file
from domain.ruleset import get_ruleset
from tests.helpers import FIXTURES

GAMES = FIXTURES / "games"
RULESETS = ("morze", "iron_oak", "armada", "ships")
CORPUS = {
    "morze": ["morze/river_plate-annihilation"],
    "iron_oak": ["iron_oak/hampton_roads-alternating"],
    "armada": ["armada/core_deployment-last-ship"],
    "ships": ["ships/multi2-duel"],
}
ABSENT = {"armada": {"contain", "scatter"}}
"""Glossary terms no bundled game can show: the core set's ships and squadrons carry only Brace,
Redirect and Evade tokens (SWA-DATA)."""
NEVER_WRITTEN = {"rounding up", "rounding down"}
"""Generic notation none of Wake's rulesets writes in an explanation today (Armada's Brace is
"braced", explained by its own term)."""


def _all_explanations(name: str) -> list[str]:
    record = read_record_file(GAMES / f"{name}.wake.json")
    state = new_game(record.header)
    texts = []
    for index, fact in enumerate(record.events):
        texts.append("\n".join(explanation_lines(explain_event(state, record.events, index))))
        state = apply_fact(state, fact, check=False)
    return texts


def _explained(name: str, wanted: Callable[[Fact], bool]) -> str:
    """The explanation (CLI text) of the first event of a bundled game that ``wanted`` picks."""
    record = read_record_file(GAMES / f"{name}.wake.json")
    index = next(i for i, f in enumerate(record.events) if wanted(f))
    before = replay(record.header, record.events[:index])
    return "\n".join(explanation_lines(explain_event(before, record.events, index)))


@pytest.fixture(scope="module")
def corpus() -> dict[str, list[str]]:
    """Every explanation of one bundled game per ruleset, and for Iron & Oak's dX+dY (fire
    hits, IO-6.3.9) the rolls of another game that throws them."""
    texts = {
        rs: [t for name in names for t in _all_explanations(name)] for rs, names in CORPUS.items()
    }
    texts["iron_oak"].append(
        _explained(
            "iron_oak/mobile_bay-fire5",
            lambda f: f.topic == "wake.DiceRolled/1" and "+" in f.payload["roll"]["expression"],
        )
    )
    return texts


def _terms(text: str, ruleset: str) -> dict[str, Term]:
    return {t.text: t for t in find_terms(text, get_ruleset(ruleset).glossary())}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_glossary_entry_is_found_in_the_bundled_games(
    corpus: dict[str, list[str]], ruleset: str
) -> None:
    """No dead entry (a misspelt term, a kind that is not a generic kind): each of a ruleset's
    terms is found in the explanations of its bundled games, save the ones those games cannot
    show (ABSENT), which are found in a text that has them."""
    glossary = get_ruleset(ruleset).glossary()
    found = {t.kind for text in corpus[ruleset] for t in find_terms(text, glossary)}
    absent = ABSENT.get(ruleset, set())
    assert {k for k in glossary if k not in found} == absent
    for term in absent:
        assert [t.kind for t in find_terms(f"spends {term} #0", glossary)] == [term]


def test_every_term_found_has_a_meaning(corpus: dict[str, list[str]]) -> None:
    """Every term the detection can emit on the bundled games' explanations has a meaning, and
    every kind of Wake's notation is met there (but the rounding words no ruleset writes)."""
    kinds = set()
    for ruleset, texts in corpus.items():
        glossary = get_ruleset(ruleset).glossary()
        for text in texts:
            for term in find_terms(text, glossary):
                assert term.text and term.meaning.strip(), term
                assert term.kind in GENERIC_KINDS or glossary.get(term.kind) == term.meaning
                kinds.add(term.kind)
    assert GENERIC_KINDS - kinds == NEVER_WRITTEN
    rounded = find_terms("halved, rounding up; capped at half, rounded down")
    assert [t.kind for t in rounded] == ["rounding up", "rounding down"]
    assert "half of 5 is 3" in rounded[0].meaning and "half of 5 is 2" in rounded[1].meaning


@pytest.mark.parametrize("ruleset", RULESETS)
def test_glossaries_cite_rules_that_exist(ruleset: str) -> None:
    """A rule-specific meaning names its rule, and the rule is one the ruleset summarises."""
    rules = get_ruleset(ruleset)
    prefix = rules.meta.rule_prefix
    cited = set()
    for meaning in rules.glossary().values():
        for rule in re.findall(rf"\b{prefix}-[A-Za-z0-9.]+(?: \d+)?", meaning):
            cited.add(rule.rstrip("."))
    assert cited
    assert {rule for rule in cited if not rules.rule_summary(rule)} == set()


def test_morze_target_numbers_and_dice() -> None:
    """PL-4b: "needs at least 4 (4+)" is a target number on one d10; PL-4d a 10 is critical."""
    text = _explained(
        "morze/river_plate-annihilation",
        lambda f: f.topic == "wake.DiceRolled/1" and f.payload["purpose"] == "to hit",
    )
    terms = _terms(text, "morze")
    target = next(t for t in terms.values() if t.kind == "N+")
    assert re.fullmatch(r"\d+\+", target.text) and f"{target.text[:-1]} or more" in target.meaning
    assert "PL-4b" in target.meaning and "PL-4c" in target.meaning
    assert "faces 1–10" in terms["d10"].meaning and "0 reads as 10" in terms["d10"].meaning
    damage = _explained(
        "morze/river_plate-annihilation",
        lambda f: f.topic == "wake.DiceRolled/1" and f.payload["purpose"] == "damage",
    )
    assert "PL-4d" in _terms(damage, "morze")["critical"].meaning


def test_morze_tied_initiative() -> None:
    """PL-1 [GAP]: a tie is re-rolled by default (option initiative_tie)."""
    text = _explained(
        "morze/river_plate-annihilation",
        lambda f: f.topic == "wake.DiceRolled/1" and f.payload["outcome"] == "tie",
    )
    terms = _terms(text, "morze")
    assert "PL-1" in terms["tie"].meaning and "initiative_tie" in terms["tie"].meaning
    opposed = next(t for t in terms.values() if t.kind == "strictly greater")
    assert "equal totals fail" in opposed.meaning and "PL-1" in opposed.meaning


def test_iron_oak_pools_floors_and_the_damage_chart() -> None:
    """IO-1.6.1: a pool keeps its highest die; IO-6.2.1: CR and DR at least 1 — a floor is a
    minimum, not rounding; IO-1.6.1.A/B: ties fail; IO-6.2: CR, DR and the chart's bands."""
    text = _explained(
        "iron_oak/hampton_roads-alternating",
        lambda f: f.topic == "iron_oak.GunneryResolved/1" and f.command is not None,
    )
    terms = _terms(text, "iron_oak")
    pool = next(t for t in terms.values() if t.kind == "keep-highest")
    assert re.fullmatch(r"(d\d+){2,}", pool.text)
    assert "keep only the highest" in pool.meaning and "IO-1.6.1" in pool.meaning
    assert "a minimum, not rounding" in terms["floor 1"].meaning
    assert "IO-6.2.1" in terms["floor 1"].meaning
    opposed = next(t for t in terms.values() if t.kind == "strictly greater")
    assert "equal totals fail" in opposed.meaning and "IO-1.6.1.A/B" in opposed.meaning
    assert "IO-6.2" in terms["CR"].meaning and "IO-6.2" in terms["DR"].meaning
    assert "Standard Damage Chart" in terms["odds:"].meaning
    assert "B bow" in terms["hit location"].meaning


def test_iron_oak_ram_tie_rounds_down() -> None:
    """IO-5.6.3: a ram's tie gives both ships ⌊attack / 2⌋ hits, at least 1."""
    text = _explained(
        "iron_oak/hampton_roads-alternating", lambda f: f.topic.endswith("RamResolved/1")
    )
    meaning = _terms(text, "iron_oak")["diff"].meaning
    assert "⌊attack / 2⌋" in meaning and "rounded down" in meaning and "IO-5.6.3" in meaning


def test_iron_oak_critical_table_roll_is_two_dice_added() -> None:
    """IO-6.3: 2d6 on the Critical Hit Table: two dice added, 2–12."""
    text = _explained(
        "iron_oak/hampton_roads-alternating",
        lambda f: f.topic == "wake.DiceRolled/1" and f.payload["purpose"] == "critical",
    )
    assert "added together: 2–12" in _terms(text, "iron_oak")["2d6"].meaning


def test_armada_dice_faces_and_brace() -> None:
    """SWA-DICE: the three dice's faces (red 2 blank, 2 hit, 2 crit, 1 accuracy, 1 hit+hit;
    blue 4 hit, 2 crit, 2 accuracy; black 2 blank, 4 hit, 2 hit+crit), numbered as a physical
    game enters them; SWA-DEF: Brace rounds up."""
    text = _explained(
        "armada/core_deployment-last-ship",
        lambda f: (
            f.topic == "wake.DiceRolled/1" and "armada-black" in f.payload["roll"]["expression"]
        ),
    )
    terms = _terms(text, "armada")
    # Issue 21 item 8: the dice are shown by colour and icons, each colour explained
    assert "1–2 blank, 3–4 hit, 5–6 crit, 7 accuracy, 8 hit+hit" in terms["red dice"].meaning
    blue = get_ruleset("armada").glossary()["blue dice"]
    assert "1–4 hit, 5–6 crit, 7–8 accuracy" in blue
    black = terms["black dice"].meaning
    assert "1–2 blank, 3–6 hit, 7–8 hit+crit" in black and "SWA-DICE" in black
    assert "close range only" in black
    assert "needs 0+" not in text and "faces [" not in text
    assert "CR" not in terms  # "cr90" is a ship, not a combat result
    braced = _explained(
        "armada/core_deployment-last-ship",
        lambda f: f.topic == "armada.DamageTotalled/1" and f.payload["braced"],
    )
    meaning = _terms(braced, "armada")["braced"].meaning
    assert "rounding up" in meaning and "SWA-DEF" in meaning and "5 → 3" in meaning


def test_ships_ranges_are_segments() -> None:
    """ST-2.2: the range is the segment; ST-1.3, ST-GAPS: vanguard and rearguard."""
    text = _explained("ships/multi2-duel", lambda f: f.topic == "ships.AttackDeclared/1")
    terms = _terms(text, "ships")
    assert "ST-2.2" in terms["long range"].meaning and "ST-0" in terms["vanguard"].meaning


def test_generic_notation_and_word_boundaries() -> None:
    """Pools are not read as their first die, sums and counts are told apart, target numbers
    are not modifiers, and a literal term is a whole word."""
    text = "d10d8 [3, 6]; 2d6; d10+d6; d8; needs 4+ at +1; 2armada-red; cr90; hits; longer"
    found = {(t.kind, t.text) for t in find_terms(text, {"CR": "x", "hit": "y", "long": "z"})}
    assert found == {
        ("keep-highest", "d10d8"),
        ("NdM", "2d6"),
        ("dX+dY", "d10+d6"),
        ("dN", "d8"),
        ("N+", "4+"),
    }
    assert [t.text for t in find_terms("2armada-red+armada-blue", {"armada-red": "r"})] == [
        "armada-red"
    ]
    assert re.search(literal_pattern("2·DR"), "DR < CR < 2·DR")
    assert not re.search(literal_pattern("DR"), "2DR_x")


def test_a_term_is_listed_once_with_the_rulesets_reading() -> None:
    """ "ties fail" and "strictly greater" are one entry; a ruleset's reading of a kind follows
    the generic meaning."""
    terms = find_terms(
        "8 must be strictly greater than 6 (ties fail)", {"strictly greater": "IO-1.6.1.A/B"}
    )
    assert len(terms) == 1 and terms[0].meaning.endswith(" IO-1.6.1.A/B")


def test_fixtures_exist() -> None:
    for names in CORPUS.values():
        for name in names:
            assert Path(GAMES / f"{name}.wake.json").is_file()
