"""Star Wars: Armada's damage deck with named draws (SWA-DMG; issue 20, item 2).

A real table deals damage cards from a shuffled deck: a face-up card is turned up and read, a
face-down one is dealt without anyone looking. With named draws Wake records exactly that: a
face-up card is asked of the chance source by name (a scribe enters the card turned up) with the
chance (unseen copies) / (unseen cards), a face-down card is not asked (chance 1) and stays
unseen, and when the deck runs out the unseen discards are turned up before the new deck is
drawn from."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from domain.engine import CommandEnvelope, Session, decode, header_for
from domain.errors import DiceMismatch, ScenarioError
from domain.events import CardDrawn, DomainEvent
from domain.record import build_record, verify_record
from domain.rulesets.armada import damage as D
from domain.rulesets.armada.attack_events import (
    DamageCardDealt,
    DamageCardFlipped,
    DamageDeckShuffled,
    UnitDestroyed,
)
from domain.rulesets.armada.data import bundled_damage_deck
from domain.rulesets.armada.events import DamageCardDiscarded
from domain.rulesets.armada.ship_commands import apply as apply_repair
from tests.card_probe import Probe, Refuse
from tests.helpers import FIXTURES
from tests.test_armada_damage import hull as damage_hull

CAT = bundled_damage_deck()
ALL = Counter(CAT.card_ids())
SCENARIO = json.loads((FIXTURES / "scenarios/armada/core_learning.json").read_text())


def hull(**kw: Any) -> D.ShipHull:
    return damage_hull(**{"name": "CR90 Corvette A", **kw})


def deal(
    ship: D.ShipHull, n: int, deck: D.DeckState, source: Any, face_up: bool = False
) -> D.Dealt[D.ShipHull]:
    return D.deal_cards(
        ship, n, face_up=face_up, opponent="empire", deck=deck, dice=source, catalogue=CAT
    )


def of(events: list[DomainEvent], cls: type[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, cls)]


def test_a_face_up_card_is_asked_by_name_with_its_exact_chance_swa_dmg() -> None:
    """SWA-DMG, named draws: the request names the deck, every card still unseen with its
    copies and name, whose card it is and why; the card comes with (copies)/(unseen)."""
    probe = Probe(pick=lambda r: "blinded_gunners")
    dealt = deal(hull(), 1, D.new_named_deck(CAT), probe, face_up=True)
    (request,) = probe.requests
    assert request.deck == "damage deck" and request.rule == "SWA-DMG"
    assert dict(request.choices) == ALL and request.total == 52
    assert dict(request.names)["blinded_gunners"] == "Blinded Gunners"
    assert request.side == "rebel" and not request.face_down
    assert request.purpose == "damage card dealt face up to CR90 Corvette A (cr90)"
    drawn = of(dealt.events, CardDrawn)[0]
    assert (drawn.card, drawn.p_outcome) == ("blinded_gunners", "1/26")  # 2 of 52
    assert drawn.odds == "2 of 52 damage cards nobody has seen"
    assert of(dealt.events, DamageCardDealt)[0].card == "blinded_gunners"
    assert dealt.deck.left == 51 and Counter(dealt.deck.unseen[0]) == ALL - Counter(
        ["blinded_gunners"]
    )
    assert dealt.deck.draw == ()  # no order is recorded


def test_a_face_down_card_is_dealt_unseen_and_not_asked_swa_dmg() -> None:
    """SWA-DMG: damage is dealt face down (RRG: nobody looks at it): nothing is asked, the
    chance is 1, the ship holds an unseen card."""
    source = Refuse()
    dealt = D.suffer_damage(
        hull(),
        "rear",
        3,
        opponent="empire",
        deck=D.new_named_deck(CAT),
        dice=source,
        catalogue=CAT,
    )
    assert source.requests == []
    unseen = of(dealt.events, CardDrawn)
    assert [(e.card, e.p_outcome) for e in unseen] == [(None, "1"), (None, "1")]
    assert [c.card for c in dealt.ship.cards] == [D.UNSEEN, D.UNSEEN]
    assert dealt.deck.left == 50 and Counter(dealt.deck.unseen[0]) == ALL


def test_later_odds_count_face_down_cards_as_unseen_swa_dmg() -> None:
    """SWA-DMG by exchangeability: P(X) = unseen copies of X / unseen cards, where the unseen
    cards are the deck's cards less those seen (face-down cards dealt count as unseen)."""
    probe = Probe(pick=lambda r: "blinded_gunners")
    deck = deal(hull(), 2, D.new_named_deck(CAT), probe).deck  # two unseen
    first = deal(hull(), 1, deck, probe, face_up=True)
    assert of(first.events, CardDrawn)[0].p_outcome == str(Fraction(2, 52))
    second = deal(hull(), 1, first.deck, probe, face_up=True)
    assert of(second.events, CardDrawn)[0].p_outcome == str(Fraction(1, 51))
    assert second.deck.left == 48
    probe = Probe(pick=lambda r: "power_failure")
    deal(hull(), 1, second.deck, probe, face_up=True)
    assert probe.requests[0].count("blinded_gunners") == 0  # both copies seen
    assert probe.requests[0].total == 50


