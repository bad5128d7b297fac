"""Throw dice for a rule and record the result as a ``DiceRolled`` event with exact odds.

These helpers join the rules-free dice module to the event model: a ruleset says what is rolled,
against what, under which rule and with which modifiers; the helper throws the dice from the game's
dice source and returns the event, odds included. Nothing here knows any particular rule system.

A pool of custom-face dice (the Armada dice) is recorded in the same ``DiceRolled`` shape:
:func:`pool_roll` writes the pool as text (``"2armada-red+armada-blue"``, see
:func:`pool_expression`), the faces as face numbers in throw order, the pool's score (e.g. damage)
as the total, and as odds the chance of scoring at least that much and the expected score.
:func:`parse_pool` and :func:`roll_icons` read the dice and their icons back from the record.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, cast

from domain.dice import (
    CUSTOM_DICE,
    CustomDie,
    DiceError,
    DiceSource,
    Die,
    Distribution,
    Expr,
    Modifier,
    apply_modifiers,
    expected,
    modified_distribution,
    p_at_least,
    p_event,
    p_greater,
    parse,
    pool_distribution,
    throw,
    throw_pool,
)
from domain.events import DiceRolled, ModifierRecord, RollRecord


@dataclass(frozen=True)
class DiceAnnouncement:
    """The dice a throw is about to draw, in drawing order, and why (see :func:`_announce`)."""

    purpose: str
    rule: str
    groups: tuple[tuple[str | None, str, tuple[Die | CustomDie, ...]], ...]

    @property
    def count(self) -> int:
        return sum(len(group) for _, _, group in self.groups)


def _expr(expression: Expr | str) -> Expr:
    return parse(expression) if isinstance(expression, str) else expression


def _throw(
    dice: DiceSource,
    expr: Expr,
    side: str | None,
    modifiers: Sequence[Modifier],
    floor: int | None,
) -> RollRecord:
    faces, natural = throw(expr, dice)
    return RollRecord(
        side=side,
        expression=str(expr),
        faces=list(faces),
        natural=natural,
        modifiers=[ModifierRecord(value=m.value, rule=m.rule, reason=m.reason) for m in modifiers],
        floor=floor,
        total=apply_modifiers(natural, modifiers, floor),
    )


def _frac(value: Fraction | int) -> str:
    return str(Fraction(value))


def _announce(
    dice: DiceSource,
    purpose: str,
    rule: str,
    groups: Sequence[tuple[str | None, str, Sequence[Die | CustomDie]]],
) -> None:
    """Tell a source that can listen (the scribe's, which asks a table for physical dice) which
    dice the next throw needs and why, before any is drawn: ``groups`` are (side, role, dice),
    e.g. the attacker's pool and the defender's in an opposed roll. Other sources have no
    ``announce`` and are not told."""
    announce = getattr(dice, "announce", None)
    if announce is not None:
        announce(
            DiceAnnouncement(
                purpose=purpose,
                rule=rule,
                groups=tuple((side, role, tuple(group)) for side, role, group in groups),
            )
        )


# Exact odds are computed once per distinct roll (expression, modifiers' sum, floor, target):
# a game throws the same few rolls again and again, and Fraction arithmetic is slow.


@lru_cache(maxsize=4096)
def _p_at_least(expr: Any, shift: int, floor: int | None, target: int) -> Fraction:
    return p_at_least(modified_distribution(expr, [Modifier(shift, "", "")], floor), target)


@lru_cache(maxsize=4096)
def _p_opposed(
    actor: Any, actor_shift: int, opponent: Any, opponent_shift: int, floor: int | None
) -> tuple[Fraction, Fraction]:
    """(P(actor > opponent), P(opponent > actor))."""
    a_dist = modified_distribution(actor, [Modifier(actor_shift, "", "")], floor)
    o_dist = modified_distribution(opponent, [Modifier(opponent_shift, "", "")], floor)
    return p_greater(a_dist, o_dist), p_greater(o_dist, a_dist)


def target_roll(
    dice: DiceSource,
    *,
    expression: Expr | str,
    target: int,
    side: str | None,
    purpose: str,
    rule: str,
    subject: str | None = None,
    target_unit: str | None = None,
    modifiers: Sequence[Modifier] = (),
    floor: int | None = None,
) -> DiceRolled:
    """Roll ``expression`` needing a total of at least ``target`` (a "4+" roll)."""
    expr = _expr(expression)
    _announce(dice, purpose, rule, [(side, "", expr.dice)])
    first = dice.position
    roll = _throw(dice, expr, side, modifiers, floor)
    p = _p_at_least(cast(Hashable, expr), sum(m.value for m in modifiers), floor, target)
    ok = roll.total >= target
    return DiceRolled(
        purpose=purpose,
        rule=rule,
        subject=subject,
        target=target_unit,
        first_die=first,
        roll=roll,
        comparison="at_least",
        compared_with=target,
        outcome="success" if ok else "failure",
        success=ok,
        p_success=_frac(p),
        p_outcome=_frac(p if ok else 1 - p),
        value="1" if ok else "0",
        expected=_frac(p),
    )


def opposed_roll(
    dice: DiceSource,
    *,
    actor: Expr | str,
    opponent: Expr | str,
    side: str | None,
    opponent_side: str | None,
    purpose: str,
    rule: str,
    subject: str | None = None,
    target_unit: str | None = None,
    actor_modifiers: Sequence[Modifier] = (),
    opponent_modifiers: Sequence[Modifier] = (),
    floor: int | None = None,
    tie_label: str | None = None,
) -> DiceRolled:
    """Opposed roll: the actor succeeds only with a strictly greater total (ties fail).

    With ``tie_label`` a tie is reported as its own outcome (e.g. an initiative roll to repeat):
    ``success`` is None and ``value`` equals ``expected``, so the tie counts as neither luck.
    """
    a_expr, o_expr = _expr(actor), _expr(opponent)
    _announce(
        dice,
        purpose,
        rule,
        [(side, "actor", a_expr.dice), (opponent_side, "opponent", o_expr.dice)],
    )
    first = dice.position
    a_roll = _throw(dice, a_expr, side, actor_modifiers, floor)
    o_roll = _throw(dice, o_expr, opponent_side, opponent_modifiers, floor)
    p_win, p_lose = _p_opposed(
        cast(Hashable, a_expr),
        sum(m.value for m in actor_modifiers),
        cast(Hashable, o_expr),
        sum(m.value for m in opponent_modifiers),
        floor,
    )
    win = a_roll.total > o_roll.total
    tie = a_roll.total == o_roll.total
    neutral = tie and tie_label is not None  # a tie to be rolled again favours nobody
    if neutral:
        outcome, p_out = tie_label, 1 - p_win - p_lose
    elif win:
        outcome, p_out = "success", p_win
    else:
        outcome, p_out = "failure", (1 - p_win) if tie_label is None else p_lose
    return DiceRolled(
        purpose=purpose,
        rule=rule,
        subject=subject,
        target=target_unit,
        first_die=first,
        roll=a_roll,
        opposed_by=o_roll,
        comparison="greater_than",
        compared_with=o_roll.total,
        outcome=outcome,
        success=None if neutral else win,
        p_success=_frac(p_win),
        p_outcome=_frac(p_out),
        value=_frac(p_win) if neutral else ("1" if win else "0"),
        expected=_frac(p_win),
    )


def table_roll(
    dice: DiceSource,
    *,
    expression: Expr | str,
    table: Callable[[int], tuple[str, int]],
    side: str | None,
    purpose: str,
    rule: str,
    subject: str | None = None,
    target_unit: str | None = None,
    modifiers: Sequence[Modifier] = (),
    floor: int | None = None,
) -> DiceRolled:
    """Roll and read a table: ``table(total)`` gives (outcome label, numeric value).

    ``p_outcome`` is the chance of that label; ``expected`` the mean value over all totals.
    """
    expr = _expr(expression)
    _announce(dice, purpose, rule, [(side, "", expr.dice)])
    first = dice.position
    roll = _throw(dice, expr, side, modifiers, floor)
    dist: Distribution = modified_distribution(expr, modifiers, floor)
    label, value = table(roll.total)
    p_label = p_event(dist, lambda total: table(total)[0] == label)
    values: Distribution = {}
    for total, p in dist.items():
        v = table(total)[1]
        values[v] = values.get(v, Fraction(0)) + p
    return DiceRolled(
        purpose=purpose,
        rule=rule,
        subject=subject,
        target=target_unit,
        first_die=first,
        roll=roll,
        comparison="table",
        compared_with=None,
        outcome=label,
        success=None,
        p_success=None,
        p_outcome=_frac(p_label),
        value=str(value),
        expected=_frac(expected(values)),
    )


def pool_expression(pool: Sequence[CustomDie]) -> str:
    """The text of a custom-dice pool: die names joined by ``+``, a run of the same die written
    with its count first (``"2armada-red+armada-blue"``), like ``2d6`` for numbered dice."""
    if not pool:
        raise DiceError("a dice pool needs at least one die")
    parts: list[str] = []
    i = 0
    while i < len(pool):
        run = 1
        while i + run < len(pool) and pool[i + run] == pool[i]:
            run += 1
        parts.append(f"{run}{pool[i].name}" if run > 1 else pool[i].name)
        i += run
    return "+".join(parts)


_POOL_TERM = re.compile(r"^(\d*)(.+)$")


def parse_pool(expression: str, known: Iterable[CustomDie]) -> tuple[CustomDie, ...]:
    """The dice of a pool written by :func:`pool_expression`, looked up among ``known`` dice.

    Raises:
        DiceError: a term names no known die.
    """
    by_name = {die.name: die for die in known}
    dice: list[CustomDie] = []
    for term in expression.split("+"):
        match = _POOL_TERM.match(term.strip())
        die = by_name.get(match.group(2)) if match else None
        if match is None or die is None:
            raise DiceError(f"bad dice pool {expression!r}: unknown die in {term!r}")
        count = int(match.group(1)) if match.group(1) else 1
        dice.extend([die] * count)
    return tuple(dice)


def roll_icons(roll: RollRecord, known: Iterable[CustomDie]) -> list[tuple[str, ...]]:
    """The icons each die of a recorded pool roll shows, in throw order.

    Raises:
        DiceError: the expression names an unknown die, or the faces do not fit the pool.
    """
    dice = parse_pool(roll.expression, known)
    if len(dice) != len(roll.faces):
        raise DiceError(f"pool {roll.expression!r} has {len(dice)} dice, {len(roll.faces)} faces")
    return [die.icons(face) for die, face in zip(dice, roll.faces, strict=True)]


def pool_roll(
    dice: DiceSource,
    *,
    pool: Sequence[CustomDie],
    score: Callable[[Counter[str]], int],
    side: str | None,
    purpose: str,
    rule: str,
    subject: str | None = None,
    target_unit: str | None = None,
    unit: str = "",
    score_key: Hashable | None = None,
) -> DiceRolled:
    """Throw a pool of custom dice (in the order given) and score the icons it shows.

    The event reads: ``roll.total`` (and ``natural``) is the score; ``comparison`` "at_least"
    against that same score, so ``p_success`` is the exact chance, before the roll, of scoring at
    least this much; ``p_outcome`` the chance of exactly this score; ``value``/``expected`` the
    score and its exact mean. ``success`` is None: a pool roll is neither won nor lost. ``unit``
    names the score in the outcome (``"3 damage"``). ``score_key``, when given, names ``score``
    (equal keys, the same scoring of every icon count): the odds are then worked out once per
    pool and key instead of once per roll.

    Raises:
        DiceError: an empty pool.
    """
    if not pool:
        raise DiceError("a dice pool needs at least one die")
    _announce(dice, purpose, rule, [(side, "", tuple(pool))])
    first = dice.position
    faces, counts = throw_pool(pool, dice)
    value = score(counts)
    if score_key is None:
        p_success, p_outcome, mean = _pool_odds(pool_distribution(pool, score), value)
    else:
        p_success, p_outcome, mean = _keyed_pool_odds(tuple(pool), score, score_key, value)
    roll = RollRecord(
        side=side,
        expression=pool_expression(pool),
        faces=list(faces),
        natural=value,
        total=value,
    )
    return DiceRolled(
        purpose=purpose,
        rule=rule,
        subject=subject,
        target=target_unit,
        first_die=first,
        roll=roll,
        comparison="at_least",
        compared_with=value,
        outcome=f"{value} {unit}".rstrip(),
        success=None,
        p_success=p_success,
        p_outcome=p_outcome,
        value=str(value),
        expected=mean,
    )


_POOL_ODDS: dict[tuple[Any, ...], tuple[str, str, str]] = {}


_KEYED_POOL_ODDS: dict[tuple[Any, ...], tuple[str, str, str]] = {}


def _keyed_pool_odds(
    pool: tuple[CustomDie, ...], score: Callable[[Counter[str]], int], key: Hashable, value: int
) -> tuple[str, str, str]:
    """:func:`_pool_odds` of the pool's score distribution, remembered per pool, score key and
    value (the same distribution, so the same odds, without building it again)."""
    found = _KEYED_POOL_ODDS.get((pool, key, value))
    if found is None:
        if len(_KEYED_POOL_ODDS) >= 4096:
            _KEYED_POOL_ODDS.clear()
        # the distribution once per pool and key, whatever the value rolled
        dist = _KEYED_DISTRIBUTIONS.get((pool, key))
        if dist is None:
            if len(_KEYED_DISTRIBUTIONS) >= 1024:
                _KEYED_DISTRIBUTIONS.clear()
            dist = _KEYED_DISTRIBUTIONS[(pool, key)] = pool_distribution(pool, score)
        found = _pool_odds(dist, value)
        _KEYED_POOL_ODDS[(pool, key, value)] = found
    return found


_KEYED_DISTRIBUTIONS: dict[tuple[tuple[CustomDie, ...], Hashable], dict[int, Fraction]] = {}
"""A keyed pool's score distribution (read, never changed) per pool and score key."""


def _pool_odds(dist: dict[int, Fraction], value: int) -> tuple[str, str, str]:
    """(P(at least ``value``), P(exactly ``value``), the mean) of a pool's score, as the event
    writes them: once per distinct distribution and score (keyed by plain integers, which hash
    faster than fractions)."""
    key = (value, *((v, p.numerator, p.denominator) for v, p in dist.items()))
    found = _POOL_ODDS.get(key)
    if found is None:
        if len(_POOL_ODDS) >= 4096:
            _POOL_ODDS.clear()
        found = _POOL_ODDS[key] = (
            _frac(p_at_least(dist, value)),
            _frac(dist.get(value, Fraction(0))),
            _frac(expected(dist)),
        )
    return found


def _percent(fraction: str) -> str:
    value = Fraction(fraction)
    return f"{fraction} ({float(value):.0%})" if value not in (0, 1) else f"{fraction}"


def is_pool_roll(event: DiceRolled) -> bool:
    """Whether ``event`` is a pool of custom dice scored by :func:`pool_roll` (its "comparison"
    is the score itself: there is nothing to reach, only odds of scoring so much)."""
    return (
        event.success is None
        and event.comparison == "at_least"
        and event.opposed_by is None
        and event.compared_with == event.roll.total
        and any(d.name in event.roll.expression for d in CUSTOM_DICE)
    )


def die_colour(die: CustomDie) -> str:
    """A custom die as players call it: ``armada-red`` -> ``red``."""
    return die.name.rsplit("-", 1)[-1]


def pool_text(roll: RollRecord, known: Iterable[CustomDie] = ()) -> str | None:
    """A custom-dice pool as players see it on the table: each colour with the icons of its
    dice in throw order, ``"red dice: blank, hit+hit; blue dice: accuracy"``; None when the
    expression names dice that are not known."""
    try:
        dice = parse_pool(roll.expression, (*known, *CUSTOM_DICE))
        icons = roll_icons(roll, (*known, *CUSTOM_DICE))
    except DiceError:
        return None
    groups: dict[str, list[str]] = {}
    for die, shown in zip(dice, icons, strict=True):
        groups.setdefault(die_colour(die), []).append("+".join(shown) or "blank")
    return "; ".join(f"{colour} dice: {', '.join(faces)}" for colour, faces in groups.items())


def faces_text(roll: RollRecord) -> str:
    """The faces a roll shows, as words: ``"7"``, ``"3 and 1"``, ``"9, 2 and 5"``."""
    faces = [str(f) for f in roll.faces]
    if len(faces) <= 1:
        return "".join(faces) or "nothing"
    return f"{', '.join(faces[:-1])} and {faces[-1]}"


def odds_text(event: DiceRolled) -> str:
    """The odds that matter for a roll, named: a pool's chance of this score or more, exactly
    this and the expected score; a roll against a number its chance of success; a table roll
    the chance of its result (never a bare ``p=``; issue 21 item 8)."""
    if is_pool_roll(event):
        return (
            f"chance of {event.roll.total} or more {_percent(event.p_success or '1')}, "
            f"of exactly {event.roll.total} {_percent(event.p_outcome)}, "
            f"expected {float(Fraction(event.expected)):.2f}"
        )
    if event.p_success is not None:
        return f"chance of success {_percent(event.p_success)}"
    return f"chance of this result {_percent(event.p_outcome)}"


def describe_roll(event: DiceRolled) -> str:
    """One line for any roll: who rolled what, the faces (a custom pool's dice by colour and
    icons), modifiers, total, what it needed, the outcome and its odds, in words."""
    roll = event.roll
    mods = "".join(f" {m.value:+d}[{m.rule}]" for m in roll.modifiers)
    pool = pool_text(roll) if is_pool_roll(event) else None
    head = f"{roll.side or '-'} {event.purpose} [{event.rule}]"
    if pool is not None:
        text = f"{head} rolls {pool}"
    else:
        text = f"{head} {roll.expression} rolled {faces_text(roll)}{mods} = {roll.total}"
    if event.opposed_by is not None:
        opp = event.opposed_by
        text += f" vs {opp.side or '-'} {opp.expression} rolled {faces_text(opp)} = {opp.total}"
    elif event.comparison == "at_least" and pool is None and event.compared_with:
        text += f" needs {event.compared_with}+"
    text += f" -> {event.outcome}; {odds_text(event)}"
    return text
