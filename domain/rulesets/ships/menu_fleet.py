"""A SHIPS & TACTICS fleet formed face down from a scribe's menu (ST-1.3-1.9, issue 20).

Each card of the side's hand that can go into a fleet (a ship, an aircraft, a character) is one
secret field of the sealed order: where the card goes. A ship goes into the vanguard or the
rearguard box, an aircraft aboard a ship, a character aboard a ship or flying an aircraft; by
default a card stays in hand. :func:`seal` builds the fleet from those places (in the order the
bot builds its own: the same fleet seals the same whoever made it), checks it against the
placement rules at once (ST-1.3-1.8) and seals it with the salt the bot would use from the
state the scribe passes, the side's own secret: the order carries the digest alone, so the
fleet is in no record and on no other page before the reveal.

At the reveal :func:`open_fleet` finds the fleet again: the one given with its seal (the bot's,
a computer player's), else by trying every fleet these fields can build from the hand with the
derived salt. Nobody without the side's secret can open it that way.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import orjson

from domain.errors import IllegalCommand, InvalidCommand, NotYourTurn, WrongPhase
from domain.rulesets.ships.bot import bot_salt, fleet_seal, ship_rank
from domain.rulesets.ships.commands import FormFleet
from domain.rulesets.ships.data import AircraftCard, CharacterCard, ShipCard
from domain.rulesets.ships.fleet import Fleet
from domain.rulesets.ships.placement import check_fleet
from domain.rulesets.ships.state import ShipsState
from domain.scribe.menu import MenuChoice, MenuField, MenuOrder, check_value

Kind = Literal["ship", "aircraft", "character"]
VANGUARD, REARGUARD, HAND = "vanguard", "rearguard", "hand"
#: Fleets tried at most when opening a seal by search (far above any hand of the bundled decks)
MAX_TRIES = 200_000


@dataclass(frozen=True)
class HandCard:
    """A card of the hand that can go into a fleet, at its place in the hand."""

    index: int
    card: str
    kind: Kind
    name: str  # the card's name, numbered when the hand holds several copies

    @property
    def field(self) -> str:
        return f"hand{self.index}"


def hand_cards(state: ShipsState, player: str) -> list[HandCard]:
    """The ships, aircraft and characters of ``player``'s hand, in hand order."""
    cards = state.data.cards.by_id()
    hand = state.players[player].hand
    copies = Counter(hand)
    seen: Counter[str] = Counter()
    out: list[HandCard] = []
    for i, card_id in enumerate(hand):
        card = cards.get(card_id)
        kind: Kind
        if isinstance(card, ShipCard):
            kind = "ship"
        elif isinstance(card, AircraftCard):
            kind = "aircraft"
        elif isinstance(card, CharacterCard):
            kind = "character"
        else:
            continue
        seen[card_id] += 1
        name = card.name if copies[card_id] == 1 else f"{card.name} (copy {seen[card_id]})"
        out.append(HandCard(i, card_id, kind, name))
    return out


def _on_ship(j: int) -> str:
    return f"ship{j}"


def _on_aircraft(j: int) -> str:
    return f"aircraft{j}"


# --------------------------------------------------------------------------- the menu order


