"""The Armada damage deck (SWA-DMG): the 52 cards, dealing them, and what each face-up card does.

**The deck.** :class:`DeckState` holds the draw pile (top first) and the discard pile. It is
shuffled with the game's dice (:func:`new_deck`, :func:`domain.cards.shuffle`); when a card must
be drawn from an empty pile, the discard pile is shuffled into a new deck. The order is hidden
information: :func:`redact` hides shuffle faces and face-down card ids from the sides.

**Named draws** (a game whose header says ``cards: "named"``, :func:`new_named_deck`): nothing is
shuffled on record. A card dealt face up is drawn by name from the game's chance source
(``domain.cards.draw_card_event``; at a table, the scribe enters the card turned up); a card
dealt face down is dealt as a real table deals it, without anyone looking, so it is not named:
the ship holds an unseen card (:func:`unseen_label`) and its chance is 1. By exchangeability the
next card of the pile is any unseen card with equal chance, so a face-up card X comes with chance
(unseen copies of X) / (unseen cards), where the unseen cards are the deck's cards less those
seen (dealt face up). When the pile runs out, the discard pile becomes the new deck: its unseen
cards are turned up and named first (each with the chance of its own deck's unseen cards), so the
new deck's cards are all known and the same accounting goes on from them.

**Dealing.** A ship suffers damage one point at a time: the zone's shields first, then face-down
damage cards (:func:`suffer_damage`); some effects deal cards straight away (:func:`deal_cards`).
Cards are dealt one at a time, so a face-up card's "when dealt" effect acts before the next card;
the ship is destroyed as soon as it holds as many damage cards as its hull, and dealing stops.
:class:`Dealing` is what is still owed; when a face-up card needs a player's choice it waits
(:func:`chooser`, :func:`legal_choices`, :func:`resolve_choice`), otherwise it acts at once.

**Effects.** Every card names an ``effect`` key (``data/damage_deck.json``); :data:`EFFECTS`
registers each key with the moments it acts at (:data:`Timing`), and one function per key
implements it:

* when dealt face up (then the card turns face down): ``extra_facedown_damage`` (Structural
  Damage), ``discard_defense_token`` (Injured Crew, the owner chooses), ``opponent_speed_or_dial``
  (Comm Noise, the opponent chooses), ``strongest_zone_loses_shields`` (Projector Misaligned, the
  owner breaks ties), ``opponent_strips_shields`` (Shield Failure, the opponent chooses);
* inside an attack, read by :mod:`.attack`: :func:`declare_refusal` (Depowered Armament,
  Disengaged Fire Control, Coolant Discharge), :func:`removals_before_roll` (Damaged Munitions,
  Point-Defense Failure), :func:`may_spend_accuracy` (Blinded Gunners),
  :func:`may_resolve_critical` (Targeter Disruption), :func:`token_refusal` (Faulty
  Countermeasures, Capacitor Failure);
* ship stats: :func:`engineering_value` (Power Failure), :func:`damaged_yaw_limits`
  (Thrust-Control Malfunction), :func:`may_ready_defence_tokens` (Compartment Fire),
  :func:`may_hold_command_tokens` (Life Support Failure; its tokens go when it is dealt face up),
  :func:`shields_locked` (Capacitor Failure, for repairs);
* hooks for the rest of the game, at the timing :func:`effects_at` names:
  :func:`must_panic_before_reveal` (Crew Panic), :func:`overlap_cards` (Damaged Controls),
  :func:`damage_after_maneuver` (Ruptured Engine), :func:`damage_on_speed_change` (Thruster
  Fissure).

Events are in :mod:`.attack_events`; :func:`apply_ship`, :func:`apply_dealing` and
:func:`apply_deck` fold them, so a game state can keep its ships, an open :class:`Dealing` and
its deck in step with what was decided.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Annotated, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from domain.cards import (
    HIDDEN_CARD,
    card_request,
    draw_card_event,
    replay_shuffle,
    shuffle,
    unseen_card_event,
)
from domain.dice import DiceSource
from domain.errors import IllegalCommand, InvalidCommand, ScenarioError
from domain.events import DomainEvent
from domain.frozen import changed
from domain.rulesets.armada.attack_events import (
    CommandName,
    CommNoiseResolved,
    DamageCardDealt,
    DamageCardFlipped,
    DamageDeckShuffled,
    DamageRedirected,
    DamageSuffered,
    DefenceTokenDiscarded,
    DefenceTokenSpent,
    ShieldsLost,
    UnitDestroyed,
)
from domain.rulesets.armada.data import DamageDeck, RangeBand
from domain.rulesets.armada.defence import DefenceToken, TokenKind, token_in
from domain.rulesets.armada.geometry import ZONES, Zone

RULE = "SWA-DMG"
COMMANDS: tuple[CommandName, ...] = ("navigate", "squadron", "repair", "concentrate_fire")
DECK = "damage deck"
UNSEEN = HIDDEN_CARD
"""A damage card dealt face down that nobody has seen (named draws): its id is not known."""

Timing = Literal[
    "dealt",  # once, when the card is dealt face up
    "declare",  # SWA-ATK 1, the ship attacking
    "gather",  # SWA-ATK 2, before the attacker rolls
    "modify",  # SWA-ATK 3
    "defend",  # SWA-ATK 4, the ship defending
    "critical",  # SWA-ATK 5, the ship attacking
    "reveal",  # SWA-2.1, before revealing the command dial
    "course",  # SWA-2.3a, determining the course (yaw)
    "after_maneuver",  # SWA-2.3, after executing a maneuver
    "speed_change",  # whenever the speed dial changes
    "overlap",  # SWA-OVL, overlapping a ship or an obstacle
    "repair",  # SWA-R3 Repair: moving and recovering shields
    "status",  # SWA-4, readying defence tokens
    "command_tokens",  # SWA-R3, gaining or holding command tokens
    "engineering",  # the engineering value (Repair)
]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# --------------------------------------------------------------------------- ships and the deck


class HeldCard(_Model):
    """A damage card a ship holds, face up or face down."""

    card: str
    face_up: bool = False


class ShipHull(_Model):
    """What damage acts on: a ship's shields per hull zone, defence tokens, damage cards, speed
    and the number of face-down command dials in its stack (for Comm Noise)."""

    id: str
    side: str
    name: str = ""
    hull: int = Field(ge=1)
    shields: dict[Zone, int]
    tokens: tuple[DefenceToken, ...] = ()
    cards: tuple[HeldCard, ...] = ()
    speed: int = Field(default=0, ge=0)
    dials: int = Field(default=0, ge=0)
    destroyed: bool = False

    @model_validator(mode="after")
    def _zones(self) -> ShipHull:
        if set(self.shields) != set(ZONES) or any(v < 0 for v in self.shields.values()):
            raise ValueError(f"shields: give each of {ZONES} a count ≥ 0, got {self.shields}")
        return self

    @property
    def face_up(self) -> tuple[str, ...]:
        """The ids of its face-up damage cards, in the order dealt."""
        return tuple(c.card for c in self.cards if c.face_up)

    @property
    def label(self) -> str:
        """How players name the ship: its name (and id)."""
        return f"{self.name} ({self.id})" if self.name and self.name != self.id else self.id


class DeckState(_Model):
    """The damage deck (SWA-DMG): ``draw`` (top first) and ``discard`` piles of card ids.

    With named draws (``named``) no order is known and ``draw`` stays empty: ``left`` cards are
    in the draw pile, none of them seen, and ``unseen[d]`` lists, for the deck formed by the
    d-th reshuffle (0: the first deck), its cards less those seen since: the cards its pile and
    its face-down cards may be. The discard pile holds card ids, an unseen card as its label
    (:func:`unseen_label`)."""

    draw: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    named: bool = False
    left: int = Field(default=0, ge=0)
    unseen: tuple[tuple[str, ...], ...] = ()


class Dealing(_Model):
    """Damage cards still owed to ``ship``: ``due`` more, the next one face up when
    ``face_up_next``; ``pending`` is a face-up card whose effect waits for a choice.
    ``opponent`` makes an opponent's choices (Comm Noise, Shield Failure)."""

    ship: str
    opponent: str | None = None
    due: int = Field(default=0, ge=0)
    face_up_next: bool = False
    pending: str | None = None
    pending_effect: str | None = None
    rule: str = RULE


