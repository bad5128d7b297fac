"""Issue 13 (side and umpire views): the umpire sees sealed choices' contents where they were
sealed — Iron & Oak's order cards (IO-3.2, opened IO-3.3.1 A), Armada's command dials (SWA-R2,
opened SWA-2.1), SHIPS & TACTICS' face-down fleets (ST-1.3, opened ST-1.9) — taken from the
later reveal, matched by the digest recomputed from its content and salt, and marked as not yet
revealed at that moment. A side's view never carries it.

Checked on every bundled game with sealed choices: each reveal opens the commitment the game
state held (the one the engine verified), with the revealed content; a reveal whose content or
salt was changed (in the events, or in a forged record re-chained) opens nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from domain.engine import GameState, apply_event, new_game
from domain.events import CommandIssued, DomainEvent
from domain.record import read_record, read_record_file
from domain.reveals import (
    Opened,
    SealedCommit,
    SealedItem,
    SealedReveal,
    match_sealed,
    umpire_note,
)
from domain.ruleset import get_ruleset
from domain.sealed import seal
from tests.forge import first_event, forged
from tests.helpers import FIXTURES, RECORDS
from viewer.scrubber import build_payload
from viewer.timeline import Timeline

GAMES = FIXTURES / "games"
IRON_OAK = GAMES / "iron_oak/hampton_roads-magazine.wake.json"
ARMADA = GAMES / "armada/core_learning-score.wake.json"
SHIPS = GAMES / "ships/multi3-three_players.wake.json"
REVEALS = ("iron_oak.OrderRevealed/1", "armada.DialRevealed/1", "ships.FleetRevealed/1")
NOT_YET = "not yet revealed at this moment"
NOTE = " — umpire"  # how the umpire's note starts ("order #0 by umpire" is a plain log line)


def _sealing_games() -> list[Path]:
    return [p for p in RECORDS if p.parent.name in ("iron_oak", "armada", "ships")]


@cache
def _timeline(path: Path) -> Timeline:
    record = read_record_file(path)
    return Timeline(record.header, record.events)


def _steps(path: Path) -> Iterator[tuple[int, GameState, DomainEvent]]:
    """(seq, state before, event) for every fact of the game but the orders."""
    record = read_record_file(path)
    state = new_game(record.header)
    for fact, event in zip(record.events, _timeline(path).decoded, strict=True):
        if not isinstance(event, CommandIssued):
            yield fact.seq, state, event
        state = apply_event(state, event, fact.digest)


def _held_digest(state: GameState, event: DomainEvent) -> str | None:
    """The digest the game state held for what ``event`` reveals: the one the rules checked
    the reveal against (None for a dial an opponent set openly, which was never sealed)."""
    rules: Any = state.rules
    data = event.model_dump(mode="json")
    if event.TOPIC == "iron_oak.OrderRevealed/1":  # IO-3.3.1 A: the ship's card this turn
        return str(rules.orders[data["ship"]].digest)
    if event.TOPIC == "armada.DialRevealed/1":  # SWA-2.1: the top of the ship's stack
        top = rules.ships[data["ship"]].dials[0]
        return None if top.command is not None else str(top.digest)
    if event.TOPIC == "ships.FleetRevealed/1":  # ST-1.9: the player's face-down fleet
        return str(rules.sealed[data["player"]])
    return None


def _revealed_text(event: DomainEvent) -> list[str]:
    """What the reveal's content must read as: the order, the command, every card of the fleet."""
    data = event.model_dump(mode="json")
    if "order" in data:
        return [data["order"]]
    if "command" in data:
        return [data["command"]]
    fleet = data["fleet"]
    return [plan["card"] for plan in fleet["vanguard"] + fleet["rearguard"]]


@pytest.mark.parametrize("path", _sealing_games(), ids=lambda p: p.name)
def test_each_reveal_opens_the_commitment_the_rules_checked_io_3_2_swa_r2_st_1_3(
    path: Path,
) -> None:
    """IO-3.2 / SWA-R2 / ST-1.3: every reveal in the game is matched to exactly the commitment
    the state held for it, with the revealed content; every commitment made is listed at the
    event that made it; the ones never matched were never opened by any reveal."""
    sealed = _timeline(path).sealed
    made = {e.digest: e for entries in sealed.commits.values() for e in entries}
    reveals = 0
    opened: set[str] = set()
    for seq, state, event in _steps(path):
        if event.TOPIC not in REVEALS:
            continue
        held = _held_digest(state, event)
        if held is None:
            assert not sealed.opened_at(seq), f"event {seq} opened a dial that was never sealed"
            continue
        reveals += 1
        (entry,) = sealed.opened_at(seq)
        assert entry.digest == held and entry.revealed_at == seq
        assert entry.seq < seq and made[held] == entry
        assert entry.text is not None
        assert all(word in entry.text for word in _revealed_text(event)), (seq, entry.text)
        opened.add(held)
    assert reveals > 0
    never = {d for d, e in made.items() if e.revealed_at is None}
    assert never == set(made) - opened
    for entry in made.values():  # the label names the ship or player sealed for
        assert entry.label.split()[0] in json.dumps(_timeline(path).facts[entry.seq - 1].payload)


