"""Iron & Oak action cards in play: the deal, card plays in the windows, the exchange.

IO-1.3.2 (card type movement/gunnery, day/night symbol), IO-3.3.1 B/C and IO-3.3.2 C/D (the
windows: the mover's and the opponent's movement cards; the firer's gunnery cards and the
opponent's one Misfire), IO-3.4 (exchange one card if none was used this turn, until half the
initial hand has been exchanged), IO-6.2.3H (no card may hinder a retiring ship), IO-7.0.
Hands are hidden: the ruleset's ``redact`` shows a side only its own cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Literal

from domain.cards import card_request, draw_card_event, replay_shuffle, shuffle
from domain.dice import DiceSource
from domain.errors import IllegalCommand, InvalidCommand
from domain.events import CardDrawn, DomainEvent
from domain.rulesets.iron_oak.action_cards import ActionCard
from domain.rulesets.iron_oak.basics import Side
from domain.rulesets.iron_oak.commands import CardPlay, Deal, ExchangeCard
from domain.rulesets.iron_oak.sequence import SIDES, may_exchange
from domain.rulesets.iron_oak.state import IronOakState
from domain.rulesets.iron_oak.turn_events import CardExchanged, CardPlayed, CardsDealt

Window = Literal["own", "opponent"]


def full_deck(state: IronOakState) -> list[str]:
    """Every copy of every card, in file order (the deck before any shuffle)."""
    return [card.id for card in state.data.cards.cards for _ in range(card.count)]


def deal(
    state: IronOakState, side: Side | None, command: Deal, dice: DiceSource
) -> list[DomainEvent]:
    """Shuffle and deal ``initial_hand`` cards to each side, first player first (IO-3.4); or
    draw each card by name (a game with named draws); or take the hands dealt with physical
    cards (a physical game made before named draws), or set by the umpire (no side) for a
    prepared situation. A side may never choose the hands of a game whose cards are drawn."""
    size = state.data.tables.initial_hand
    deck = full_deck(state)
    if len(deck) < 2 * size:
        raise IllegalCommand(
            f"the action deck has {len(deck)} cards, too few for two hands of {size}",
            rule="IO-3.4",
        )
    first = state.scenario.first_player
    second: Side = "USA" if first == "CSA" else "CSA"
    if command.hands is None and state.named_cards:
        return _named_deal(state, (first, second), size, dice)
    if command.hands is None:
        order, faces = shuffle(deck, dice)
        end = dice.position
        hands = {first: list(order[:size]), second: list(order[size : 2 * size])}
        return [CardsDealt(faces=list(faces), deck=deck, hands=hands, next_die=end)]
    if side is not None and (state.named_cards or not state.physical_dice):
        how = "drawn by name (enter the cards drawn)" if state.named_cards else "dealt"
        raise IllegalCommand(
            f"the hands are {how} from the deck; naming them in the order is for an umpire's "
            "prepared situation",
            rule="IO-3.4",
        )
    if set(command.hands) != set(SIDES):
        raise InvalidCommand("the dealt hands must name CSA and USA", rule="IO-3.4")
    dealt: Counter[str] = Counter()
    for who, cards in command.hands.items():
        if len(cards) != size:
            raise IllegalCommand(
                f"{who} must be dealt {size} cards, not {len(cards)}", rule="IO-3.4"
            )
        dealt.update(cards)
    held = Counter(deck)
    missing = dealt - held
    if missing:
        counts = "; ".join(
            f"{_card_name(state, card)} named {dealt[card]} times, {held[card]} in the deck"
            for card in sorted(missing)
        )
        raise IllegalCommand(
            f"the hands name more cards than the deck holds: {counts}", rule="IO-3.4"
        )
    hands_dealt = {side: list(cards) for side, cards in command.hands.items()}
    return [CardsDealt(faces=[], deck=deck, hands=hands_dealt, known=False)]


def _card_name(state: IronOakState, card: str) -> str:
    try:
        return state.data.cards.get(card).name
    except KeyError:
        return card.replace("_", " ")


DECK = "action deck"


def _draw(
    state: IronOakState, left: Counter[str], side: Side, purpose: str, dice: DiceSource
) -> tuple[str, CardDrawn]:
    """IO-3.4, named draws: one card from what is ``left`` of the action deck, into ``side``'s
    hand (hidden from the other side)."""
    names = {card.id: card.name for card in state.data.cards.cards}
    request = card_request(
        DECK, left, names, purpose=purpose, rule="IO-3.4", side=side, face_down=True
    )
    return draw_card_event(dice, request)


def _named_deal(
    state: IronOakState, sides: tuple[Side, Side], size: int, dice: DiceSource
) -> list[DomainEvent]:
    """IO-3.4 with named draws: each side's hand drawn card by card from the deck (first
    player first), each card asked of the chance source for that side only, then the hands
    dealt (the deck's order stays unknown)."""
    deck = full_deck(state)
    left = Counter(deck)
    events: list[DomainEvent] = []
    hands: dict[Side, list[str]] = {}
    for who in sides:
        hands[who] = []
        for n in range(1, size + 1):
            purpose = f"{who}'s initial hand, card {n} of {size}"
            card, drawn = _draw(state, left, who, purpose, dice)
            left[card] -= 1
            hands[who].append(card)
            events.append(drawn)
    events.append(CardsDealt(faces=[], deck=deck, hands=hands, known=False))
    return events


def deck_after_deal(event: CardsDealt) -> tuple[str, ...]:
    """The deck left after the deal: the shuffled order without the hands (known order), or
    the remaining copies in file order (physical cards: order unknown)."""
    if event.known:
        order = replay_shuffle(event.deck, event.faces)
        dealt = sum(len(cards) for cards in event.hands.values())
        return order[dealt:]
    rest = Counter(event.deck)
    for cards in event.hands.values():
        rest.subtract(cards)
    return tuple(card for card in dict.fromkeys(event.deck) for _ in range(rest[card]))


def _card(state: IronOakState, card_id: str) -> ActionCard:
    try:
        return state.data.cards.get(card_id)
    except KeyError:
        raise InvalidCommand(f"there is no action card {card_id!r}", rule="IO-7.0") from None


def check_play(
    state: IronOakState,
    side: Side,
    play: CardPlay,
    kind: Literal["movement", "gunnery"],
    window: Window,
    held: Counter[str],
) -> ActionCard:
    """Refuse a card play that is not allowed in this window (IO-1.3.2, IO-3.3, IO-7.0).

    ``held``: the cards still in hand for this command (decremented as cards are played).
    """
    card = _card(state, play.card)
    if held[play.card] <= 0:
        raise IllegalCommand(f"{side} holds no {card.name} card", rule="IO-7.0")
    if card.kind != kind:
        raise IllegalCommand(
            f"{card.name} is a {card.kind} card; this is the {kind} segment", rule="IO-1.3.2"
        )
    if card.window != window:
        who = "the acting player" if card.window == "own" else "the opponent"
        raise IllegalCommand(f"{card.name} is played by {who}", rule="IO-3.3")
    night = state.scenario.night
    if (card.time == "day" and night) or (card.time == "night" and not night):
        raise IllegalCommand(f"{card.name} is a {card.time}-only card", rule="IO-1.3.2")
    held[play.card] -= 1
    return card


def played(
    side: Side,
    card: ActionCard,
    unit: str,
    window: Window,
    section: int | None = None,
    location: str | None = None,
) -> CardPlayed:
    return CardPlayed(
        side=side,
        card=card.id,
        unit=unit,
        use=card.use,
        value=card.value,
        section=section,
        location=location,
        window=window,
    )


def hand(state: IronOakState, side: Side) -> Counter[str]:
    return Counter(state.hands.get(side, ()))


def exchange(
    state: IronOakState, side: Side, command: ExchangeCard, dice: DiceSource
) -> list[DomainEvent]:
    """IO-3.4: discard one card face down and draw one (the top of the deck; drawn by name in a
    game with named draws; with physical cards before those, the card named in ``draw``).
    ``discard=None`` passes."""
    if command.discard is None:
        return []
    if not may_exchange(state, side):
        raise IllegalCommand(
            f"{side} may not exchange: a card was used this turn or half the initial hand "
            "has been exchanged",
            rule="IO-3.4",
        )
    if command.discard not in state.hands.get(side, ()):
        raise IllegalCommand(f"{side} holds no {command.discard!r} card", rule="IO-3.4")
    drawn: str | None
    if state.named_cards:
        if command.draw is not None:
            raise InvalidCommand(
                "the card drawn is entered as a card drawn (wake submit --cards), not in the order",
                rule="IO-3.4",
            )
        if not state.deck:
            return [CardExchanged(side=side, discarded=command.discard, drawn=None)]
        purpose = f"{side}'s card drawn in the card exchange"
        drawn, event = _draw(state, Counter(state.deck), side, purpose, dice)
        return [event, CardExchanged(side=side, discarded=command.discard, drawn=drawn)]
    if state.deck_known:
        if command.draw is not None:
            raise InvalidCommand("the deck order is recorded; the drawn card is not named")
        drawn = state.deck[0] if state.deck else None
    else:
        if command.draw is None and state.deck:
            raise InvalidCommand("physical cards: name the card drawn (draw)", rule="IO-3.4")
        if command.draw is not None and command.draw not in state.deck:
            raise IllegalCommand(f"no {command.draw!r} card is left in the deck", rule="IO-3.4")
        drawn = command.draw
    return [CardExchanged(side=side, discarded=command.discard, drawn=drawn)]


def remove_one(cards: Sequence[str], card: str) -> tuple[str, ...]:
    out = list(cards)
    if card in out:
        out.remove(card)
    return tuple(out)