S = TypeVar("S", bound=ShipHull)


@dataclass(frozen=True)
class Dealt(Generic[S]):
    """What dealing did: the events, and the ship, the open dealing (None when nothing is owed
    or waits) and the deck after them."""

    events: list[DomainEvent]
    ship: S
    dealing: Dealing | None
    deck: DeckState


# --------------------------------------------------------------------------- choices


class DiscardDefenceToken(_Model):
    """Injured Crew: the owner discards defence token ``token`` (index on the ship)."""

    type: Literal["discard_defence_token"] = "discard_defence_token"
    token: int = Field(ge=0)


class LoseShieldsZone(_Model):
    """Projector Misaligned: the owner picks which of the tied strongest zones loses its
    shields."""

    type: Literal["lose_shields_zone"] = "lose_shields_zone"
    zone: Zone


class SpeedOrDial(_Model):
    """Comm Noise: the opponent lowers the speed by 1, sets ``command`` on the top command dial,
    or does neither."""

    type: Literal["speed_or_dial"] = "speed_or_dial"
    choice: Literal["speed", "dial", "none"]
    command: CommandName | None = None

    @model_validator(mode="after")
    def _command(self) -> SpeedOrDial:
        if (self.choice == "dial") != (self.command is not None):
            raise ValueError("command: name a command exactly when the choice is 'dial'")
        return self


class StripShields(_Model):
    """Shield Failure: the opponent picks up to two hull zones (each with a shield left); each
    loses one shield."""

    type: Literal["strip_shields"] = "strip_shields"
    zones: tuple[Zone, ...] = Field(default=(), max_length=2)


DamageChoice = Annotated[
    DiscardDefenceToken | LoseShieldsZone | SpeedOrDial | StripShields,
    Field(discriminator="type"),
]


# --------------------------------------------------------------------------- effect registry


@dataclass(frozen=True)
class CardEffect:
    """What an ``effect`` key does and when (``timings``); ``scope``: ``attack`` (acts inside
    an attack), ``dealt`` (acts once when dealt face up), ``stat`` (changes a ship value) or
    ``hook`` (the rest of the game asks at that timing)."""

    key: str
    timings: tuple[Timing, ...]
    scope: Literal["attack", "dealt", "stat", "hook"]
    summary: str