def _tampered_index(path: Path, seq: int, tampered: DomainEvent) -> dict[int, tuple[Opened, ...]]:
    """The commitments of the game with event ``seq`` replaced by ``tampered``."""
    items: list[tuple[int, list[SealedItem]]] = []
    for at, state, event in _steps(path):
        found = state.ruleset.sealed_items(state.rules, tampered if at == seq else event)
        items.append((at, found))
    return dict(match_sealed(items).commits)


OTHER_CONTENT = {
    IRON_OAK: {"order": "maneuver_2"},
    ARMADA: {"command": "repair"},
    SHIPS: {"fleet": {"vanguard": [{"card": "andromeda"}], "rearguard": []}},
}


@pytest.mark.parametrize(
    ("path", "change"),
    [*((p, c) for p, c in OTHER_CONTENT.items()), *((p, "salt") for p in OTHER_CONTENT)],
    ids=lambda v: v.name if isinstance(v, Path) else ("salt" if v == "salt" else "content"),
)
def test_a_tampered_reveal_opens_nothing_io_3_2_swa_r2_st_1_9(
    path: Path, change: dict[str, Any] | str
) -> None:
    """IO-3.2 / SWA-R2 / ST-1.9: a reveal whose content or salt differs from what was sealed
    is not matched: the commitment reads as never revealed, and the false content is nowhere;
    every other commitment keeps its reveal."""
    tl = _timeline(path)
    seq, event = next(
        (s, e) for s, _, e in _steps(path) if e.TOPIC in REVEALS and tl.sealed.opened_at(s)
    )
    (victim,) = tl.sealed.opened_at(seq)
    update = {"salt": "0" * 64} if change == "salt" else change
    assert isinstance(update, dict)
    tampered = type(event).model_validate({**event.model_dump(mode="json"), **update})
    assert tampered != event
    commits = _tampered_index(path, seq, tampered)
    after = {(e.seq, e.digest): e for entries in commits.values() for e in entries}
    before = {(e.seq, e.digest): e for entries in tl.sealed.commits.values() for e in entries}
    assert after.keys() == before.keys()
    lost = after[(victim.seq, victim.digest)]
    assert lost.text is None and lost.revealed_at is None
    assert "never revealed" in lost.line()
    assert {k: v for k, v in after.items() if v != before[k]} == {(victim.seq, victim.digest): lost}


def test_a_forged_record_shows_no_forged_content_to_the_umpire_io_3_2() -> None:
    """IO-3.2: a record edited so that a card is revealed as another order (and re-chained, so
    it passes the chain check) does not put that order into the umpire's line at the seal."""
    body = json.loads(IRON_OAK.read_text("utf-8"))
    reveal = first_event(body, "iron_oak.OrderRevealed/1")
    real = reveal["payload"]["order"]

    def edit(b: dict[str, Any]) -> None:
        first_event(b, "iron_oak.OrderRevealed/1")["payload"]["order"] = "maneuver_2"

    assert real != "maneuver_2"
    record = read_record(forged(edit, IRON_OAK))
    tl = Timeline(record.header, record.events)
    ship = reveal["payload"]["ship"]
    commit = max(s for s in tl.sealed.commits if s < reveal["seq"])
    line = tl.text(commit, None)
    say = tl.names_at(commit, None).text  # issue 21 item 7: ships and orders by name
    assert say(f"{ship} order card (turn 1): never revealed") in line
    assert "maneuver_2" not in line and "maneuver 2" not in line
    assert not tl.sealed.opened_at(reveal["seq"])


@pytest.mark.parametrize("path", _sealing_games(), ids=lambda p: p.name)
def test_the_umpire_reads_the_content_at_the_seal_not_yet_revealed(path: Path) -> None:
    """IO-3.2 / SWA-R2 / ST-1.3, the umpire's view: the log line of the event that sealed a
    choice names it, gives the content of its later reveal and that event, and says it is not
    yet revealed at this moment; the explain panel's lines say the same for every event of the
    order that sealed it, and at the reveal name the seal it opens."""
    tl = _timeline(path)
    assert tl.sealed.commits
    for seq, entries in tl.sealed.commits.items():
        line = tl.text(seq, None)
        say = tl.names_at(seq, None).text  # issue 21 item 7: units and orders by name
        assert line.startswith(f"{tl.events[seq - 1].text}{say(NOTE)}, {NOT_YET}: ")
        for entry in entries:
            assert say(entry.line()) in line
            explained = tl.sealed_lines(seq, None)
            assert say(f"sealed at event {seq}: {entry.line(seq)}") in explained
            if entry.revealed_at is not None:
                assert say(
                    f"{entry.label} = {entry.text} (revealed at event {entry.revealed_at})"
                ) in (line)
                assert f"revealed at event {entry.revealed_at}; {NOT_YET}" in entry.line(seq)
                opened = tl.names_at(entry.revealed_at, None).text(
                    f"opens the seal of event {seq}: {entry.label} = "
                )
                assert any(x.startswith(opened) for x in tl.sealed_lines(entry.revealed_at, None))
    order = tl.events[next(iter(tl.sealed.commits)) - 1].command
    in_order = [e.seq for e in tl.events if e.command == order]
    assert all(tl.sealed_lines(s, None) for s in in_order)  # the order and what it caused


