"""Tests for domain.dice: exact odds, expressions, parsing, custom pools and dice sources."""

from __future__ import annotations

import hashlib
import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.dice import (
    ARMADA_BLACK,
    ARMADA_BLUE,
    ARMADA_RED,
    CustomDie,
    DiceError,
    DiceExhausted,
    DiceFaceError,
    Die,
    Distribution,
    Expr,
    FixedDice,
    KeepHighest,
    Modifier,
    ScriptedDice,
    SeededDice,
    Single,
    Sum,
    apply_modifiers,
    expected,
    joint,
    modified_distribution,
    p_at_least,
    p_at_least_times,
    p_event,
    p_greater,
    parse,
    pool_distribution,
    pool_icon_distribution,
    seeded_face,
    throw,
    throw_pool,
)

D4, D6, D8, D10 = Die(4), Die(6), Die(8), Die(10)


def brute_force(expr: Expr) -> Distribution:
    """Enumerate every combination of faces and evaluate it."""
    counts: Counter[int] = Counter()
    combos = itertools.product(*(range(1, d.sides + 1) for d in expr.dice))
    total = 0
    for faces in combos:
        counts[expr.evaluate(faces)] += 1
        total += 1
    return {v: Fraction(n, total) for v, n in counts.items()}


# --------------------------------------------------------------------------- strategies

small_dice = st.builds(Die, st.integers(min_value=2, max_value=6))
singles = st.builds(Single, small_dice)
keep_highests = st.builds(KeepHighest, st.lists(small_dice, min_size=2, max_size=3).map(tuple))
pairs = st.builds(KeepHighest, st.lists(small_dice, min_size=2, max_size=2).map(tuple))
constants = st.integers(min_value=-5, max_value=5)
# at most 4 dice of at most 6 sides: brute force stays under 1,296 combinations
sums = st.builds(
    Sum, st.lists(st.one_of(singles, pairs), min_size=1, max_size=2).map(tuple), constants
)
exprs: st.SearchStrategy[Expr] = st.one_of(singles, keep_highests, sums)
# at most 2 dice, for pairwise brute force
tiny_exprs: st.SearchStrategy[Expr] = st.one_of(
    singles, pairs, st.builds(Sum, st.tuples(singles), constants)
)
dists = exprs.map(lambda e: e.distribution())


# --------------------------------------------------------------------------- exact odds


def test_target_number_4_plus_on_d10_pl_4() -> None:
    """PL-4: a 4+ on a d10 succeeds 7 times in 10."""
    assert p_at_least(Single(D10).distribution(), 4) == Fraction(7, 10)


def test_battleship_chain_pl_4_sanity_check() -> None:
    """PL-4 digest sanity check: hit on 4+ and the defence 3+ fails gives 14%."""
    d10 = Single(D10).distribution()
    p_hit = p_at_least(d10, 4)
    p_defence_fails = 1 - p_at_least(d10, 3)
    assert p_hit * p_defence_fails == Fraction(7, 50)


def test_opposed_d10_ties_fail_io_1_6_1_a_b() -> None:
    """IO-1.6.1.A/B: the actor wins only if strictly greater, so P(d10 > d10) = 9/20."""
    d10 = Single(D10).distribution()
    assert p_greater(d10, d10) == Fraction(9, 20)


def test_2d6_seven_io_1_6_1_c() -> None:
    """IO-1.6.1.C: P(2d6 == 7) = 1/6."""
    assert parse("2d6").distribution()[7] == Fraction(1, 6)


def test_keep_highest_d10_d4_by_hand_io_1_6_1() -> None:
    """IO-1.6.1: d10d4 keeps the highest; P(max<=v) = min(v,10)/10 * min(v,4)/4."""
    dist = KeepHighest((D10, D4)).distribution()
    assert dist[4] == Fraction(4 * 4 - 3 * 3, 40) == Fraction(7, 40)
    assert dist[10] == Fraction(1, 10)
    assert dist[1] == Fraction(1, 40)
    assert dist[5] == Fraction(1, 10)  # above 4 only the d10 matters
    assert sum(dist.values()) == 1