EFFECTS: dict[str, CardEffect] = {
    e.key: e
    for e in (
        CardEffect("extra_facedown_damage", ("dealt",), "dealt", "deal 1 more card face down"),
        CardEffect("discard_defense_token", ("dealt",), "dealt", "owner discards a token"),
        CardEffect("opponent_speed_or_dial", ("dealt",), "dealt", "opponent: speed -1 or dial"),
        CardEffect("strongest_zone_loses_shields", ("dealt",), "dealt", "most shields lost"),
        CardEffect("opponent_strips_shields", ("dealt",), "dealt", "opponent: 2 zones -1"),
        CardEffect("no_accuracy_spending", ("modify",), "attack", "no accuracy spending"),
        CardEffect(
            "empty_zone_shield_lock", ("defend", "repair"), "attack", "empty zone: no shields"
        ),
        CardEffect("no_defense_token_ready", ("status",), "stat", "tokens not readied"),
        CardEffect("one_ship_attack_per_round", ("declare",), "attack", "1 ship attack/round"),
        CardEffect("damage_or_discard_dial", ("reveal",), "hook", "1 damage or lose the dial"),
        CardEffect("overlap_extra_damage", ("overlap",), "hook", "overlap: 1 more card"),
        CardEffect("drop_die_against_ships", ("gather",), "attack", "-1 die against ships"),
        CardEffect("no_long_range_attacks", ("declare",), "attack", "no long-range attacks"),
        CardEffect("no_obstructed_targets", ("declare",), "attack", "no obstructed targets"),
        CardEffect("no_exhausted_defense_tokens", ("defend",), "attack", "ready tokens only"),
        CardEffect("no_command_tokens", ("dealt", "command_tokens"), "stat", "no command tokens"),
        CardEffect("drop_die_against_squadrons", ("gather",), "attack", "-1 die vs squadrons"),
        CardEffect("halve_engineering", ("engineering",), "stat", "engineering halved"),
        CardEffect(
            "damage_after_fast_maneuver", ("after_maneuver",), "hook", "speed > 1: 1 damage"
        ),
        CardEffect("no_critical_effects", ("critical",), "attack", "no critical effects"),
        CardEffect("last_joint_yaw_minus_one", ("course",), "stat", "last joint -1 yaw"),
        CardEffect("damage_on_speed_change", ("speed_change",), "hook", "speed change: 1 damage"),
    )
}
"""Every effect key Wake implements (one per card of the core-set deck)."""


def unknown_effects(catalogue: DamageDeck) -> list[str]:
    """Effect keys in a (user's) deck file that Wake does not implement."""
    return sorted({c.effect for c in catalogue.cards} - set(EFFECTS))


def check_catalogue(catalogue: DamageDeck) -> DamageDeck:
    """The deck, if Wake implements every effect it names.

    Raises:
        ScenarioError: a card names an unknown effect key.
    """
    unknown = unknown_effects(catalogue)
    if unknown:
        raise ScenarioError(f"damage deck: unknown effect key(s) {unknown}", rule=RULE)
    return catalogue


def effect_of(catalogue: DamageDeck, card: str) -> str:
    """The effect key of a card id.

    Raises:
        InvalidCommand: no such card in the deck.
    """
    try:
        return catalogue.get(card).effect
    except KeyError:
        raise InvalidCommand(f"there is no damage card {card!r}", rule=RULE) from None


def face_up_effects(cards: Iterable[HeldCard] | ShipHull, catalogue: DamageDeck) -> tuple[str, ...]:
    """The effect keys of the face-up cards, one per card (two copies count twice)."""
    held = cards.cards if isinstance(cards, ShipHull) else cards
    up = [c.card for c in held if c.face_up]
    if not up:  # most ships most of the time: no catalogue look-up table to build
        return ()
    by_id = {c.id: c.effect for c in catalogue.cards}
    return tuple(by_id[card] for card in up if card in by_id)


def effects_at(
    timing: Timing, cards: Iterable[HeldCard] | ShipHull, catalogue: DamageDeck
) -> tuple[str, ...]:
    """The effect keys of the face-up cards that act at ``timing`` (the integrator's hook)."""
    return tuple(
        key
        for key in face_up_effects(cards, catalogue)
        if key in EFFECTS and timing in EFFECTS[key].timings
    )


# --------------------------------------------------------------------------- attack-time effects

_DECLARE: dict[str, Callable[[bool, RangeBand, bool, int], str | None]] = {
    # (target is a ship, range, obstructed, earlier attacks on ships this round) -> refusal
    "no_long_range_attacks": lambda ship, band, obstructed, n: (
        "Depowered Armament: the ship cannot attack at long range" if band == "long" else None
    ),
    "no_obstructed_targets": lambda ship, band, obstructed, n: (
        "Disengaged Fire Control: the ship cannot choose a target the attack to which is obstructed"
        if obstructed
        else None
    ),
    "one_ship_attack_per_round": lambda ship, band, obstructed, n: (
        "Coolant Discharge: only one attack each round can target a ship"
        if ship and n >= 1
        else None
    ),
}

_GATHER: dict[str, Callable[[bool], bool]] = {
    "drop_die_against_ships": lambda ship: ship,  # Damaged Munitions
    "drop_die_against_squadrons": lambda ship: not ship,  # Point-Defense Failure
}

_REMOVAL_REASONS = {
    "drop_die_against_ships": "Damaged Munitions",
    "drop_die_against_squadrons": "Point-Defense Failure",
}


def declare_refusal(
    effects: Sequence[str],
    *,
    target_is_ship: bool,
    attack_range: RangeBand,
    obstructed: bool,
    ship_attacks_this_round: int,
) -> str | None:
    """Why the attacker's face-up cards forbid this target (SWA-DMG), or None."""
    for key in effects:
        rule = _DECLARE.get(key)
        why = (
            rule(target_is_ship, attack_range, obstructed, ship_attacks_this_round)
            if rule
            else None
        )
        if why:
            return why
    return None


def removals_before_roll(effects: Sequence[str], *, target_is_ship: bool) -> list[str]:
    """One entry per die the attacker's face-up cards remove before the roll (SWA-DMG), naming
    the card."""
    return [
        _REMOVAL_REASONS[key] for key in effects if key in _GATHER and _GATHER[key](target_is_ship)
    ]


