"""Setting up each battle: decks shuffled from the game's dice (ST-1.1), hands drawn or refilled to
8 (ST-1.2, ST-4.3), order cards (ST-1.2), drawing two at a time until a ship card shows (ST-1.7),
dropping out (ST-5.5); fleets formed face down (ST-1.3) and revealed (ST-1.9).

With named draws (a game whose header says ``cards: "named"``) no shuffle is recorded: each card
a player draws, and each order card, is asked of the game's chance source by name
(``domain.cards.draw_card_event``; at a table, the scribe enters the card drawn) and recorded
with its exact chance: (copies left in that player's deck) / (cards left), and 1/k for the next
order card among the k players not yet drawn. In a physical game made before named draws a
scribe names what was drawn in the order itself: the turn order and, per player, the cards in
the order drawn; they are checked against what the deck can still hold, and from then on the
deck's order is unknown (every later draw is named)."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

from domain.cards import card_request, draw_card_event, shuffle, shuffle_probability
from domain.dice import DiceSource
from domain.errors import IllegalCommand, InvalidCommand, NotYourTurn, WrongPhase
from domain.events import DomainEvent
from domain.reveals import SealedCommit, SealedItem, SealedReveal
from domain.rulesets.ships import events as ev
from domain.rulesets.ships.commands import CorrectFleet, FormFleet, RevealFleet, StartBattle
from domain.rulesets.ships.data import ShipCard
from domain.rulesets.ships.fleet import Fleet, fleet_content, fleet_text
from domain.rulesets.ships.flow import Emitter, end_game, step_done
from domain.rulesets.ships.placement import check_fleet
from domain.rulesets.ships.state import ShipsState
from domain.sealed import Commitment, verify_reveal
from domain.words import possessive


def has_ship(state: ShipsState, cards: tuple[str, ...] | list[str]) -> bool:
    index = state.data.cards.by_id()
    return any(isinstance(index.get(c), ShipCard) for c in cards)


class _Named:
    """The cards a scribe says a player drew, taken in order and checked against the deck."""

    def __init__(self, player: str, cards: list[str], deck: tuple[str, ...]) -> None:
        self.player = player
        self.cards = list(cards)
        self.left = Counter(deck)

    def take(self, n: int, rule: str) -> list[str]:
        got = self.cards[:n]
        if len(got) < n:
            raise IllegalCommand(
                f"{self.player} must draw {n} more card(s) here; {len(got)} named", rule=rule
            )
        self.cards = self.cards[n:]
        for card in got:
            if self.left[card] <= 0:
                raise IllegalCommand(
                    f"{possessive(self.player)} deck cannot hold another {card!r}", rule=rule
                )
            self.left[card] -= 1
        return got


_WHY = {"ST-1.2": "draw", "ST-4.3": "refill", "ST-1.7": "draw for a ship card"}


def _draw(
    em: Emitter, player: str, n: int, rule: str, named: _Named | None, dice: DiceSource
) -> list[str]:
    """Draw up to ``n`` from the top (as named in the order, or each by name from the chance
    source with named draws); an empty deck stops the draw (ST-5.5)."""
    p = em.state.players[player]
    k = min(n, len(p.deck))
    if em.state.named_cards:
        cards = _draw_named(em, player, k, rule, dice)
    else:
        cards = named.take(k, rule) if named is not None else list(p.deck[:k])
    if k or n:
        em.emit(ev.CardsDrawn(player=player, cards=cards, rule=rule, empty=k < n))
    return cards


def _draw_named(em: Emitter, player: str, k: int, rule: str, dice: DiceSource) -> list[str]:
    p = em.state.players[player]
    left = Counter(p.deck)
    names = {card.id: card.name for card in em.state.data.cards.cards}
    cards: list[str] = []
    for n in range(1, k + 1):
        request = card_request(
            f"{p.name}'s deck",
            left,
            names,
            purpose=f"{p.name}'s {_WHY[rule]}, card {n} of {k}",
            rule=rule,
            side=player,
            face_down=True,
        )
        card, drawn = draw_card_event(dice, request)
        em.emit(drawn)
        left[card] -= 1
        cards.append(card)
    return cards


def start_battle(
    state: ShipsState, side: str | None, cmd: StartBattle, dice: DiceSource
) -> Emitter:
    """The setup of the next battle, as one system step.

    Raises:
        WrongPhase: not between battles. InvalidCommand / IllegalCommand: named order or draws
        with computer-dealt cards, or ones that do not fit (ST-1.2, ST-4.3, ST-1.7).
    """
    if state.phase != "setup" or state.finished:
        raise WrongPhase("a battle is under way", rule="ST-4.3")
    named_mode = cmd.draws is not None or cmd.order is not None
    if named_mode and state.named_cards:
        raise InvalidCommand(
            "each card drawn (and each order card) is entered as a card drawn, not named in the "
            "order",
            rule="ST-1.2",
        )
    if named_mode and not state.physical:
        raise InvalidCommand(
            "the order and the draws come from the game's dice; naming them is for physical cards",
            rule="ST-1.2",
        )
    if state.physical and not state.deck_known and cmd.draws is None and not state.named_cards:
        raise InvalidCommand(
            "the deck order is not recorded (physical cards): name the cards drawn",
            rule="ST-4.3",
        )
    em = Emitter(state)
    battle = state.battle + 1
    em.emit(ev.BattleStarted(battle=battle))
    playing = [pid for pid in state.seating if not state.players[pid].out]
    draws = cmd.draws or {}
    unknown = set(draws) - set(playing)
    if unknown:
        raise InvalidCommand(f"no player(s) {sorted(unknown)} draw now", rule="ST-4.3")
    if battle == 1:
        for pid in state.seating:
            deck = next(d for d in state.data.decks.decks if d.id == state.players[pid].deck_id)
            full = deck.full()
            if cmd.draws is not None or state.named_cards:  # shuffled at the table
                em.emit(ev.DeckShuffled(player=pid, deck=full, known=False))
                continue
            start = dice.position
            _, faces = shuffle(full, dice)
            p = shuffle_probability(len(full))
            em.emit(
                ev.DeckShuffled(
                    player=pid,
                    deck=full,
                    faces=list(faces),
                    p_outcome=str(p),
                    odds=f"1/{len(full)}! for each order of {len(full)} cards (dice #{start}..)",
                    next_die=dice.position,
                )
            )
    namers = {
        pid: _Named(pid, draws[pid], em.state.players[pid].deck)
        for pid in playing
        if cmd.draws is not None
    }
    if cmd.draws is not None:
        for pid in playing:
            if pid not in draws:
                raise InvalidCommand(f"name the cards {pid} drew (an empty list if none)")
    refill_rule = "ST-1.2" if battle == 1 else "ST-4.3"
    size = state.scenario.hand_size
    for pid in playing:
        need = size - len(em.state.players[pid].hand)
        if need > 0:
            _draw(em, pid, need, refill_rule, namers.get(pid), dice)
    _order(em, playing, cmd, dice, battle)
    for pid in list(em.state.order):  # ST-1.7, in turn order
        while not has_ship(em.state, em.state.players[pid].hand) and em.state.players[pid].deck:
            _draw(em, pid, 2, "ST-1.7", namers.get(pid), dice)
        if not has_ship(em.state, em.state.players[pid].hand):
            em.emit(ev.PlayerDroppedOut(player=pid, vp=em.state.players[pid].vp))
    for pid, named in namers.items():
        if named.cards:
            raise IllegalCommand(
                f"{pid} drew only {len(draws[pid]) - len(named.cards)} card(s) here, not "
                f"{len(draws[pid])}",
                rule=refill_rule,
            )
    left = len(em.state.order)
    if left == 0 or (left < 2 and state.options.end_with_one_player):
        end_game(em, "fewer than two players can field a fleet", "ST-5.5")
        return em
    em.emit(ev.StepStarted(phase="formation", player=em.state.order[0], cursor=0, rule="ST-1.3"))
    return em


def _order(
    em: Emitter, playing: list[str], cmd: StartBattle, dice: DiceSource, battle: int
) -> None:
    """ST-1.2: order cards: a uniformly random order of the players (1/n! each)."""
    n = len(playing)
    p = str(Fraction(1, math.factorial(n)))
    odds = f"1/{n}! = {p} for each order of {n} players"
    if cmd.order is not None:
        if sorted(cmd.order) != sorted(playing):
            raise InvalidCommand(
                f"the order cards must order exactly {', '.join(playing)}", rule="ST-1.2"
            )
        em.emit(ev.TurnOrderDrawn(battle=battle, order=list(cmd.order), p_outcome=p, odds=odds))
        return
    if em.state.named_cards:
        em.emit(
            ev.TurnOrderDrawn(
                battle=battle, order=_order_named(em, playing, dice, battle), p_outcome=p, odds=odds
            )
        )
        return
    order, faces = shuffle(playing, dice)
    em.emit(
        ev.TurnOrderDrawn(
            battle=battle,
            order=list(order),
            faces=list(faces),
            p_outcome=p,
            odds=odds,
            next_die=dice.position,
        )
    )


def _order_named(em: Emitter, playing: list[str], dice: DiceSource, battle: int) -> list[str]:
    """ST-1.2 with named draws: the order cards drawn one after another, each naming the next
    player in turn order, 1/k for each of the k players not yet drawn (the last one is
    certain and not asked)."""
    names = {pid: em.state.players[pid].name for pid in playing}
    left = list(playing)
    order: list[str] = []
    while left:
        request = card_request(
            "order cards",
            left,
            names,
            purpose=f"battle {battle}: the player who acts {_ordinal(len(order) + 1)}",
            rule="ST-1.2",
            side=None,
        )
        pid, drawn = draw_card_event(dice, request, among="order cards left")
        em.emit(drawn)
        left.remove(pid)
        order.append(pid)
    return order


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def _check_turn(state: ShipsState, side: str | None, phase: str, rule: str) -> str:
    if state.phase != phase:
        raise WrongPhase(f"this is not the {phase} step (now: {state.phase})", rule=rule)
    active = state.active
    if side is None or side != active:
        raise NotYourTurn(
            f"it is {possessive(active)} turn to act, not {possessive(side or 'the umpire')}",
            rule=rule,
        )
    return side


def form_fleet(state: ShipsState, side: str | None, cmd: FormFleet) -> Emitter:
    """ST-1.3: place the fleet face down, in turn order: a sealed commitment (with the fleet
    itself when the player gives it: checked against the digest and the placement rules now).

    Raises:
        WrongPhase, NotYourTurn: not this player's formation step. InvalidCommand /
        IllegalCommand: a fleet without its salt, one that does not open the digest, or one the
        placement rules forbid (ST-1.4–1.8).
    """
    player = _check_turn(state, side, "formation", "ST-1.3")
    _check_given(state, player, cmd.digest, cmd.fleet, cmd.salt)
    em = Emitter(state)
    em.emit(ev.FleetCommitted(player=player, digest=cmd.digest, fleet=cmd.fleet))
    step_done(em)
    return em


def _check_given(
    state: ShipsState, player: str, digest: str, fleet: Fleet | None, salt: str | None
) -> None:
    """A fleet given with its seal: it must open the digest and be legal (ST-1.3–1.8)."""
    if (fleet is None) != (salt is None):
        raise InvalidCommand("give the fleet with its salt, or neither", rule="ST-1.3")
    if fleet is not None and salt is not None:
        content = fleet_content(player, state.battle, fleet)
        if not verify_reveal(Commitment(digest=digest), content, salt):
            raise IllegalCommand("the fleet given does not open the digest", rule="ST-1.3")
        check_fleet(state, player, fleet)


def _opens(state: ShipsState, player: str, fleet: Fleet, salt: str) -> None:
    """ST-1.9: ``fleet`` and ``salt`` must open the player's face-down fleet."""
    digest = state.sealed.get(player, "")
    content = fleet_content(player, state.battle, fleet)
    if not digest or not verify_reveal(Commitment(digest=digest), content, salt):
        raise IllegalCommand(
            f"this is not the fleet {player} placed face down (it does not open the "
            f"commitment {digest[:12]}…)",
            rule="ST-1.9",
        )