def test_keep_highest_three_dice_matches_brute_force() -> None:
    """IO-1.6.1: d10d8d6 over all 480 combinations."""
    expr = parse("d10d8d6")
    assert expr == KeepHighest((D10, D8, D6))
    assert expr.distribution() == brute_force(expr)


def test_d10_plus_d8_range() -> None:
    dist = parse("d10+d8").distribution()
    assert min(dist) == 2
    assert max(dist) == 18
    assert set(dist) == set(range(2, 19))


def test_modifiers_with_floor_io_6_2_1() -> None:
    """IO-6.2.1-style floor of 1: d6-3 floored at 1 shows 1 on faces 1..4, so P(1) = 2/3.

    (d6-2 floored at 1 gives P(1) = 1/2.)
    """
    minus3 = [Modifier(-3, "IO-6.2.1", "test penalty")]
    assert modified_distribution(Single(D6), minus3, floor=1)[1] == Fraction(2, 3)
    assert modified_distribution(parse("d6-3"), floor=1)[1] == Fraction(2, 3)
    minus2 = [Modifier(-2, "IO-3.1.1", "repair party")]
    dist = modified_distribution(Single(D6), minus2, floor=1)
    assert dist == {1: Fraction(1, 2), 2: Fraction(1, 6), 3: Fraction(1, 6), 4: Fraction(1, 6)}


def test_apply_modifiers() -> None:
    mods = [Modifier(-2, "IO-3.1.1", "repair party"), Modifier(1, "X-1", "bonus")]
    assert apply_modifiers(5, mods) == 4
    assert apply_modifiers(1, mods) == 0
    assert apply_modifiers(1, mods, floor=1) == 1
    assert apply_modifiers(7, ()) == 7
    assert modified_distribution(Single(D6)) == Single(D6).distribution()


def test_helpers_expected_event_joint() -> None:
    d6 = Single(D6).distribution()
    assert expected(d6) == Fraction(7, 2)
    assert expected(parse("2d6+1").distribution()) == 8
    assert p_event(d6, lambda v: v % 2 == 0) == Fraction(1, 2)
    j = joint(d6, Single(D4).distribution())
    assert len(j) == 24
    assert j[(6, 4)] == Fraction(1, 24)
    assert sum(j.values()) == 1


# ------------------------------------------------------------- distributions vs brute force


@given(exprs)
@settings(max_examples=150, deadline=None)
def test_distribution_sums_to_one_and_matches_brute_force(expr: Expr) -> None:
    dist = expr.distribution()
    assert sum(dist.values()) == 1
    assert all(p > 0 for p in dist.values())
    assert dist == brute_force(expr)


@given(exprs)
@settings(max_examples=150, deadline=None)
def test_str_round_trip_property(expr: Expr) -> None:
    assert parse(str(expr)) == expr


def test_distribution_is_a_copy() -> None:
    expr = Single(D6)
    expr.distribution()[1] = Fraction(0)
    assert expr.distribution()[1] == Fraction(1, 6)


def test_expressions_are_hashable_and_comparable() -> None:
    assert {parse("2d6"), parse("d6+d6"), parse("d6 + d6")} == {Sum((Single(D6), Single(D6)))}
    assert parse("d10d4") != parse("d4d10")  # throw order matters for evaluate()


# --------------------------------------------------------------------------- parsing


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("d10", "d10"),
        ("D10", "d10"),
        ("  d10 ", "d10"),
        ("1d10", "d10"),
        ("d10d4", "d10d4"),
        ("d10D8d6", "d10d8d6"),
        ("d10+d8", "d10+d8"),
        ("2d6", "2d6"),
        ("d6+d6", "2d6"),
        ("d6 + d6 + d8", "2d6+d8"),
        ("d6+d8+d6", "d6+d8+d6"),
        ("d10+d8+d6", "d10+d8+d6"),
        ("d6+2", "d6+2"),
        ("d6 + 1 + 1", "d6+2"),
        ("2+d6", "d6+2"),
        ("d10-1", "d10-1"),
        ("d10 - 1", "d10-1"),
        ("-1+d10", "d10-1"),
        ("d6+0", "d6+0"),
        ("d6+1-1", "d6+0"),
        ("3d6-2", "3d6-2"),
        ("d10d4+1", "d10d4+1"),
        ("d10d4+d6", "d10d4+d6"),
        ("2D6+2d6", "4d6"),
    ],
)
def test_parse_canonical_text(text: str, canonical: str) -> None:
    expr = parse(text)
    assert str(expr) == canonical
    assert parse(str(expr)) == expr