def may_spend_accuracy(effects: Sequence[str]) -> bool:
    """Blinded Gunners: the attacker cannot spend accuracy icons."""
    return "no_accuracy_spending" not in effects


def may_resolve_critical(effects: Sequence[str]) -> bool:
    """Targeter Disruption: the attacker cannot resolve critical effects."""
    return "no_critical_effects" not in effects


_DEFEND: dict[str, Callable[[DefenceToken, int], str | None]] = {
    # (token, shields left on the defending zone) -> refusal
    "no_exhausted_defense_tokens": lambda token, shields: (
        "Faulty Countermeasures: exhausted defence tokens cannot be spent"
        if token.state == "exhausted"
        else None
    ),
    "empty_zone_shield_lock": lambda token, shields: (
        "Capacitor Failure: the defending zone has no shields, so Redirect cannot be spent"
        if token.kind == "redirect" and shields == 0
        else None
    ),
}


def token_refusal(effects: Sequence[str], token: DefenceToken, zone_shields: int) -> str | None:
    """Why the defender's face-up cards forbid spending ``token`` (SWA-DMG), or None."""
    for key in effects:
        rule = _DEFEND.get(key)
        why = rule(token, zone_shields) if rule else None
        if why:
            return why
    return None


# --------------------------------------------------------------------------- stats and hooks


def engineering_value(printed: int, effects: Sequence[str]) -> int:
    """Power Failure: the engineering value is halved, rounding down (each copy again)."""
    value = printed
    for key in effects:
        if key == "halve_engineering":
            value //= 2
    return value


def damaged_yaw_limits(limits: Sequence[int], effects: Sequence[str]) -> tuple[int, ...]:
    """Thrust-Control Malfunction: at the current speed, the last joint that may click at all
    allows one click less (each copy again). Apply to the speed chart's column before a
    Navigate dial raises a joint."""
    out = list(limits)
    for key in effects:
        if key == "last_joint_yaw_minus_one":
            for i in range(len(out) - 1, -1, -1):
                if out[i] > 0:
                    out[i] -= 1
                    break
    return tuple(out)


def may_ready_defence_tokens(effects: Sequence[str]) -> bool:
    """Compartment Fire: the ship's defence tokens are not readied in the Status Phase."""
    return "no_defense_token_ready" not in effects


def may_hold_command_tokens(effects: Sequence[str]) -> bool:
    """Life Support Failure: the ship discards its command tokens when the card is dealt face
    up and cannot gain any while it stays face up."""
    return "no_command_tokens" not in effects


def shields_locked(effects: Sequence[str], zone_shields: int) -> bool:
    """Capacitor Failure: a hull zone with no shields can neither recover shields nor receive
    moved ones (Repair)."""
    return "empty_zone_shield_lock" in effects and zone_shields == 0


def must_panic_before_reveal(effects: Sequence[str]) -> bool:
    """Crew Panic: before revealing a command dial, the owner must either suffer 1 damage (on a
    hull zone of their choice, :func:`suffer_damage`) or discard that dial and reveal none this
    round."""
    return "damage_or_discard_dial" in effects


def overlap_cards(effects: Sequence[str]) -> int:
    """Damaged Controls: face-down cards dealt when the ship overlaps a ship or an obstacle, on
    top of the usual effects (one per copy face up)."""
    return sum(1 for key in effects if key == "overlap_extra_damage")


def damage_after_maneuver(effects: Sequence[str], speed: int) -> int:
    """Ruptured Engine: damage suffered after executing a maneuver with the speed dial above 1
    (one per copy face up)."""
    return sum(1 for key in effects if key == "damage_after_fast_maneuver") if speed > 1 else 0


def damage_on_speed_change(effects: Sequence[str], before: int, after: int) -> int:
    """Thruster Fissure: damage suffered when the speed changes by 1 or more (one per copy)."""
    if before == after:
        return 0
    return sum(1 for key in effects if key == "damage_on_speed_change")


# --------------------------------------------------------------------------- the deck


def new_deck(catalogue: DamageDeck, dice: DiceSource) -> tuple[DamageDeckShuffled, DeckState]:
    """Shuffle the whole deck (every copy of every card) with the game's dice (SWA-DMG; RRG
    setup step 7)."""
    cards = catalogue.card_ids()
    _, faces = shuffle(cards, dice)
    event = DamageDeckShuffled(
        cards=list(cards), faces=list(faces), reason="setup", next_die=dice.position
    )
    return event, apply_deck(DeckState(), event)


def discard_cards(deck: DeckState, cards: Iterable[str]) -> DeckState:
    """The deck with ``cards`` put on the discard pile (a repaired card, a destroyed ship's)."""
    return changed(deck, discard=deck.discard + tuple(cards))


def new_named_deck(catalogue: DamageDeck) -> DeckState:
    """The damage deck of a game with named draws: every card in the pile, none seen."""
    cards = catalogue.card_ids()
    return DeckState(named=True, left=len(cards), unseen=(tuple(sorted(cards)),))


def unseen_label(deck: int) -> str:
    """What a ship holds for a card dealt face down and never seen (named draws), from the deck
    formed by reshuffle ``deck`` (0: the first deck)."""
    return UNSEEN if deck == 0 else f"{UNSEEN}{deck}"


def unseen_deck(card: str) -> int | None:
    """The deck an unseen card's label comes from (None: a card id)."""
    if card == UNSEEN:
        return 0
    rest = card[len(UNSEEN) :]
    return int(rest) if card.startswith(UNSEEN) and rest.isdigit() else None


def _names(catalogue: DamageDeck) -> dict[str, str]:
    return {card.id: card.name for card in catalogue.cards}