def fleet_order(state: ShipsState, player: str) -> MenuOrder:
    """The sealed order that places ``player``'s fleet face down (ST-1.3): one secret field
    per hand card that can go into it, each choice one some legal fleet takes."""
    cards = state.data.cards.by_id()
    held = hand_cards(state, player)
    ships = [h for h in held if h.kind == "ship"]
    carriers = [h for h in ships if _may_carry(state, h, ships)]
    fields: list[MenuField] = []
    for h in held:
        if h.kind == "ship":
            fields.append(_ship_field(state, h, ships))
            continue
        choices = [MenuChoice(value=_on_ship(c.index), label=f"Aboard {c.name}") for c in carriers]
        if h.kind == "character":
            choices = [MenuChoice(value=_on_ship(c.index), label=f"Aboard {c.name}") for c in ships]
            choices += [
                MenuChoice(value=_on_aircraft(a.index), label=f"Flying {a.name}")
                for a in held
                if a.kind == "aircraft" and carriers
            ]
        if not choices:
            continue  # an aircraft with no ship in hand to carry it stays in hand
        choices.append(MenuChoice(value=HAND, label="Stays in hand"))
        card = cards[h.card]
        fields.append(
            MenuField(
                name=h.field,
                label=f"{h.name} ({h.kind})",
                choices=choices,
                optional=True,
                default=HAND,
                secret=True,
                help=_card_help(card),
            )
        )
    per_box = state.options.ships_per_box
    boxes = "one ship card" if per_box == 1 else f"up to {per_box} ship cards"
    return MenuOrder(
        key="form_fleet",
        type="form_fleet",
        label="Place your fleet face down",
        side=player,
        fields=fields,
        sealed=True,
        rule="ST-1.3",
        help=(
            f"Each box holds {boxes}; a vanguard ship is required (ST-1.8). Aircraft go aboard "
            "a ship up to its capacity (ST-1.5), characters aboard a ship or flying an "
            "aircraft (ST-1.6). Only you see your choices until the reveal (ST-1.9)."
        ),
    )


def _ship_field(state: ShipsState, h: HandCard, ships: list[HandCard]) -> MenuField:
    cards = state.data.cards.by_id()
    card = cards[h.card]
    joins = card.combines_with
    # the rearguard needs another ship for the vanguard that does not join this one (ST-1.8)
    rear = any(o.index != h.index and o.card != joins for o in ships)
    alone = len(ships) == 1
    choices = [MenuChoice(value=VANGUARD, label="Vanguard box")]
    if rear:
        choices.append(MenuChoice(value=REARGUARD, label="Rearguard box"))
    if not alone:
        choices.append(MenuChoice(value=HAND, label="Stays in hand"))
    return MenuField(
        name=h.field,
        label=f"{h.name} (ship)",
        choices=choices,
        optional=not alone,
        default=VANGUARD if alone else HAND,
        secret=True,
        help=_card_help(card),
    )


def _may_carry(state: ShipsState, h: HandCard, ships: list[HandCard]) -> bool:
    """Whether aircraft may go aboard this ship card in some legal fleet: it carries some
    itself, or a ship card in hand it joins does (ST-1.5, ST-5.4)."""
    cards = state.data.cards.by_id()
    if cards[h.card].capacity > 0:
        return True
    return any(
        o.index != h.index and cards[o.card].combines_with == h.card and cards[o.card].capacity > 0
        for o in ships
    )


def _card_help(card: Any) -> str:
    if isinstance(card, ShipCard):
        carries = f", carries {card.capacity} aircraft" if card.capacity else ""
        joins = ""
        if card.combines_with:
            joins = "; with the ship it joins in the fleet, one ship (ST-5.4)"
        return (
            f"VP {card.vp}, hull {card.hull}, armour {card.armour}, guns long/medium/short "
            f"{card.guns.long}/{card.guns.medium}/{card.guns.short}{carries}{joins}"
        )
    if isinstance(card, AircraftCard):
        return f"attack {card.attack}, dogfight {card.dogfight}"
    if isinstance(card, CharacterCard):
        values = {
            "melee": card.melee,
            "ship-handling": card.ship_handling,
            "pilot": card.pilot,
            "gunnery": card.gunnery,
        }
        return ", ".join(f"{k} {v}" for k, v in values.items() if v) or "no values"
    return ""


# --------------------------------------------------------------------------- building a fleet


def build(state: ShipsState, player: str, places: Mapping[int, str]) -> Fleet:
    """The fleet the ``places`` (hand index -> where the card goes) make: the ships of a box in
    the bot's order (:func:`bot.ship_rank`), one that joins another (ST-5.4) last; aircraft
    and characters in hand order, as the bot places its own.

    Raises:
        IllegalCommand: an aircraft or a character aboard a card that stays in hand.
    """
    return Fleet.model_validate(_plain(state, player, places))