def test_parse_structures() -> None:
    assert parse("d10") == Single(D10)
    assert parse("d10d8d6") == KeepHighest((D10, D8, D6))
    assert parse("2d6") == Sum((Single(D6), Single(D6)))
    assert parse("d6+2") == Sum((Single(D6),), 2)
    assert parse("d10-1") == Sum((Single(D10),), -1)
    assert parse("d10+d8").dice == (D10, D8)


@pytest.mark.parametrize(
    "text",
    [
        "d0",
        "d1",
        "x",
        "d10++d4",
        "",
        "   ",
        "3",
        "3+4",
        "d10-d4",
        "-d6",
        "d10+",
        "+",
        "d10 d4",
        "2d10d4",
        "0d6",
        "d6*2",
        "d",
        "d6d",
        "10d",
    ],
)
def test_parse_rejects_bad_text(text: str) -> None:
    with pytest.raises(DiceError) as info:
        parse(text)
    assert repr(text) in str(info.value)


def test_constructor_validation() -> None:
    with pytest.raises(DiceError):
        Die(0)
    with pytest.raises(DiceError):
        KeepHighest((D6,))
    with pytest.raises(DiceError):
        Sum(())
    with pytest.raises(DiceError):
        Single(ARMADA_RED)  # type: ignore[arg-type]
    # nested sums flatten
    assert Sum((parse("d6+1"), Single(D4)), 2) == Sum((Single(D6), Single(D4)), 3)


def test_evaluate() -> None:
    assert parse("d10d8d6").evaluate([3, 7, 5]) == 7
    assert parse("2d6+1").evaluate((2, 5)) == 8
    assert parse("d10d4+d6-1").evaluate((2, 4, 6)) == 9
    with pytest.raises(DiceError):
        parse("2d6").evaluate((1,))
    with pytest.raises(DiceFaceError):
        parse("2d6").evaluate((1, 7))


# --------------------------------------------------------------------------- opposed rolls


@given(dists, dists)
@settings(max_examples=60, deadline=None)
def test_p_greater_matches_brute_force(a: Distribution, b: Distribution) -> None:
    """IO-1.6.1.A/B: strictly greater wins."""
    brute = sum((pa * pb for va, pa in a.items() for vb, pb in b.items() if va > vb), Fraction(0))
    assert p_greater(a, b) == brute


@given(tiny_exprs, tiny_exprs, st.integers(min_value=1, max_value=4))
@settings(max_examples=60, deadline=None)
def test_p_at_least_times_matches_brute_force(a: Expr, b: Expr, k: int) -> None:
    """The 3x thresholds: actor >= k * opponent, over every pair of face combinations."""
    wins = total = 0
    for fa in itertools.product(*(range(1, d.sides + 1) for d in a.dice)):
        va = a.evaluate(fa)
        for fb in itertools.product(*(range(1, d.sides + 1) for d in b.dice)):
            total += 1
            wins += va >= k * b.evaluate(fb)
    assert p_at_least_times(a.distribution(), b.distribution(), k) == Fraction(wins, total)


def test_three_times_threshold_d10_vs_d10() -> None:
    d10 = Single(D10).distribution()
    # opponent 1: actor 3..10 (8); 2: 6..10 (5); 3: 9..10 (2)
    assert p_at_least_times(d10, d10, 3) == Fraction(8 + 5 + 2, 100)


# --------------------------------------------------------------------------- Armada dice


