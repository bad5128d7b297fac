"""Iron & Oak action cards with named draws (IO-3.4; issue 20, item 2): the initial deal and the
card exchange's draw are asked of the chance source card by card, each for the side whose hand
it goes to; a side never sees the other side's cards, nor the odds of any draw (what is left of
the one deck tells the other hand); the umpire sees everything."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction

import pytest

from domain.engine import CommandEnvelope, Session, decode, header_for, replay
from domain.errors import IllegalCommand, InvalidCommand
from domain.events import CardDrawn, CommandIssued
from domain.explain import explain_event
from domain.record import build_record, verify_record
from domain.rulesets.iron_oak.hands import full_deck
from domain.rulesets.iron_oak.turn_events import CardExchanged, CardsDealt
from tests.card_probe import Probe
from tests.helpers import FIXTURES

SCENARIO = json.loads((FIXTURES / "scenarios/iron_oak/hampton_roads.json").read_text())


def game(seed: int | None = None) -> Session:
    header = header_for(
        "iron_oak",
        SCENARIO,
        game_id="00000000-0000-4000-8000-0000000c0108",
        seed=seed,
        cards="named",
    )
    return Session(header)


def test_the_deal_draws_each_hand_card_by_card_for_its_side_io_3_4() -> None:
    """IO-3.4: the initial hands, first player first; each card asked for its side only, with
    what is left in the deck and its exact chance."""
    session = game()
    probe = Probe(seed=5)
    facts = session.submit(CommandEnvelope(command={"type": "deal"}), probe)
    first = session.header.scenario["scenario"]["first_player"]
    second = "CSA" if first == "USA" else "USA"
    assert [r.side for r in probe.requests] == [first] * 5 + [second] * 5
    assert all(
        r.face_down and r.deck == "action deck" and r.rule == "IO-3.4" for r in probe.requests
    )
    assert probe.requests[0].purpose == f"{first}'s initial hand, card 1 of 5"
    deck = Counter(full_deck(session.state.rules))
    left = Counter(deck)
    draws = [decode(session.state, f) for f in facts if f.topic == CardDrawn.TOPIC]
    for request, drawn in zip(probe.requests, draws, strict=True):
        assert dict(request.choices) == +left
        assert drawn.p_outcome == str(Fraction(left[drawn.card], sum(left.values())))
        left[drawn.card] -= 1
    dealt = next(decode(session.state, f) for f in facts if f.topic == CardsDealt.TOPIC)
    assert not dealt.known and dealt.faces == []
    assert dealt.hands[first] == [d.card for d in draws[:5]]
    assert Counter(session.state.rules.deck) == +left


def test_hands_and_odds_stay_hidden_from_the_sides_io_3_4() -> None:
    """IO-3.4: a side sees its own cards drawn, not the other side's, and no side sees the odds;
    the cards entered with the deal are both hands, hidden from both sides."""
    session = game()
    facts = session.submit(CommandEnvelope(command={"type": "deal"}), Probe(seed=2))
    ruleset = session.state.ruleset
    issued = decode(session.state, facts[0])
    assert isinstance(issued, CommandIssued)
    physical = issued.model_copy(update={"cards": ["misfire"] * 10})
    for viewer in ("CSA", "USA"):
        assert ruleset.redact(physical, viewer).cards == ["?"] * 10  # type: ignore[attr-defined]
        for fact in facts:
            event = decode(session.state, fact)
            if not isinstance(event, CardDrawn):
                continue
            seen = ruleset.redact(event, viewer)
            assert isinstance(seen, CardDrawn)
            assert seen.p_outcome is None and seen.odds == ""
            assert (seen.card is not None) == (event.side == viewer)
    umpire = decode(session.state, facts[1])
    assert ruleset.redact(umpire, None) == umpire
    before = replay(session.header, session.facts[:1])
    umpire_says = explain_event(before, session.facts, 1)
    assert umpire_says.chance == umpire.p_outcome  # type: ignore[attr-defined]
    assert umpire_says.chance_note.endswith("cards left in the action deck")
    side_says = explain_event(before, session.facts, 1, viewer="CSA")
    assert side_says.chance is None


def test_the_exchange_draws_by_name_and_refuses_a_named_draw_field_io_3_4() -> None:
    """IO-3.4: the card drawn in the exchange is asked of the chance source for the exchanging
    side; naming it in the order is refused; a side may not name the hands either."""
    session = game(seed=2)
    while session.submit_bot() is not None:
        pass
    verify_record(build_record(session.header, session.facts))
    facts = session.facts
    at = next(i for i, f in enumerate(facts) if f.topic == CardExchanged.TOPIC)
    drawn = facts[at - 1]
    assert drawn.topic == CardDrawn.TOPIC
    exchanged = facts[at].payload
    assert drawn.payload["card"] == exchanged["drawn"] and drawn.payload["hidden"]
    assert drawn.payload["side"] == exchanged["side"]
    assert "card drawn in the card exchange" in drawn.payload["purpose"]
    fresh = game()
    with pytest.raises(IllegalCommand, match="drawn by name"):
        fresh.submit(
            CommandEnvelope(side="CSA", command={"type": "deal", "hands": {"CSA": [], "USA": []}})
        )
    before = Session(session.header, facts[: at - 2])
    order = CommandIssued.model_validate(facts[at - 2].payload)
    named = {**order.command, "draw": "misfire"}
    with pytest.raises(InvalidCommand, match="entered as a card drawn"):
        before.submit(CommandEnvelope(side=order.side, command=named))


def test_the_scribes_menu_asks_no_card_in_an_order_with_named_draws_io_3_4() -> None:
    """IO-3.4, issue 20: with named draws the menu's deal and exchange name no card drawn (the
    chance source asks for each as it is drawn); only an umpire's prepared hands are named."""
    session = game(seed=2)
    ruleset = session.state.ruleset
    deal = ruleset.order_menu(session.state.rules, None)
    assert deal is not None
    assert [o.label for o in deal] == [
        "Deal the action cards (each card asked as it is drawn)",
        "Deal: name the cards each side was dealt",
    ]
    assert deal[1].help == "an umpire's prepared hands" and not deal[0].fields
    while session.submit_bot() is not None:
        rules = session.state.rules
        if rules.phase == "exchange" and rules.active is not None:
            menu = ruleset.order_menu(rules, rules.active) or []
            exchange = [o for o in menu if o.key == "exchange"]
            if exchange:
                assert [f.name for f in exchange[0].fields] == ["discard"]
                return
    pytest.fail("no exchange offered in the game")