def test_the_discards_become_the_deck_after_their_unseen_cards_are_turned_up_swa_dmg() -> None:
    """SWA-DMG: when the deck runs out the discard pile is reshuffled into a new deck; its
    unseen cards are turned up and named first (each from the unseen cards of the deck it came
    from), so the new deck is known and its draws are exact."""
    deck = D.DeckState(
        named=True,
        left=0,
        unseen=(("power_failure", "structural_damage", "structural_damage"),),
        discard=(D.UNSEEN, "blinded_gunners"),
    )
    probe = Probe(pick=lambda r: "structural_damage" if r.side is None else "blinded_gunners")
    dealt = deal(hull(), 1, deck, probe, face_up=True)
    turn_up, draw = probe.requests
    assert dict(turn_up.choices) == {"power_failure": 1, "structural_damage": 2}
    assert turn_up.side is None and "discard pile" in turn_up.purpose
    assert dict(draw.choices) == {"blinded_gunners": 1, "structural_damage": 1}
    up, drawn = of(dealt.events, CardDrawn)
    assert (up.p_outcome, drawn.p_outcome) == ("2/3", "1/2")
    shuffled = of(dealt.events, DamageDeckShuffled)[0]
    assert shuffled.cards == ["structural_damage", "blinded_gunners"] and shuffled.faces == []
    assert dealt.deck.left == 1 and dealt.deck.discard == ()
    assert dealt.deck.unseen == (("power_failure", "structural_damage"), ("structural_damage",))
    again = deal(hull(), 1, dealt.deck, Refuse())  # a face-down card of the second deck
    assert [c.card for c in again.ship.cards] == [D.unseen_label(1)]
    assert D.unseen_deck(D.unseen_label(1)) == 1 and D.unseen_deck("power_failure") is None
    empty = D.DeckState(named=True, left=0, unseen=((),))
    with pytest.raises(ScenarioError, match="both empty"):
        deal(hull(), 1, empty, Refuse())


def test_effects_cope_with_unseen_cards_swa_dmg() -> None:
    """SWA-DMG: Structural Damage deals its extra card face down (unseen, not asked); a card
    that turns face down after acting (Projector Misaligned) is found among unseen ones; a
    destroyed ship's and a repaired ship's unseen cards go to the discard pile as unseen."""
    probe = Probe(pick=lambda r: "structural_damage")
    dealt = deal(hull(), 1, D.new_named_deck(CAT), probe, face_up=True)
    assert len(probe.requests) == 1
    assert [(c.card, c.face_up) for c in dealt.ship.cards] == [
        ("structural_damage", False),
        (D.UNSEEN, False),
    ]
    ship = hull(
        cards=(D.HeldCard(card=D.UNSEEN),), shields={"front": 3, "right": 1, "rear": 1, "left": 2}
    )
    probe = Probe(pick=lambda r: "projector_misaligned")
    flipped = deal(ship, 1, D.new_named_deck(CAT), probe, face_up=True)
    assert of(flipped.events, DamageCardFlipped)[0].card == "projector_misaligned"
    assert [(c.card, c.face_up) for c in flipped.ship.cards] == [
        (D.UNSEEN, False),
        ("projector_misaligned", False),
    ]
    gone = deal(hull(hull=2), 2, D.new_named_deck(CAT), Refuse())
    destroyed = of(gone.events, UnitDestroyed)[0]
    assert destroyed.cards == [D.UNSEEN, D.UNSEEN] and gone.deck.discard == (D.UNSEEN, D.UNSEEN)