def reveal_fleet(state: ShipsState, side: str | None, cmd: RevealFleet) -> Emitter:
    """ST-1.9: turn the fleet face up: it must be the fleet sealed and a legal one; after the
    last reveal every fleet goes onto the table together.

    Raises:
        WrongPhase, NotYourTurn: not this player's reveal step. IllegalCommand: the fleet does
        not open the commitment (ST-1.9), or breaks ST-1.3–1.8.
    """
    player = _check_turn(state, side, "reveal", "ST-1.9")
    _opens(state, player, cmd.fleet, cmd.salt)
    try:
        check_fleet(state, player, cmd.fleet)
    except IllegalCommand as broken:
        raise IllegalCommand(
            f"{broken.message}: this fleet cannot be placed; show it and seal a legal one again "
            "with correct_fleet (this fleet, its salt and the new seal)",
            rule=broken.rule,
        ) from None
    em = Emitter(state)
    em.emit(ev.FleetRevealed(player=player, fleet=cmd.fleet, salt=cmd.salt))
    step_done(em)
    return em


def correct_fleet(state: ShipsState, side: str | None, cmd: CorrectFleet) -> Emitter:
    """ST-1.9 / ST-1.3: the fleet sealed breaks the placement rules, so it cannot be revealed;
    the player shows it and places a fleet face down again, recorded as a correction
    (:class:`.events.FleetCorrected`, then ``FleetCommitted``). The reveal step stays this
    player's: it reveals the new fleet next. A game with physical cards, whose scribe seals a
    digest alone, can always go on.

    Raises:
        WrongPhase, NotYourTurn: not this player's reveal step. IllegalCommand: the fleet shown
        does not open the seal (ST-1.9), or it is a legal fleet (reveal it instead); a new
        fleet given that does not open the new digest or is not legal (ST-1.3–1.8).
    """
    player = _check_turn(state, side, "reveal", "ST-1.9")
    _opens(state, player, cmd.fleet, cmd.salt)
    try:
        check_fleet(state, player, cmd.fleet)
    except IllegalCommand as broken:
        reason, rule = broken.message, broken.rule or "ST-1.3"
    else:
        raise IllegalCommand(
            f"the fleet {player} placed face down is a legal one: reveal it (reveal_fleet)",
            rule="ST-1.9",
        )
    _check_given(state, player, cmd.digest, cmd.new_fleet, cmd.new_salt)
    em = Emitter(state)
    em.emit(
        ev.FleetCorrected(player=player, fleet=cmd.fleet, salt=cmd.salt, reason=reason, rule=rule)
    )
    em.emit(ev.FleetCommitted(player=player, digest=cmd.digest, fleet=cmd.new_fleet))
    return em


def sealed_items(state: ShipsState, event: DomainEvent) -> list[SealedItem]:
    """ST-1.3: the fleet a ``FleetCommitted`` places face down; ST-1.9: the fleet a
    ``FleetRevealed`` turns up, or a ``FleetCorrected`` shows (sealed for this battle, the
    state's before the reveal)."""
    if isinstance(event, ev.FleetCommitted):
        return [SealedCommit(event.digest, f"{event.player} fleet (battle {state.battle})")]
    if isinstance(event, ev.FleetRevealed | ev.FleetCorrected):
        content = fleet_content(event.player, state.battle, event.fleet)
        return [SealedReveal(content, event.salt, fleet_text(event.fleet))]
    return []