def _named_card(
    ship: ShipHull, face_up: bool, deck: DeckState, dice: DiceSource, catalogue: DamageDeck
) -> tuple[list[DomainEvent], str]:
    """Named draws: the next card for ``ship`` (after a reshuffle if the pile is empty) and the
    events that record it: a face-up card drawn by name with its exact chance, a face-down one
    dealt unseen (chance 1, no card asked)."""
    events: list[DomainEvent] = []
    if deck.left == 0:
        events.extend(_reshuffle_named(deck, dice, catalogue))
        deck = apply_deck(deck, events[-1])
    current = len(deck.unseen) - 1
    if not face_up:
        events.append(
            unseen_card_event(
                DECK,
                purpose=f"damage card dealt face down to {ship.label}",
                rule=RULE,
                side=ship.side,
                why="dealt face down without looking: nobody sees which card it is",
            )
        )
        return events, unseen_label(current)
    request = card_request(
        DECK,
        deck.unseen[current],
        _names(catalogue),
        purpose=f"damage card dealt face up to {ship.label}",
        rule=RULE,
        side=ship.side,
    )
    among = "damage cards nobody has seen"
    card, drawn = draw_card_event(dice, request, among=among)
    events.append(drawn)
    return events, card


def _reshuffle_named(deck: DeckState, dice: DiceSource, catalogue: DamageDeck) -> list[DomainEvent]:
    """SWA-DMG, named draws: the discard pile becomes the new deck. Its unseen cards are turned
    up and named first, each from the unseen cards of the deck it was dealt from; the last event
    is the reshuffle, listing the new deck's cards (all known) in the discard pile's order."""
    if not deck.discard:
        raise ScenarioError(
            "the damage deck and its discard pile are both empty: no card can be dealt", rule=RULE
        )
    pools = [Counter(cards) for cards in deck.unseen]
    events: list[DomainEvent] = []
    turned: list[str] = []
    for card in deck.discard:
        which = unseen_deck(card)
        if which is None or which >= len(pools):
            turned.append(card)
            continue
        request = card_request(
            DECK,
            pools[which],
            _names(catalogue),
            purpose="unseen damage card turned up from the discard pile to reshuffle it",
            rule=RULE,
            side=None,
        )
        among = "damage cards nobody has seen from the deck it was dealt from"
        name, drawn = draw_card_event(dice, request, among=among)
        pools[which][name] -= 1
        turned.append(name)
        events.append(drawn)
    events.append(DamageDeckShuffled(cards=turned, reason="reshuffle"))
    return events


def _apply_named(deck: DeckState, event: DomainEvent) -> DeckState:
    """:func:`apply_deck` for named draws."""
    if isinstance(event, DamageCardDealt) and deck.left > 0:
        unseen = deck.unseen
        if unseen_deck(event.card) is None and unseen and event.card in unseen[-1]:
            cards = list(unseen[-1])
            cards.remove(event.card)
            unseen = (*unseen[:-1], tuple(cards))
        return changed(deck, left=deck.left - 1, unseen=unseen)
    if isinstance(event, DamageDeckShuffled) and event.reason == "reshuffle":
        pools = [list(cards) for cards in deck.unseen]
        for old, new in zip(deck.discard, event.cards, strict=False):
            which = unseen_deck(old)
            if which is not None and which < len(pools) and new in pools[which]:
                pools[which].remove(new)
        new_deck = tuple(sorted(event.cards))
        return changed(
            deck,
            discard=(),
            left=len(event.cards),
            unseen=(*(tuple(p) for p in pools), new_deck),
        )
    if isinstance(event, UnitDestroyed) and event.cards:
        return discard_cards(deck, event.cards)
    return deck


def _top(deck: DeckState, dice: DiceSource) -> tuple[list[DomainEvent], str, DeckState]:
    """The top card, shuffling the discard pile into a new deck first when the deck is empty."""
    events: list[DomainEvent] = []
    if not deck.draw:
        if not deck.discard:
            raise ScenarioError(
                "the damage deck and its discard pile are both empty: no card can be dealt",
                rule=RULE,
            )
        _, faces = shuffle(deck.discard, dice)
        event = DamageDeckShuffled(
            cards=list(deck.discard), faces=list(faces), reason="reshuffle", next_die=dice.position
        )
        events.append(event)
        deck = apply_deck(deck, event)
    return events, deck.draw[0], deck


def apply_deck(deck: DeckState, event: DomainEvent) -> DeckState:
    """Fold one event into the deck: a shuffle, a card dealt from the top, a destroyed ship's
    cards to the discard pile. Other events leave it as it is."""
    if deck.named:
        return _apply_named(deck, event)
    if isinstance(event, DamageDeckShuffled):
        order = replay_shuffle(event.cards, event.faces)
        if event.reason == "setup":
            return DeckState(draw=order)
        return DeckState(draw=deck.draw + order, discard=())
    if isinstance(event, DamageCardDealt):
        if deck.draw and deck.draw[0] == event.card:
            return changed(deck, draw=deck.draw[1:])
        if event.card in deck.draw:  # not expected: the dealt card is always the top one
            i = deck.draw.index(event.card)
            return changed(deck, draw=deck.draw[:i] + deck.draw[i + 1 :])
        return deck
    if isinstance(event, UnitDestroyed) and event.cards:
        return discard_cards(deck, event.cards)
    return deck


