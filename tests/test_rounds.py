"""Issue 21 item 15: a per-round summary (who acted, what fired at whom, damage taken and VP
that round) in players' words, and nothing hidden named in a side's view."""

from __future__ import annotations

import re
from pathlib import Path

from domain.record import read_record_file
from viewer.rounds import round_of, round_summary
from viewer.timeline import Timeline

GAMES = Path("fixtures/games")
REPR = re.compile(r"\[\]|\{'|\['|\bNone\b|\bTrue\b|\bFalse\b|[0-9a-f]{40}")


def _timeline(ruleset: str, name: str | None = None) -> Timeline:
    paths = sorted((GAMES / ruleset).glob("*.wake.json"))
    path = next(p for p in paths if name is None or p.name.startswith(name))
    record = read_record_file(path)
    return Timeline(record.header, record.events)


def test_a_morze_round_names_who_fired_at_whom_and_the_damage() -> None:
    """PL-4: River Plate's rounds: the attacks of a round are counted per side, targets named
    by their display names, and damage taken matches the damage series over the round."""
    tl = _timeline("morze", "river_plate")
    fired = [
        s for s in range(1, tl.length + 1) if (tl.info(s) and tl.info(s).kind == "AttackResolved")
    ]
    assert fired
    summary = round_summary(tl, fired[0], None)
    turn, first, last = round_of(tl, fired[0])
    assert summary.turn == turn and first <= fired[0] <= last
    text = "\n".join(summary.lines)
    assert "attack" in text and "VP" in text and "damage" in text
    names = {s.name for s in tl.first_view.sides}
    assert all(any(line.startswith(f"{n}:") for line in summary.lines) for n in names)
    assert not REPR.search(text), text


def test_every_round_of_every_bundled_game_reads_as_words() -> None:
    for ruleset in ("morze", "iron_oak", "armada", "ships"):
        tl = _timeline(ruleset)
        for _turn, start in tl.turn_starts:
            text = "\n".join(round_summary(tl, max(start, 1), None).lines)
            assert not REPR.search(text), (ruleset, text)


def test_a_side_never_sees_a_hidden_card_named() -> None:
    """ST-1.3: face-down fleets stay unnamed in another side's round summary."""
    tl = _timeline("ships")
    sides = [s.id for s in tl.first_view.sides]
    first_round = round_summary(tl, 1, sides[0])
    umpire = round_summary(tl, 1, None)
    hidden = {
        u.name for u in tl.view_at(first_round.last).units if u.private and u.side != sides[0]
    }
    text = "\n".join(first_round.lines)
    assert hidden  # the other seats' fleets are face down in round 1
    assert not any(name in text for name in hidden if name)
    assert umpire.lines[0] == first_round.lines[0]
