"""SHIPS & TACTICS draws with named draws (ST-1.1, ST-1.2, ST-1.7, ST-4.3; issue 20, item 2):
the decks are shuffled at the table (no order recorded), each card a player draws is asked of
the chance source for that player only, with the chance of drawing it from what is left of its
own deck, and the order cards are drawn one after another from the players not yet drawn
(1/k each; the last is certain and not asked)."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction

import pytest

from domain.engine import CommandEnvelope, Session, decode, header_for
from domain.errors import InvalidCommand
from domain.events import CardDrawn, CommandIssued
from domain.record import build_record, verify_record
from domain.rulesets.ships import events as ev
from tests.card_probe import Probe
from tests.helpers import FIXTURES


def game(name: str = "multi4", seed: int | None = None) -> Session:
    scenario = json.loads((FIXTURES / f"scenarios/ships/{name}.json").read_text())
    header = header_for(
        "ships",
        scenario,
        game_id="00000000-0000-4000-8000-0000000c0307",
        seed=seed,
        cards="named",
    )
    return Session(header)


def test_each_player_draws_its_hand_by_name_from_its_own_deck_st_1_1_st_1_2() -> None:
    """ST-1.1: the decks are shuffled at the table (order not recorded); ST-1.2: everyone draws
    8, each card asked for its player with (copies left) / (cards left) of that player's deck."""
    session = game()
    probe = Probe(seed=7)
    facts = session.submit(CommandEnvelope(command={"type": "start_battle"}), probe)
    events = [decode(session.state, f) for f in facts]
    shuffled = [e for e in events if isinstance(e, ev.DeckShuffled)]
    assert len(shuffled) == 4 and all(not e.known and e.faces == [] for e in shuffled)
    hands = [r for r in probe.requests if r.side is not None]
    players = list(session.header.sides)
    assert [r.side for r in hands] == [p.id for p in players for _ in range(8)]
    first = hands[0]
    assert first.face_down and first.rule == "ST-1.2"
    assert first.deck == f"{players[0].name}'s deck"
    assert first.purpose == f"{players[0].name}'s draw, card 1 of 8"
    deck = Counter(shuffled[0].deck)
    assert dict(first.choices) == deck
    draws = [e for e in events if isinstance(e, CardDrawn) and e.side == players[0].id]
    left = Counter(deck)
    for drawn in draws:
        assert drawn.p_outcome == str(Fraction(left[drawn.card or ""], sum(left.values())))
        left[drawn.card or ""] -= 1
    hand = next(e for e in events if isinstance(e, ev.CardsDrawn) and e.player == players[0].id)
    assert hand.cards == [d.card for d in draws]


def test_the_order_cards_are_drawn_one_by_one_from_the_players_left_st_1_2() -> None:
    """ST-1.2: the turn order by order cards: k players left, 1/k each; the last is certain."""
    session = game()
    probe = Probe(seed=3)
    facts = session.submit(CommandEnvelope(command={"type": "start_battle"}), probe)
    order = [r for r in probe.requests if r.deck == "order cards"]
    assert [r.total for r in order] == [4, 3, 2]  # the fourth card is certain: not asked
    assert all(r.side is None and not r.face_down and r.rule == "ST-1.2" for r in order)
    assert order[0].purpose == "battle 1: the player who acts 1st"
    draws = [
        decode(session.state, f).model_dump()
        for f in facts
        if f.topic == CardDrawn.TOPIC and f.payload["deck"] == "order cards"
    ]
    assert [d["p_outcome"] for d in draws] == ["1/4", "1/3", "1/2", "1"]
    drawn = next(decode(session.state, f) for f in facts if f.topic == ev.TurnOrderDrawn.TOPIC)
    assert drawn.order == [d["card"] for d in draws]  # type: ignore[attr-defined]
    assert drawn.p_outcome == "1/24" and drawn.faces == []  # type: ignore[attr-defined]


def test_refills_and_the_ship_card_draws_are_named_too_st_1_7_st_4_3() -> None:
    """ST-4.3: hands refilled to 8 in the next battle; ST-1.7: a player with no ship card draws
    two at a time: every such card drawn by name. The whole game re-runs to the same events."""
    session = game("multi2", seed=2)
    while session.submit_bot() is not None:
        pass
    verify_record(build_record(session.header, session.facts))
    rules = Counter(f.payload["rule"] for f in session.facts if f.topic == CardDrawn.TOPIC)
    assert rules["ST-1.7"] >= 2 and rules["ST-4.3"] > 0
    for i, fact in enumerate(session.facts):
        if fact.topic == ev.CardsDrawn.TOPIC and fact.payload["cards"]:
            n = len(fact.payload["cards"])
            before = session.facts[i - n : i]
            assert [f.payload["card"] for f in before] == fact.payload["cards"]
            assert {f.payload["rule"] for f in before} == {fact.payload["rule"]}


def test_named_order_fields_are_refused_and_draws_are_redacted_per_player() -> None:
    """ST-1.2: with named draws the order and the draws are not named in the order; a player
    sees its own draws with their odds, not the others' (nor the cards entered), and every
    player sees the order cards."""
    session = game()
    with pytest.raises(InvalidCommand, match="entered as a card drawn"):
        session.submit(CommandEnvelope(command={"type": "start_battle", "order": ["P1"]}))
    facts = session.submit(CommandEnvelope(command={"type": "start_battle"}), Probe(seed=1))
    ruleset = session.state.ruleset
    for fact in facts:
        event = decode(session.state, fact)
        if isinstance(event, CardDrawn):
            seen = ruleset.redact(event, "P1")
            assert isinstance(seen, CardDrawn)
            mine = event.side in (None, "P1")
            assert (seen.card == event.card) == mine and (seen.p_outcome is not None) == mine
        if isinstance(event, CommandIssued):
            entered = event.model_copy(update={"cards": ["yamato"]})
            assert ruleset.redact(entered, "P1").cards == ["?"]  # type: ignore[attr-defined]


def test_the_scribes_menu_starts_every_battle_bare_with_named_draws_st_4_3() -> None:
    """ST-1.2/ST-4.3, issue 20: with named draws the menu offers the battle's start with no
    order or draws to name (each card is asked as it is drawn), in later battles too."""
    session = game("multi2", seed=2)
    ruleset = session.state.ruleset
    seen = 0
    while session.submit_bot() is not None and seen < 2:
        rules = session.state.rules
        if rules.phase == "setup" and not rules.finished:
            menu = ruleset.order_menu(rules, None) or []
            assert [(o.type, o.fields) for o in menu] == [("start_battle", [])]
            assert "asked as it is drawn" in menu[0].label
            seen += 1
    assert seen == 2