def _plain(state: ShipsState, player: str, places: Mapping[int, str]) -> dict[str, Any]:
    cards = state.data.cards.by_id()
    hand = state.players[player].hand
    boxed = {i: p for i, p in sorted(places.items()) if p in (VANGUARD, REARGUARD)}
    joining = _joining(state, hand, boxed)
    plans: dict[int, dict[str, Any]] = {
        i: {"card": hand[i], "characters": [], "aircraft": []} for i in boxed
    }
    planes: dict[int, dict[str, Any]] = {}
    for i, place in sorted(places.items()):
        if not isinstance(cards.get(hand[i]), AircraftCard) or place == HAND:
            continue
        host = plans.get(_index(place, "ship"))
        if host is None:
            raise IllegalCommand(
                f"{cards[hand[i]].name} goes aboard a ship left in hand", rule="ST-1.5"
            )
        planes[i] = {"card": hand[i], "characters": []}
        host["aircraft"].append(planes[i])
    for i, place in sorted(places.items()):
        if not isinstance(cards.get(hand[i]), CharacterCard) or place == HAND:
            continue
        seat = (
            plans.get(_index(place, "ship"))
            if place.startswith("ship")
            else planes.get(_index(place, "aircraft"))
        )
        if seat is None:
            raise IllegalCommand(
                f"{cards[hand[i]].name} goes aboard a card left in hand", rule="ST-1.6"
            )
        seat["characters"].append(hand[i])
    ranked = sorted(boxed, key=lambda i: (i in joining, ship_rank(cards[hand[i]]), i))
    return {box: [plans[i] for i in ranked if boxed[i] == box] for box in (VANGUARD, REARGUARD)}


def _index(place: str, prefix: str) -> int:
    if not place.startswith(prefix) or not place[len(prefix) :].isdigit():
        return -1
    return int(place[len(prefix) :])


def _joining(state: ShipsState, hand: tuple[str, ...], boxed: Mapping[int, str]) -> set[int]:
    """Hand indexes of the placed ships that join another placed ship (ST-5.4): for each ship
    that combines with a card, the first such card placed (vanguard first, then rearguard)."""
    cards = state.data.cards.by_id()
    taken: set[int] = set()
    for box in (VANGUARD, REARGUARD):
        for i in [j for j in boxed if boxed[j] == box]:
            wanted = cards[hand[i]].combines_with
            if wanted is None or i in taken:
                continue
            for other in (VANGUARD, REARGUARD):
                found = next(
                    (
                        j
                        for j in boxed
                        if boxed[j] == other and hand[j] == wanted and j != i and j not in taken
                    ),
                    None,
                )
                if found is not None:
                    taken.add(found)
                    break
    return taken


def places_from(order: MenuOrder, values: Mapping[str, Any]) -> dict[int, str]:
    """The place of each hand card the ``values`` give (a field left unset: its default).

    Raises:
        InvalidCommand: a value the order does not offer.
    """
    unknown = set(values) - {f.name for f in order.fields}
    if unknown:
        raise InvalidCommand(f"the fleet has no field {sorted(unknown)[0]}", rule="ST-1.3")
    places: dict[int, str] = {}
    for field in order.fields:
        raw = values.get(field.name)
        value = check_value(field, field.default if raw is None else raw, values)
        places[int(field.name.removeprefix("hand"))] = str(value)
    return places


def seal(
    state: ShipsState, player: str | None, order: MenuOrder, values: Mapping[str, Any]
) -> FormFleet:
    """The order that places ``player``'s fleet face down: its digest alone, sealed with the
    salt the bot derives from ``state`` (for a scribe's side, from its own secret).

    Raises:
        WrongPhase / NotYourTurn: not this player's formation step. InvalidCommand: a value
        the menu does not offer. IllegalCommand: a fleet the placement rules forbid (ST-1.3-1.8).
    """
    if state.phase != "formation":
        raise WrongPhase(f"this is not the formation step (now: {state.phase})", rule="ST-1.3")
    if player is None or player != state.active:
        raise NotYourTurn(f"it is {state.active}'s turn to place a fleet", rule="ST-1.3")
    if order.type != "form_fleet":
        raise InvalidCommand(f"{order.label} is not a sealed order", rule="ST-1.3")
    fleet = build(state, player, places_from(fleet_order(state, player), values))
    check_fleet(state, player, fleet)
    digest, _ = fleet_seal(state, player, fleet)
    return FormFleet(digest=digest)