def _named_game(seed: int) -> Session:
    header = header_for(
        "armada", SCENARIO, game_id="00000000-0000-4000-8000-0000000c0207", seed=seed, cards="named"
    )
    session = Session(header)
    while session.submit_bot() is not None:
        pass
    return session


def test_a_seeded_game_with_named_draws_verifies_and_never_shuffles_swa_dmg() -> None:
    """SWA-DMG: a whole game (bots, seeded dice drawing the named cards) re-runs to the same
    events; no shuffle is recorded; every face-up card was drawn by name, every face-down one
    dealt unseen; a repair or a destroyed ship discards unseen cards as unseen."""
    game = _named_game(3)
    verify_record(build_record(game.header, game.facts))
    events = [decode(game.state, f) for f in game.facts]
    dealt = [e for e in events if isinstance(e, DamageCardDealt)]
    assert dealt and not any(isinstance(e, DamageDeckShuffled) for e in events)
    draws = [f.payload for f in game.facts if f.topic == CardDrawn.TOPIC]
    assert [d["card"] or D.UNSEEN for d in draws] == [e.card for e in dealt]
    assert all(e.face_up == (d["card"] is not None) for e, d in zip(dealt, draws, strict=True))
    assert any(e.face_up for e in dealt) and any(not e.face_up for e in dealt)
    deck = game.state.rules.deck
    seen = Counter(e.card for e in dealt if e.face_up)
    assert Counter(deck.unseen[0]) == ALL - seen and deck.left == 52 - len(dealt)


def test_a_repair_discards_an_unseen_card_as_unseen_swa_dmg() -> None:
    """SWA-R3 Repair with named draws: a face-down card nobody has seen goes to the discard
    pile as unseen (its id is not known)."""
    state = Session(header_for("armada", SCENARIO, game_id="g", seed=1, cards="named")).state.rules
    ship = state.ships["cr90"]
    state = state.model_copy(
        update={
            "ships": {
                **state.ships,
                "cr90": ship.model_copy(update={"damage": (D.HeldCard(card=D.UNSEEN),)}),
            }
        }
    )
    after = apply_repair(
        state, DamageCardDiscarded(ship="cr90", index=0, card=D.UNSEEN, face_up=False, points=3)
    )
    assert after.ships["cr90"].damage == () and after.deck.discard == (D.UNSEEN,)


def test_a_physical_game_enters_face_up_cards_only_swa_dmg() -> None:
    """Issue 20: the physical fixture recorded with named draws asks for the face-up cards only,
    each refused when the deck cannot give it (nothing appended)."""
    from domain.record import read_record_file

    record = read_record_file(FIXTURES / "games/armada/core_learning-physical-named.wake.json")
    entered = [c for cmd in record.commands for c in cmd.cards or []]
    face_up = [
        e.payload["card"]
        for e in record.events
        if e.topic == "armada.DamageCardDealt/1" and e.payload["face_up"]
    ]
    assert entered == face_up and entered
    # the first order that drew a card, entered with a card the deck does not have
    first = next(i for i, cmd in enumerate(record.commands) if cmd.cards)
    seq = next(
        e.seq
        for e in record.events
        if e.topic == "wake.CommandIssued/1" and e.payload["index"] == first
    )
    game = Session(record.header, record.events[: seq - 1])
    cmd = record.commands[first]
    with pytest.raises(DiceMismatch, match="is not a card of the damage deck"):
        game.submit(
            CommandEnvelope(
                side=cmd.side, command=cmd.command, dice=cmd.dice, cards=["tie_fighter"]
            )
        )
    assert len(game.facts) == seq - 1
    facts = game.submit(
        CommandEnvelope(side=cmd.side, command=cmd.command, dice=cmd.dice, cards=cmd.cards)
    )
    recorded = record.events[seq : seq - 1 + len(facts)]
    assert [f.payload for f in facts[1:]] == [e.payload for e in recorded]