def redact(event: DomainEvent, viewer: str | None) -> DomainEvent:
    """The event as ``viewer`` may see it (None: the umpire, everything). Face-down damage
    cards are hidden from every side, their owner included (RRG: players cannot look at them);
    so are the shuffle faces (the deck order) and a destroyed ship's cards."""
    if viewer is None:
        return event
    if isinstance(event, DamageDeckShuffled):
        return changed(event, faces=[])
    if isinstance(event, DamageCardDealt) and not event.face_up:
        return changed(event, card=HIDDEN_CARD)
    if isinstance(event, UnitDestroyed) and event.cards:
        return changed(event, cards=[HIDDEN_CARD] * len(event.cards))
    return event


# --------------------------------------------------------------------------- folding events


def _replace(
    items: tuple[DefenceToken, ...], i: int, token: DefenceToken
) -> tuple[DefenceToken, ...]:
    return (*items[:i], token, *items[i + 1 :])


SHIP_EVENTS: tuple[type[DomainEvent], ...] = (
    DamageSuffered,
    DamageRedirected,
    ShieldsLost,
    DamageCardDealt,
    DamageCardFlipped,
    DefenceTokenSpent,
    DefenceTokenDiscarded,
    CommNoiseResolved,
    UnitDestroyed,
)
"""The events :func:`apply_ship` may change a ship for (it returns the ship itself for any
other): a caller may skip building the ship's hull for the others."""


def apply_ship(ship: S, event: DomainEvent) -> S:
    """Fold one event into a ship's damage state (other ships' events leave it unchanged)."""
    match event:
        case DamageSuffered() if event.unit == ship.id and event.kind == "ship":
            if event.zone is not None and event.shields is not None:
                return changed(ship, shields={**ship.shields, event.zone: event.shields})
        case DamageRedirected() | ShieldsLost() if event.ship == ship.id:
            return changed(ship, shields={**ship.shields, event.zone: event.shields})
        case DamageCardDealt() if event.ship == ship.id:
            card = HeldCard(card=event.card, face_up=event.face_up)
            return changed(ship, cards=(*ship.cards, card))
        case DamageCardFlipped() if event.ship == ship.id:
            for i, held in enumerate(ship.cards):
                if held.card == event.card and held.face_up != event.face_up:
                    flipped = HeldCard(card=held.card, face_up=event.face_up)
                    return changed(ship, cards=(*ship.cards[:i], flipped, *ship.cards[i + 1 :]))
        case DefenceTokenSpent() if event.unit == ship.id and event.token < len(ship.tokens):
            token = token_in(event.kind, event.state)
            return changed(ship, tokens=_replace(ship.tokens, event.token, token))
        case DefenceTokenDiscarded() if event.unit == ship.id and event.token < len(ship.tokens):
            token = token_in(event.kind, "discarded")
            return changed(ship, tokens=_replace(ship.tokens, event.token, token))
        case CommNoiseResolved() if event.ship == ship.id and event.speed is not None:
            return changed(ship, speed=event.speed)
        case UnitDestroyed() if event.unit == ship.id:
            return changed(ship, destroyed=True)
    return ship


def apply_dealing(dealing: Dealing | None, event: DomainEvent) -> Dealing | None:
    """Fold one event into what is still owed (None: nothing owed or waiting)."""
    match event:
        case DamageSuffered() if event.kind == "ship" and event.cards > 0:
            if dealing is None or dealing.ship != event.unit:
                return Dealing(
                    ship=event.unit,
                    opponent=event.opponent,
                    due=event.cards,
                    face_up_next=event.face_up_first,
                    rule=event.rule,
                )
            return changed(
                dealing,
                due=dealing.due + event.cards,
                face_up_next=dealing.face_up_next or event.face_up_first,
            )
        case DamageCardDealt() if dealing is not None and event.ship == dealing.ship:
            pending, effect = dealing.pending, dealing.pending_effect
            if event.face_up and event.effect in WHEN_DEALT:
                pending, effect = event.card, event.effect
            due = max(0, dealing.due - 1)
            if due == 0 and pending is None:
                return None
            return changed(
                dealing, due=due, face_up_next=False, pending=pending, pending_effect=effect
            )
        case DamageCardFlipped() if dealing is not None and event.card == dealing.pending:
            if dealing.due == 0:
                return None
            return changed(dealing, pending=None, pending_effect=None)
        case UnitDestroyed() if dealing is not None and event.unit == dealing.ship:
            return None
    return dealing


# --------------------------------------------------------------------------- when dealt


@dataclass(frozen=True)
class _Context:
    ship: ShipHull
    dealing: Dealing
    card: str
    deck: DeckState
    dice: DiceSource
    catalogue: DamageDeck


@dataclass(frozen=True)
class WhenDealt:
    """A face-up card's effect when dealt: who chooses (``owner``/``opponent``, None: nobody),
    the legal choices (``options``: the full list; a single option or none acts at once) and
    what it does (``resolve``, before the card turns face down)."""

    chooser: Literal["owner", "opponent"] | None
    options: Callable[[ShipHull], list[BaseModel]]
    resolve: Callable[[_Context, BaseModel | None], list[DomainEvent]]
    listed: Callable[[ShipHull], list[BaseModel]] | None = None  # distinct choices only


def _no_options(ship: ShipHull) -> list[BaseModel]:
    return []


def _structural(ctx: _Context, choice: BaseModel | None) -> list[DomainEvent]:
    first = DamageSuffered(unit=ctx.ship.id, cards=1, opponent=ctx.dealing.opponent, rule=RULE)
    dealing = apply_dealing(ctx.dealing, first)
    assert dealing is not None
    return [first, *_deal_next(ctx.ship, dealing, ctx.deck, ctx.dice, ctx.catalogue)[0]]


def _token_options(ship: ShipHull) -> list[BaseModel]:
    return [
        DiscardDefenceToken(token=i) for i, t in enumerate(ship.tokens) if t.state != "discarded"
    ]