# --------------------------------------------------------------------------- opening it again


def open_fleet(state: ShipsState, player: str) -> tuple[Fleet, str] | None:
    """The fleet ``player`` placed face down and its salt, when ``state`` (with the side's own
    secret) opens its seal: the fleet given with the seal (a computer player's, the bot's), or
    else one of the fleets this menu builds from the hand. None when nothing opens it."""
    digest = state.sealed.get(player)
    if digest is None:
        return None
    salt = bot_salt(state, player)
    given = state.planned.get(player)
    if given is not None and fleet_seal(state, player, given)[0] == digest:
        return given, salt
    hand = state.players[player].hand
    key = orjson.dumps([digest, salt, player, state.battle, hand]).decode()
    if key not in _FOUND:
        if len(_FOUND) >= 64:
            _FOUND.clear()
        _FOUND[key] = _search(state, player, digest)
    found = _FOUND[key]
    return (found, salt) if found is not None else None


_FOUND: dict[str, Fleet | None] = {}  # what a search found, by seal, salt, hand and battle


def _search(state: ShipsState, player: str, digest: str) -> Fleet | None:
    """The fleet among those the menu builds whose seal is ``digest`` (tried in order, at most
    :data:`MAX_TRIES`)."""
    for _, plain in itertools.islice(placements(state, player), MAX_TRIES):
        if fleet_seal(state, player, plain)[0] == digest:
            return Fleet.model_validate(plain)
    return None


def placements(state: ShipsState, player: str) -> Iterator[tuple[dict[int, str], dict[str, Any]]]:
    """Every fleet the menu's fields can build from ``player``'s hand and the placement rules
    allow, each once, with the places that build it (hand index -> place) and its JSON form:
    ships into boxes, then aircraft aboard, then characters."""
    held = hand_cards(state, player)
    ships = [h.index for h in held if h.kind == "ship"]
    planes = [h.index for h in held if h.kind == "aircraft"]
    chars = [h.index for h in held if h.kind == "character"]
    seen: set[bytes] = set()
    for boxes in itertools.product((VANGUARD, REARGUARD, HAND), repeat=len(ships)):
        boxed = {i: b for i, b in zip(ships, boxes, strict=True) if b != HAND}
        if not _new(state, player, boxed, seen, "ships") or not _legal(state, player, boxed):
            continue
        for aboard in itertools.product([HAND, *map(_on_ship, boxed)], repeat=len(planes)):
            places = {**boxed, **dict(zip(planes, aboard, strict=True))}
            # copies of a card placed alike make one fleet: characters are tried once on it
            if not _new(state, player, places, seen, "aircraft"):
                continue
            if not _legal(state, player, places):
                continue
            flying = [a for a, p in zip(planes, aboard, strict=True) if p != HAND]
            spots = [HAND, *map(_on_ship, boxed), *map(_on_aircraft, flying)]
            for where in itertools.product(spots, repeat=len(chars)):
                full = {**places, **dict(zip(chars, where, strict=True))}
                plain = _plain(state, player, full)
                if not chars or _new_plain(plain, seen):
                    yield full, plain


def _new(
    state: ShipsState, player: str, places: Mapping[int, str], seen: set[bytes], stage: str
) -> bool:
    return _new_plain({stage: _plain(state, player, places)}, seen)


def _new_plain(plain: Mapping[str, Any], seen: set[bytes]) -> bool:
    key = orjson.dumps(plain)
    if key in seen:
        return False
    seen.add(key)
    return True


def _legal(state: ShipsState, player: str, places: Mapping[int, str]) -> bool:
    """Whether ships and aircraft so placed break no placement rule (characters break none)."""
    try:
        check_fleet(state, player, build(state, player, places))
    except IllegalCommand:
        return False
    return True
