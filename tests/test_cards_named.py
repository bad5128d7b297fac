"""Cards drawn by name through the game's chance source (issue 20, item 2): the CardRequest a
source is asked, the seeded and scripted answers, the exact odds recorded, the entered cards in
the order's record, and what old records keep (no header field, no payload key)."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from domain.cards import card_request, draw_card_event, draw_named, redact_draw
from domain.dice import (
    CardNameError,
    CardRequest,
    CardsExhausted,
    DiceError,
    Die,
    ScriptedDice,
    SeededDice,
)
from domain.engine import CommandEnvelope, Session, header_for
from domain.errors import DiceMismatch
from domain.events import CardDrawn, CommandIssued
from domain.header import DiceSpec
from domain.record import build_record, read_record_file, verify_record
from domain.rerun import rerun
from tests.card_probe import Probe
from tests.helpers import FIXTURES, RECORDS

NAMES = {"a": "Ace", "b": "Bishop", "c": "Castle"}
IO_SCENARIO = json.loads((FIXTURES / "scenarios/iron_oak/hampton_roads.json").read_text())


def request(**left: int) -> CardRequest:
    return card_request(
        "test deck", left, NAMES, purpose="a test draw", rule="X-1", side="p1", face_down=True
    )


def io_game(*, seed: int | None = None, cards: str | None = "named") -> Session:
    return Session(
        header_for(
            "iron_oak",
            IO_SCENARIO,
            game_id="00000000-0000-4000-8000-0000000c0001",
            seed=seed,
            cards=cards,  # type: ignore[arg-type]
        )
    )


DEAL = {"type": "deal"}
TEN = [  # USA's hand (the first player), then CSA's
    *("misfire", "strike", "misfire", "well_aimed", "full_steam"),
    *("hard_over", "hard_over", "damage_control", "rapid_fire", "rapid_fire"),
]


# --- the request and the sources ----------------------------------------------------------------


def test_a_request_lists_the_cards_left_sorted_by_id_with_their_copies() -> None:
    req = request(c=1, a=3, b=0)
    assert req.choices == (("a", 3), ("c", 1))  # no card without a copy left
    assert req.total == 4 and req.count("a") == 3 and req.count("b") == 0
    assert req.name("c") == "Castle"
    assert (req.deck, req.purpose, req.rule, req.side, req.face_down) == (
        "test deck",
        "a test draw",
        "X-1",
        "p1",
        True,
    )
    with pytest.raises(DiceError):
        CardRequest("d", (("b", 1), ("a", 1)), (("a", "A"), ("b", "B")), "p", "r", None)
    with pytest.raises(DiceError):
        CardRequest("d", (), (), "p", "r", None)


def test_a_seeded_draw_is_one_die_over_the_cards_so_each_comes_with_its_exact_share() -> None:
    req = request(a=3, b=2, c=1)
    # face f of the d6 stands for the f-th card laid out in id order: a a a b b c
    assert [req.pick(f) for f in range(1, 7)] == ["a", "a", "a", "b", "b", "c"]
    dice = SeededDice(11)
    drawn = Counter(dice.draw_card(req) for _ in range(600))
    assert dice.position == 600  # one die per card
    assert set(drawn) == {"a", "b", "c"}
    again = SeededDice(11)
    assert [again.draw_card(req) for _ in range(5)] == [
        req.pick(SeededDice(11, start=n).draw(Die(6))) for n in range(5)
    ]


def test_a_scribe_card_is_checked_against_what_the_deck_can_give() -> None:
    req = request(a=1, c=2)
    source = ScriptedDice([], cards=["b", "zebra", "c"])
    with pytest.raises(CardNameError, match=r"no Bishop \(b\) is left to draw from the test deck"):
        source.draw_card(req)
    assert source.drawn == () and source.position == 0  # a refused card is not consumed
    source = ScriptedDice([], cards=["zebra"])
    with pytest.raises(CardNameError, match="'zebra' is not a card of the test deck"):
        source.draw_card(req)
    source = ScriptedDice([], cards=["c"])
    assert source.draw_card(req) == "c" and source.drawn == ("c",) and source.position == 1
    with pytest.raises(CardsExhausted, match=r"test deck \(a test draw\), but only 1 were"):
        source.draw_card(req)


def test_draw_named_gives_the_exact_odds_and_does_not_ask_for_a_certain_card() -> None:
    card, p, odds = draw_named(ScriptedDice([], cards=["a"]), request(a=3, b=1))
    assert (card, p, odds) == ("a", Fraction(3, 4), "3 of 4 cards left in the test deck")
    asked = ScriptedDice([], cards=[])  # nothing entered: a certain draw asks nothing
    card, p, odds = draw_named(asked, request(b=2))
    assert (card, p) == ("b", 1) and odds.startswith("certain") and asked.position == 0


def test_the_card_drawn_event_carries_the_odds_and_hides_a_hand_from_other_sides() -> None:
    card, event = draw_card_event(ScriptedDice([], cards=["b"]), request(a=2, b=1))
    assert card == "b"
    assert (event.card, event.name, event.p_outcome, event.side, event.hidden) == (
        "b",
        "Bishop",
        "1/3",
        "p1",
        True,
    )
    assert event.next_die == 1 and event.odds == "1 of 3 cards left in the test deck"
    assert redact_draw(event, None) == event and redact_draw(event, "p1") == event
    other = redact_draw(event, "p2")
    assert (other.card, other.name, other.p_outcome, other.odds) == (None, None, None, "")
    shared = redact_draw(event, "p1", shared_deck=True)  # the odds would tell the other hand
    assert shared.card == "b" and shared.p_outcome is None


# --- the header, the order's record, old records ------------------------------------------------


def test_the_header_says_named_draws_and_leaves_the_field_out_otherwise() -> None:
    assert "cards" not in DiceSpec(mode="physical").model_dump(mode="json")
    assert DiceSpec(mode="physical", cards="named").model_dump(mode="json")["cards"] == "named"
    for path in RECORDS:  # every header written before the field keeps its form and digest
        record = json.loads(path.read_text())
        dice = record["header"]["dice"]
        assert dice.get("cards") in (None, "named")
        if "cards" not in dice:
            assert not any(c.get("cards") for c in record["commands"])


def test_a_physical_game_records_the_cards_entered_with_the_order_io_3_4() -> None:
    game = io_game()
    facts = game.submit(CommandEnvelope(command=DEAL, cards=TEN))
    issued = CommandIssued.model_validate(facts[0].payload)
    assert issued.cards == TEN and "cards" in facts[0].payload
    draws = [f for f in facts if f.topic == CardDrawn.TOPIC]
    assert [d.payload["card"] for d in draws] == TEN
    assert draws[0].payload["p_outcome"] == "1/7"  # 3 misfires among 21 cards
    record = build_record(game.header, game.facts)
    assert record.commands[0].cards == TEN
    verify_record(record)  # the recorded cards are fed back
    assert rerun(game.header, game.facts).divergence is None


def test_orders_without_cards_keep_their_payload_without_the_key() -> None:
    game = io_game(seed=4, cards=None)
    facts = game.submit(CommandEnvelope(command=DEAL))
    assert "cards" not in facts[0].payload
    for path in RECORDS:
        record = read_record_file(path)
        first = record.events[0]
        assert "cards" not in first.payload or record.header.dice.named_cards


def test_entered_cards_are_checked_refused_when_unused_and_nothing_is_appended() -> None:
    game = io_game()
    cases = [
        (TEN[:3], "not enough cards entered for this order: a card is drawn from the action deck"),
        ([*TEN, "misfire"], r"1 card\(s\) entered but not drawn by this order"),
        (["strike", "strike"], r"no Strike! \(strike\) is left to draw from the action deck"),
        (["queen"], "'queen' is not a card of the action deck"),
    ]
    for cards, message in cases:
        with pytest.raises(DiceMismatch, match=message) as caught:
            game.submit(CommandEnvelope(command=DEAL, cards=cards))
        assert "\n" not in str(caught.value)
        assert game.facts == []


def test_cards_are_refused_in_seeded_games_and_in_games_that_name_them_in_orders() -> None:
    with pytest.raises(DiceMismatch, match="seeded dice; do not enter the cards drawn"):
        io_game(seed=1).submit(CommandEnvelope(command=DEAL, cards=["misfire"]))
    legacy = io_game(cards=None)  # a physical game made before named draws
    with pytest.raises(DiceMismatch, match="name the cards drawn in the order's own fields"):
        legacy.submit(CommandEnvelope(command=DEAL, cards=["misfire"]))


def test_a_decide_stopped_inside_draw_card_changes_nothing() -> None:
    """Issue 20: the scribe probes an order with its own source and stops at the first card."""
    game = io_game()
    before = game.state

    class Stop(Exception):
        pass

    def stop(req: CardRequest) -> str:
        raise Stop(req.purpose)

    with pytest.raises(Stop, match="initial hand, card 1 of 5"):
        game.submit(CommandEnvelope(command=DEAL), Probe(pick=stop))
    assert game.state is before and game.facts == []


def test_the_physical_fixtures_with_named_draws_verify_and_cover_each_ruleset() -> None:
    named = [read_record_file(p, strict=True) for p in RECORDS]
    named = [r for r in named if r.header.dice.named_cards]
    assert {r.header.ruleset.id for r in named} >= {"armada", "iron_oak", "ships"}
    for record in named:
        assert record.header.dice.mode == "physical"
        drawn = [e for e in record.events if e.topic == CardDrawn.TOPIC]
        assert drawn and all(e.payload["p_outcome"] for e in drawn)
        entered = [c for cmd in record.commands for c in cmd.cards or []]
        assert entered == [e.payload["card"] for e in drawn if e.payload["next_die"] is not None]
        assert not any(
            e.topic.endswith("DeckShuffled/1") and e.payload.get("faces") for e in record.events
        )


def test_cli_submit_play_and_record_take_cards(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from domain.cli.app import app

    runner = CliRunner()
    store = str(tmp_path / "s.sqlite3")
    scenario = str(FIXTURES / "scenarios/iron_oak/hampton_roads.json")
    started = runner.invoke(app, ["start", "iron_oak", scenario, "--physical", "--store", store])
    game = started.stdout.strip()
    bad = runner.invoke(
        app, ["submit", game, json.dumps(DEAL), "--cards", "a b!", "--store", store]
    )
    assert bad.exit_code == 2 and "--cards takes the ids" in bad.stderr
    short = runner.invoke(
        app, ["submit", game, json.dumps(DEAL), "--cards", "misfire", "--store", store]
    )
    assert short.exit_code == 2 and "not enough cards entered" in short.stderr
    ok = runner.invoke(
        app, ["submit", game, json.dumps(DEAL), "--cards", ",".join(TEN), "--store", store]
    )
    assert ok.exit_code == 0, ok.stderr
    assert "Strike! from the action deck (1 of 20 cards left" in ok.stdout
    # wake play --commands: a JSON line with a "cards" key
    lines = tmp_path / "orders.jsonl"
    lines.write_text(json.dumps({"side": None, "command": DEAL, "cards": TEN}) + "\n")
    other = runner.invoke(app, ["start", "iron_oak", scenario, "--physical", "--store", store])
    played = runner.invoke(
        app, ["play", other.stdout.strip(), "--commands", str(lines), "--no-bots", "--store", store]
    )
    assert played.exit_code == 0, played.stderr
    assert "13 new events" in played.stdout
    # wake record: a card sheet is for a physical game with named draws, of card ids
    sheet = tmp_path / "cards.txt"
    sheet.write_text("# drawn\nmisfire, strike\n")
    out = str(tmp_path / "g.wake.json")
    seeded = runner.invoke(
        app, ["record", "iron_oak", scenario, "--seed", "1", "--card-sheet", str(sheet), "-o", out]
    )
    assert seeded.exit_code == 2 and "a card sheet needs a physical game" in seeded.stderr
    sheet.write_text("misfire <b>\n")
    bad_sheet = runner.invoke(
        app, ["record", "iron_oak", scenario, "--physical", "--card-sheet", str(sheet), "-o", out]
    )
    assert bad_sheet.exit_code == 2 and "not a list of card ids" in bad_sheet.stderr
