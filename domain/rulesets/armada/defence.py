"""Armada defence tokens (SWA-DEF): their states and what each one does, as pure functions.

A token is ready, exhausted or discarded. Spending a ready token exhausts it; spending an
exhausted one discards it; a discarded token is gone for the game (readying in the Status Phase,
SWA-4, turns exhausted tokens ready again). What each type does:

* **Brace**: the damage total is halved, rounding up (:func:`braced`).
* **Redirect**: after totalling, part of the damage may go to the shields of one hull zone
  adjacent to the defending zone (ships only).
* **Evade**: per :func:`evade_effect`, under either reading of the option ``evade``:
  ``rrg_1_6`` (default, Rules Reference 1.6): cancel one die at long range, reroll one at medium
  and close range and at distance 1–2; a ship defending against a ship of a larger size class may
  cancel or reroll one more die, and then the token is discarded whether it was ready or exhausted.
  ``ltp_2015`` (the 2015 core-set text): cancel one die at long range, reroll one at medium, no
  effect at close range or distance 1 (spending it there is refused), no size-class bonus.
* **Contain**: the attacker may not resolve the standard critical effect (ships only).
* **Scatter**: every attack die is cancelled.
* **Salvo** is a later ship type's counter-attack, not in the core set: refused.

Which token may be spent in an attack (one of each type, none locked by an accuracy, none at
speed 0) is checked by :func:`check_spend`; the attack pipeline (:mod:`.attack`) applies the
effects to its dice and damage.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict

from domain.errors import IllegalCommand, InvalidCommand
from domain.rulesets.armada.data import DefenseToken, RangeBand, SizeClass

TokenKind = DefenseToken
TokenState = Literal["ready", "exhausted", "discarded"]
EvadeReading = Literal["rrg_1_6", "ltp_2015"]
EVADE_READINGS: tuple[EvadeReading, ...] = ("rrg_1_6", "ltp_2015")
RULE = "SWA-DEF"

SIZE_ORDER: dict[SizeClass, int] = {"small": 0, "medium": 1, "large": 2}
"""Size classes from smallest to largest (RRG "Size Class")."""

SHIP_ONLY: frozenset[TokenKind] = frozenset({"redirect", "contain", "salvo"})
"""Token types whose effect needs a defending ship (hull zones, critical effects)."""


class DefenceToken(BaseModel):
    """One defence token of a ship or unique squadron (SWA-DEF)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: TokenKind
    state: TokenState = "ready"


_TOKENS: dict[tuple[str, str], DefenceToken] = {}


def token_in(kind: TokenKind, state: TokenState) -> DefenceToken:
    """``DefenceToken(kind=kind, state=state)``, one shared (frozen) model per kind and state:
    folding a token spent builds one per event, and there are a few dozen pairs in all.

    Raises:
        pydantic.ValidationError: not a token kind or state (nothing kept).
    """
    found = _TOKENS.get((kind, state))
    if found is None:
        found = _TOKENS[(kind, state)] = DefenceToken(kind=kind, state=state)
    return found


def starting_tokens(kinds: Iterable[TokenKind]) -> tuple[DefenceToken, ...]:
    """The tokens printed on a card, all ready, as at setup (SWA-DEF)."""
    return tuple(DefenceToken(kind=kind) for kind in kinds)


def state_after_spending(token: DefenceToken) -> TokenState:
    """A ready token becomes exhausted, an exhausted one discarded (SWA-DEF).

    Raises:
        ValueError: the token is already discarded.
    """
    if token.state == "ready":
        return "exhausted"
    if token.state == "exhausted":
        return "discarded"
    raise ValueError(f"a discarded {token.kind} token cannot be spent")


def readied(token: DefenceToken) -> DefenceToken:
    """The token after the Status Phase (SWA-4): exhausted turns ready, discarded stays."""
    return DefenceToken(kind=token.kind, state="ready") if token.state == "exhausted" else token