def _token_listed(ship: ShipHull) -> list[BaseModel]:
    seen: set[tuple[TokenKind, str]] = set()
    out: list[BaseModel] = []
    for i, t in enumerate(ship.tokens):
        if t.state != "discarded" and (t.kind, t.state) not in seen:
            seen.add((t.kind, t.state))
            out.append(DiscardDefenceToken(token=i))
    return out


def _injured_crew(ctx: _Context, choice: BaseModel | None) -> list[DomainEvent]:
    if not isinstance(choice, DiscardDefenceToken):
        return []
    token = ctx.ship.tokens[choice.token]
    return [
        DefenceTokenDiscarded(unit=ctx.ship.id, token=choice.token, kind=token.kind, card=ctx.card)
    ]


def _comm_options(ship: ShipHull) -> list[BaseModel]:
    out: list[BaseModel] = []
    if ship.speed > 0:
        out.append(SpeedOrDial(choice="speed"))
    if ship.dials > 0:
        out.extend(SpeedOrDial(choice="dial", command=c) for c in COMMANDS)
    if out:
        out.append(SpeedOrDial(choice="none"))
    return out


def _comm_noise(ctx: _Context, choice: BaseModel | None) -> list[DomainEvent]:
    if not isinstance(choice, SpeedOrDial) or choice.choice == "none":
        return [CommNoiseResolved(ship=ctx.ship.id, choice="none", card=ctx.card)]
    if choice.choice == "speed":
        return [
            CommNoiseResolved(
                ship=ctx.ship.id, choice="speed", speed=ctx.ship.speed - 1, card=ctx.card
            )
        ]
    return [
        CommNoiseResolved(ship=ctx.ship.id, choice="dial", command=choice.command, card=ctx.card)
    ]


def _strongest(ship: ShipHull) -> list[BaseModel]:
    most = max(ship.shields.values())
    if most == 0:
        return []
    return [LoseShieldsZone(zone=z) for z in ZONES if ship.shields[z] == most]


def _projector(ctx: _Context, choice: BaseModel | None) -> list[DomainEvent]:
    if not isinstance(choice, LoseShieldsZone):
        return []
    lost = ctx.ship.shields[choice.zone]
    return [ShieldsLost(ship=ctx.ship.id, zone=choice.zone, amount=lost, shields=0, card=ctx.card)]


def _strip_options(ship: ShipHull) -> list[BaseModel]:
    zones = [z for z in ZONES if ship.shields[z] > 0]
    if not zones:
        return []
    return [StripShields(zones=tuple(c)) for n in (2, 1, 0) for c in combinations(zones, n)]


def _shield_failure(ctx: _Context, choice: BaseModel | None) -> list[DomainEvent]:
    if not isinstance(choice, StripShields):
        return []
    return [
        ShieldsLost(
            ship=ctx.ship.id, zone=z, amount=1, shields=ctx.ship.shields[z] - 1, card=ctx.card
        )
        for z in choice.zones
    ]


WHEN_DEALT: dict[str, WhenDealt] = {
    "extra_facedown_damage": WhenDealt(None, _no_options, _structural),
    "discard_defense_token": WhenDealt("owner", _token_options, _injured_crew, _token_listed),
    "opponent_speed_or_dial": WhenDealt("opponent", _comm_options, _comm_noise),
    "strongest_zone_loses_shields": WhenDealt("owner", _strongest, _projector),
    "opponent_strips_shields": WhenDealt("opponent", _strip_options, _shield_failure),
}
"""The effects that act once when their card is dealt face up; the card then turns face down."""


# --------------------------------------------------------------------------- dealing


def _destroyed(ship: ShipHull) -> bool:
    return len(ship.cards) >= ship.hull


def _deal_next(
    ship: ShipHull, dealing: Dealing, deck: DeckState, dice: DiceSource, catalogue: DamageDeck
) -> tuple[list[DomainEvent], ShipHull]:
    """Deal the next owed card (shuffling the discards in first if the deck is empty); a ship
    that now holds as many cards as its hull is destroyed."""
    face_up = dealing.face_up_next
    if deck.named:
        events, card = _named_card(ship, face_up, deck, dice, catalogue)
    else:
        events, card, deck = _top(deck, dice)
    effect = effect_of(catalogue, card) if face_up else None
    dealt = DamageCardDealt(ship=ship.id, card=card, face_up=face_up, effect=effect)
    events.append(dealt)
    ship = apply_ship(ship, dealt)
    if _destroyed(ship):
        gone = UnitDestroyed(
            unit=ship.id, kind="ship", cards=[c.card for c in ship.cards], rule=RULE
        )
        events.append(gone)
        ship = apply_ship(ship, gone)
    return events, ship


def _fold(
    events: Sequence[DomainEvent], ship: S, dealing: Dealing | None, deck: DeckState
) -> tuple[S, Dealing | None, DeckState]:
    for event in events:
        ship = apply_ship(ship, event)
        dealing = apply_dealing(dealing, event)
        deck = apply_deck(deck, event)
    return ship, dealing, deck


def _flip(ship: ShipHull, card: str) -> DamageCardFlipped:
    return DamageCardFlipped(ship=ship.id, card=card, face_up=False)