def test_armada_face_counts_swa_dice() -> None:
    """SWA-DICE: face table of the red, blue and black dice."""
    for die in (ARMADA_RED, ARMADA_BLUE, ARMADA_BLACK):
        assert die.sides == 8
    assert Counter(ARMADA_RED.faces) == {
        (): 2,
        ("hit",): 2,
        ("crit",): 2,
        ("accuracy",): 1,
        ("hit", "hit"): 1,
    }
    assert Counter(ARMADA_BLUE.faces) == {("hit",): 4, ("crit",): 2, ("accuracy",): 2}
    assert Counter(ARMADA_BLACK.faces) == {(): 2, ("hit",): 4, ("hit", "crit"): 2}
    assert ARMADA_BLACK.icons(7) == ("hit", "crit")
    with pytest.raises(DiceFaceError):
        ARMADA_RED.icons(9)


def test_armada_red_at_least_one_hit_swa_dice() -> None:
    """SWA-DICE: red faces with a hit icon are hit (x2) and hit+hit (x1): 3/8."""
    dist = pool_distribution([ARMADA_RED], lambda c: c["hit"])
    assert p_at_least(dist, 1) == Fraction(3, 8)


def test_armada_black_expected_damage_swa_dice() -> None:
    """SWA-DICE: hit and crit count 1 each: (4*1 + 2*2)/8 = 1."""
    dist = pool_distribution([ARMADA_BLACK], lambda c: c["hit"] + c["crit"])
    assert expected(dist) == 1


def test_pool_icon_distribution() -> None:
    single = pool_icon_distribution([ARMADA_BLUE])
    assert single == {
        (("hit", 1),): Fraction(1, 2),
        (("crit", 1),): Fraction(1, 4),
        (("accuracy", 1),): Fraction(1, 4),
    }
    pool = [ARMADA_RED, ARMADA_BLACK, ARMADA_BLUE]
    dist = pool_icon_distribution(pool)
    assert sum(dist.values()) == 1
    # brute force over all 512 face combinations
    brute: Counter[tuple[tuple[str, int], ...]] = Counter()
    for faces in itertools.product(*(die.faces for die in pool)):
        icons = Counter(icon for face in faces for icon in face)
        brute[tuple(sorted(icons.items()))] += 1
    assert dist == {key: Fraction(n, 512) for key, n in brute.items()}
    assert pool_icon_distribution([]) == {(): Fraction(1)}


# --------------------------------------------------------------------------- seeded dice


def test_seeded_face_is_pure_function_of_seed_and_position() -> None:
    dice = SeededDice(7)
    sixth = [dice.draw(D10) for _ in range(6)][5]
    assert SeededDice(7, start=5).draw(D10) == sixth
    assert seeded_face(7, 5, 10) == sixth
    # draw history with other dice does not matter
    mixed = SeededDice(7)
    for die in (D4, ARMADA_RED, D6, D8, D10):
        mixed.draw(die)
    assert mixed.position == 5
    assert mixed.draw(D10) == sixth
    assert mixed.position == 6


def test_seeded_faces_in_range_and_seeds_differ() -> None:
    for sides in (2, 4, 6, 8, 10, 12, 20, 100, 65536):
        faces = [seeded_face(3, n, sides) for n in range(200)]
        assert all(1 <= f <= sides for f in faces)
    s1, s2 = SeededDice(1), SeededDice(2)
    a = [s1.draw(D10) for _ in range(50)]
    b = [s2.draw(D10) for _ in range(50)]
    assert a != b


def test_seeded_d10_frequencies_are_even() -> None:
    """Deterministic for a fixed seed: each face within 8%..12% over 20,000 d10 draws."""
    dice = SeededDice(2024)
    counts = Counter(dice.draw(D10) for _ in range(20_000))
    assert set(counts) == set(range(1, 11))
    for face in range(1, 11):
        assert 0.08 <= counts[face] / 20_000 <= 0.12


