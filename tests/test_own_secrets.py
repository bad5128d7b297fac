"""Issue 21 item 3: a side sees its own secrets. In a side's view, the log line and the
explanation of an order that sealed that side's choices (SWA-R2 command dials, IO-3.2 order
cards) show what it sealed; another side's sealed choices stay sealed."""

from __future__ import annotations

from pathlib import Path

from domain.record import read_record_file
from viewer.timeline import Timeline

GAME = Path("fixtures/games/armada/core_learning-score.wake.json")


def test_a_side_reads_its_own_dials_and_not_the_others() -> None:
    record = read_record_file(GAME)
    tl = Timeline(record.header, record.events)
    own = {"empire": 0, "rebels": 0}
    for seq in tl.sealed.commits:
        by = tl.moves.sealed_by(seq)
        assert by in own
        other = next(s for s in own if s != by)
        mine = tl.text(seq, by)
        revealed = [e.text for e in tl.sealed.committed_at(seq) if e.text is not None]
        if not revealed:  # never opened (the game ended first): its content is not in the record
            continue
        say = tl.names_at(seq, by).text  # issue 21 item 7: "concentrate fire", not an id
        assert "your sealed choice" in mine, mine
        assert all(say(text) in mine for text in revealed)
        assert "your sealed choice" not in tl.text(seq, other)
        theirs = tl.text(seq, other).split("[SWA-R2]")[-1]
        assert not any(text in theirs or say(text) in theirs for text in revealed)
        own[by] += 1
    assert own["empire"] and own["rebels"]


def test_the_explanation_lists_a_sides_own_seals_only() -> None:
    record = read_record_file(GAME)
    tl = Timeline(record.header, record.events)
    seq = min(s for s in tl.sealed.commits if any(e.text for e in tl.sealed.committed_at(s)))
    by = tl.moves.sealed_by(seq)
    other = "rebels" if by == "empire" else "empire"
    assert tl.sealed_lines(seq, by) and all(
        "your sealed choice" in x for x in tl.sealed_lines(seq, by)
    )
    assert tl.sealed_lines(seq, other) == []