def continue_dealing(
    ship: S, dealing: Dealing | None, *, deck: DeckState, dice: DiceSource, catalogue: DamageDeck
) -> Dealt[S]:
    """Deal what is owed, acting on face-up cards as they come, until nothing is owed, the
    ship is destroyed, or a face-up card waits for a player's choice."""
    events: list[DomainEvent] = []
    while dealing is not None and not ship.destroyed:
        if dealing.pending is not None and dealing.pending_effect is not None:
            handler = WHEN_DEALT[dealing.pending_effect]
            options = _listed(handler, ship)
            if len(options) > 1:
                break
            context = _Context(ship, dealing, dealing.pending, deck, dice, catalogue)
            new = handler.resolve(context, options[0] if options else None)
            ship_after = _fold(new, ship, dealing, deck)[0]
            if not ship_after.destroyed:
                new = [*new, _flip(ship, dealing.pending)]
        elif dealing.due > 0:
            new = _deal_next(ship, dealing, deck, dice, catalogue)[0]
        else:
            dealing = None
            break
        ship, dealing, deck = _fold(new, ship, dealing, deck)
        events.extend(new)
    return Dealt(events, ship, dealing, deck)


def _listed(handler: WhenDealt, ship: ShipHull) -> list[BaseModel]:
    return handler.listed(ship) if handler.listed is not None else handler.options(ship)


def chooser(ship: ShipHull, dealing: Dealing | None) -> str | None:
    """The side to choose for the face-up card that waits (its owner, or the opponent), or None
    when nothing waits."""
    if dealing is None or dealing.pending_effect is None:
        return None
    who = WHEN_DEALT[dealing.pending_effect].chooser
    if who is None:
        return None
    return ship.side if who == "owner" else dealing.opponent


def legal_choices(ship: ShipHull, dealing: Dealing | None) -> list[BaseModel]:
    """The distinct choices for the face-up card that waits (empty when nothing waits)."""
    if dealing is None or dealing.pending_effect is None:
        return []
    return _listed(WHEN_DEALT[dealing.pending_effect], ship)


def resolve_choice(
    ship: S,
    dealing: Dealing | None,
    choice: BaseModel,
    *,
    deck: DeckState,
    dice: DiceSource,
    catalogue: DamageDeck,
) -> Dealt[S]:
    """Resolve the waiting face-up card with a player's ``choice``, turn it face down and go on
    dealing (the caller checks that :func:`chooser` is the side giving it).

    Raises:
        IllegalCommand: no card waits, or the choice does not fit it (rule SWA-DMG).
    """
    if dealing is None or dealing.pending is None or dealing.pending_effect is None:
        raise IllegalCommand("no face-up damage card waits for a choice", rule=RULE)
    handler = WHEN_DEALT[dealing.pending_effect]
    allowed = handler.options(ship)
    if isinstance(choice, StripShields):
        same = [
            o for o in allowed if isinstance(o, StripShields) and set(o.zones) == set(choice.zones)
        ]
        ok = len(set(choice.zones)) == len(choice.zones) and bool(same)
    else:
        ok = choice in allowed
    if not ok:
        card = dealing.pending
        raise IllegalCommand(
            f"{choice.model_dump()} is not a legal choice for {card} ({dealing.pending_effect})",
            rule=RULE,
        )
    context = _Context(ship, dealing, dealing.pending, deck, dice, catalogue)
    new = handler.resolve(context, choice)
    ship_after, _, _ = _fold(new, ship, dealing, deck)
    if not ship_after.destroyed:
        new = [*new, _flip(ship, dealing.pending)]
    ship, dealing, deck = _fold(new, ship, dealing, deck)
    rest = continue_dealing(ship, dealing, deck=deck, dice=dice, catalogue=catalogue)
    return Dealt([*new, *rest.events], rest.ship, rest.dealing, rest.deck)


def deal_cards(
    ship: S,
    count: int,
    *,
    face_up: bool = False,
    opponent: str | None,
    deck: DeckState,
    dice: DiceSource,
    catalogue: DamageDeck,
    rule: str = RULE,
) -> Dealt[S]:
    """Deal ``count`` damage cards straight to the ship, the first face up when ``face_up``
    (an overlap: one face down, SWA-OVL; an asteroid field: one face up)."""
    if count <= 0 or ship.destroyed:
        return Dealt([], ship, None, deck)
    first = DamageSuffered(
        unit=ship.id, cards=count, face_up_first=face_up, opponent=opponent, rule=rule
    )
    ship, dealing, deck = _fold([first], ship, None, deck)
    rest = continue_dealing(ship, dealing, deck=deck, dice=dice, catalogue=catalogue)
    return Dealt([first, *rest.events], rest.ship, rest.dealing, rest.deck)


def suffer_damage(
    ship: S,
    zone: Zone,
    amount: int,
    *,
    face_up_first: bool = False,
    opponent: str | None,
    deck: DeckState,
    dice: DiceSource,
    catalogue: DamageDeck,
    rule: str = RULE,
) -> Dealt[S]:
    """The ship suffers ``amount`` damage on ``zone``: that zone's shields first, then one
    face-down damage card per point left (the first face up when ``face_up_first``: the
    standard critical effect). Used by the attack (SWA-ATK 5) and for damage outside attacks
    (the owner picks the zone: Ruptured Engine, Thruster Fissure, Crew Panic, a debris field)."""
    if ship.destroyed:
        return Dealt([], ship, None, deck)
    absorbed = min(max(amount, 0), ship.shields[zone])
    cards = max(amount, 0) - absorbed
    first = DamageSuffered(
        unit=ship.id,
        zone=zone,
        shields_lost=absorbed,
        shields=ship.shields[zone] - absorbed,
        cards=cards,
        face_up_first=face_up_first and cards > 0,
        opponent=opponent,
        rule=rule,
    )
    ship, dealing, deck = _fold([first], ship, None, deck)
    rest = continue_dealing(ship, dealing, deck=deck, dice=dice, catalogue=catalogue)
    return Dealt([first, *rest.events], rest.ship, rest.dealing, rest.deck)