def reference_face(seed: int, n: int, sides: int) -> int:
    """Independent reading of the SeededDice spec, for cross-checking."""
    limit = (65536 // sides) * sides
    digest = hashlib.sha256(f"wake-dice:{seed}:{n}".encode()).digest()
    while True:
        chunks = [int.from_bytes(digest[i : i + 2], "big") for i in range(0, 32, 2)]
        accepted = [c for c in chunks if c < limit]
        if accepted:
            return accepted[0] % sides + 1
        digest = hashlib.sha256(digest).digest()


def test_seeded_face_matches_reference() -> None:
    for sides in (2, 6, 10, 20, 32769, 65536):
        for n in range(100):
            assert seeded_face(5, n, sides) == reference_face(5, n, sides)


def test_seeded_rejection_sampling_extends_digest() -> None:
    # For seed 0, die 110213 every 2-byte chunk of the first digest is >= 32769, so a d32769
    # must be sampled from sha256(digest).
    digest = hashlib.sha256(b"wake-dice:0:110213").digest()
    assert all(int.from_bytes(digest[i : i + 2], "big") >= 32769 for i in range(0, 32, 2))
    face = seeded_face(0, 110213, 32769)
    assert face == reference_face(0, 110213, 32769)
    assert 1 <= face <= 32769


def test_seeded_rejects_bad_arguments() -> None:
    with pytest.raises(DiceError):
        SeededDice(1, start=-1)
    with pytest.raises(DiceError):
        seeded_face(1, 0, 0)


# --------------------------------------------------------------------------- scripted dice


def test_scripted_d10_reads_zero_as_ten_io_1_6() -> None:
    """IO-1.6: a d10 showing 0 reads as 10."""
    dice = ScriptedDice([0, 10, 3])
    assert [dice.draw(D10) for _ in range(3)] == [10, 10, 3]
    assert dice.consumed == (10, 10, 3)
    assert D10.read_face(0) == 10
    with pytest.raises(DiceFaceError):
        D6.read_face(0)


def test_scripted_bad_face_names_die_face_and_position() -> None:
    dice = ScriptedDice([3, 7], start=40)
    assert dice.draw(D6) == 3
    with pytest.raises(DiceFaceError) as info:
        dice.draw(D6)
    message = str(info.value)
    assert "d6" in message
    assert "7" in message
    assert "41" in message
    # the rejected face is not consumed
    assert dice.position == 41
    assert dice.remaining == 1
    assert dice.draw(D8) == 7


def test_scripted_remaining_and_exhaustion() -> None:
    dice = FixedDice([1, 2], start=10)
    assert dice.remaining == 2
    dice.draw(D6)
    assert dice.remaining == 1
    assert dice.position == 11
    dice.draw(D6)
    assert dice.remaining == 0
    with pytest.raises(DiceExhausted) as info:
        dice.draw(D6)
    assert "3" in str(info.value)  # needed
    assert "2" in str(info.value)  # available
    assert isinstance(info.value, DiceError)


def test_scripted_custom_die() -> None:
    dice = ScriptedDice([8, 9])
    assert dice.draw(ARMADA_RED) == 8
    with pytest.raises(DiceFaceError) as info:
        dice.draw(ARMADA_RED)
    assert ARMADA_RED.name in str(info.value)


# --------------------------------------------------------------------------- throwing


def test_throw_returns_faces_in_order_and_natural_value() -> None:
    expr = parse("d10d4+d6-1")
    faces, natural = throw(expr, FixedDice([0, 4, 6]))
    assert faces == (10, 4, 6)
    assert natural == 15
    faces, natural = throw(parse("d10d8d6"), FixedDice([2, 8, 5]))
    assert (faces, natural) == ((2, 8, 5), 8)


def test_throw_with_seeded_dice_is_reproducible() -> None:
    expr = parse("3d6+2")
    first = throw(expr, SeededDice(99))
    again = throw(expr, SeededDice(99))
    assert first == again
    faces, natural = first
    assert natural == sum(faces) + 2


def test_throw_pool() -> None:
    faces, counts = throw_pool([ARMADA_RED, ARMADA_BLACK, ARMADA_BLUE], FixedDice([8, 7, 5]))
    assert faces == (8, 7, 5)
    assert counts == Counter({"hit": 3, "crit": 2})


def test_custom_die_validation() -> None:
    with pytest.raises(DiceError):
        CustomDie("", (("hit",),))
    with pytest.raises(DiceError):
        CustomDie("empty", ())