@pytest.mark.parametrize("path", _sealing_games(), ids=lambda p: p.name)
def test_a_side_never_reads_the_umpires_note(path: Path) -> None:
    """Issue 13: a side's log line of a sealing event is exactly its redacted line, and the
    explain panel gives a side no sealed lines, before or after the reveal."""
    tl = _timeline(path)
    for side in tl.side_names:
        for seq in range(1, tl.length + 1):
            text = tl.text(seq, side)
            assert NOTE not in text and NOT_YET not in text, (side, seq)
            # issue 21 item 3: only its own sealed choices, never the umpire's lines
            assert all(x.startswith("your sealed choice") for x in tl.sealed_lines(seq, side))
        for seq in tl.sealed.commits:
            redacted = tl.ruleset.redact(tl.decoded[seq - 1], side)
            shown = tl.names_at(seq, side).text(tl.ruleset.describe(redacted))
            assert tl.text(seq, side).startswith(shown)


@pytest.mark.parametrize("path", [IRON_OAK, ARMADA, SHIPS], ids=lambda p: p.parent.name)
def test_a_sides_scrubber_payload_holds_no_sealed_content(path: Path) -> None:
    """IO-3.2 / SWA-R2 / ST-1.3 in the browser: the umpire's move list carries the note at
    each seal; no side's payload (as sent: the JSON) holds the umpire's note, a "not yet
    revealed", or the label of a choice another side sealed (its own it may read: issue 21
    item 3)."""
    tl = _timeline(path)
    umpire = build_payload(tl, None)
    for seq in tl.sealed.commits:
        assert NOT_YET in umpire["events"][seq - 1][3]
    for side in tl.side_names:
        others = {
            e.label
            for seq, entries in tl.sealed.commits.items()
            if tl.moves.sealed_by(seq) != side
            for e in entries
        }
        text = json.dumps(build_payload(tl, side), ensure_ascii=False)
        assert NOT_YET not in text and NOTE not in text
        leaked = sorted(label for label in others if label in text)
        assert not leaked, f"{path.name} as {side}: {leaked[:3]}"


def test_match_sealed_pairs_by_recomputed_digest() -> None:
    """The matching alone: a reveal opens earlier commitments whose digest its content and
    salt seal to, once; a reveal naming the right digest in its text but other content does
    not; a commitment with no reveal reads as never revealed."""
    content = {"ship": "u3", "turn": 1, "order": "maneuver_1"}
    digest = seal(content, "s1").digest
    other = seal({**content, "ship": "u4"}, "s2").digest
    index = match_sealed(
        [
            (3, [SealedCommit(digest, "u3 order card"), SealedCommit(other, "u4 order card")]),
            (5, [SealedReveal({**content, "order": "maneuver_2"}, "s1", digest)]),
            (7, [SealedReveal(content, "s1", "maneuver_1")]),
            (9, [SealedReveal(content, "s1", "maneuver_1")]),  # already open: nothing more
        ]
    )
    u3, u4 = index.committed_at(3)
    assert (u3.text, u3.revealed_at) == ("maneuver_1", 7)
    assert (u4.text, u4.revealed_at) == (None, None)
    assert index.opened_at(7) == (u3,) and not index.opened_at(5) and not index.opened_at(9)
    assert u3.line(3) == f"u3 order card = maneuver_1 (revealed at event 7; {NOT_YET})"
    assert u3.line(8) == "u3 order card = maneuver_1 (revealed at event 7)"
    assert umpire_note(index.committed_at(3), 3) == (
        f" — umpire, {NOT_YET}: u3 order card = maneuver_1 (revealed at event 7); "
        "u4 order card: never revealed (its content is not in the record)"
    )
    assert umpire_note((), 3) == ""


def test_a_ruleset_without_seals_adds_nothing() -> None:
    """Morze has no hidden information: the default ``sealed_items`` is empty, and the
    umpire's lines are the log lines."""
    tl = _timeline(GAMES / "morze/river_plate-annihilation.wake.json")
    assert not tl.sealed.commits and not tl.sealed.reveals
    assert all(tl.text(e.seq, None) == e.text for e in tl.events)
    assert get_ruleset("morze").sealed_items(tl.final.rules, tl.decoded[-1]) == []