def braced(total: int) -> int:
    """Brace: the damage total halved, rounding up (SWA-DEF)."""
    return (total + 1) // 2


def larger(attacker: SizeClass, defender: SizeClass) -> bool:
    """True when the attacker is of a larger size class than the defender."""
    return SIZE_ORDER[attacker] > SIZE_ORDER[defender]


@dataclass(frozen=True)
class EvadeEffect:
    """What an Evade may do in this attack: ``cancel`` or ``reroll`` one die; with ``extra``
    one more die the same way, after which the token is discarded (RRG 1.6 size-class rule)."""

    action: Literal["cancel", "reroll"]
    extra: bool = False


def evade_effect(
    *,
    reading: EvadeReading,
    attack_range: RangeBand,
    distance: int | None,
    attacker_size: SizeClass | None,
    defender_size: SizeClass | None,
) -> EvadeEffect | None:
    """The Evade effect for this attack, or None when the token has no effect (SWA-DEF).

    ``attack_range`` is the range band of the attack (a squadron's attack at distance 1 is at
    close range); ``distance`` the distance band when known (squadron attacks: 1).
    ``attacker_size``/``defender_size`` are None for squadrons: the size-class bonus is for a
    ship defending against a larger ship.
    """
    if reading == "ltp_2015":
        if attack_range == "close" or distance == 1:
            return None
        return EvadeEffect("cancel" if attack_range == "long" else "reroll")
    near = distance is not None and distance <= 2
    action: Literal["cancel", "reroll"] = (
        "cancel" if attack_range == "long" and not near else "reroll"
    )
    extra = (
        attacker_size is not None
        and defender_size is not None
        and larger(attacker_size, defender_size)
    )
    return EvadeEffect(action, extra)


def check_spend(
    tokens: Sequence[DefenceToken],
    index: int,
    *,
    spent: Collection[TokenKind],
    locked: Collection[int],
    speed: int | None,
    ship: bool,
    may_spend_exhausted: bool = True,
) -> DefenceToken:
    """The token at ``index`` if the defender may spend it now; otherwise refuse (SWA-DEF).

    ``spent`` are the types already spent in this attack, ``locked`` the token indices chosen
    with accuracy icons (SWA-ATK 3), ``speed`` the defending ship's speed (None for a squadron),
    ``ship`` whether the defender is a ship; ``may_spend_exhausted`` is False under Faulty
    Countermeasures (SWA-DMG).

    Raises:
        InvalidCommand: no token at that index.
        IllegalCommand: the rules forbid spending it (rule SWA-DEF, or SWA-ATK 3 for a token
            locked by an accuracy).
    """
    if not 0 <= index < len(tokens):
        raise InvalidCommand(f"the defender has no defence token #{index}", rule=RULE)
    token = tokens[index]
    if speed == 0:
        raise IllegalCommand("a ship at speed 0 cannot spend defence tokens", rule=RULE)
    if token.state == "discarded":
        raise IllegalCommand(f"defence token #{index} ({token.kind}) is discarded", rule=RULE)
    if index in locked:
        raise IllegalCommand(
            f"defence token #{index} ({token.kind}) was chosen with an accuracy icon and cannot "
            "be spent in this attack",
            rule="SWA-ATK 3",
        )
    if token.kind in spent:
        raise IllegalCommand(
            f"a {token.kind} token was already spent in this attack (one of each type)", rule=RULE
        )
    if token.kind == "salvo":
        raise IllegalCommand("Salvo is not part of the core set and is not implemented", rule=RULE)
    if token.kind in SHIP_ONLY and not ship:
        raise IllegalCommand(f"a squadron cannot use a {token.kind} token", rule=RULE)
    if token.state == "exhausted" and not may_spend_exhausted:
        raise IllegalCommand(
            f"exhausted defence tokens cannot be spent (Faulty Countermeasures): #{index}",
            rule="SWA-DMG",
        )
    return token
