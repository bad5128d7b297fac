"""Issue 24 item 4: Armada's remembered answers are the answers that would be computed.

The rollouts' speed comes from keeping answers between questions: measurements, engagements and
the legal-attack pre-check by where everything stands (``geocache.positions``), the attack
pipeline's inputs and a ship's hull by the identity of the state parts they read
(``partmemo``), a course's offset per base and tool, bounding-box rejects before shapely. A key
that missed a deciding input would make a remembered answer differ from a fresh one somewhere in
a game, so these tests walk the states of several bot games (their memos warm, as in a run of
rollouts) and compare every remembered answer with one computed from scratch, and the legal
attacks with a brute-force check of every possible declaration.
"""

from __future__ import annotations

import json
import math
import random
import uuid
from collections import Counter
from collections.abc import Iterator
from functools import cache
from itertools import pairwise
from typing import Any

import pytest
import shapely
from shapely.geometry import LineString, Point, box

from domain.engine import header_for
from domain.fastplay import FastGame
from domain.rulesets.armada import bot, damage, integration, overlap
from domain.rulesets.armada.attack_inputs import (
    _measure,
    _ship_attacker,
    attacker_input,
    defender_input,
    defending_zones,
    measure,
)
from domain.rulesets.armada.attack_state import Attacker, ShipDefender, SquadronDefender
from domain.rulesets.armada.commands import DeclareAttack
from domain.rulesets.armada.damage_dealing import hull_of
from domain.rulesets.armada.geometry import ZONES, Disc
from domain.rulesets.armada.sequence import to_act
from domain.rulesets.armada.squadron_phase import _engaged_with, engaged_with
from domain.rulesets.armada.state import ArmadaState
from tests.helpers import FIXTURES

SCENARIO = FIXTURES / "scenarios" / "armada" / "core_learning.json"
EVERY = 4
"""Every n-th state of a game is checked (all of them would take minutes)."""


@cache
def _states(seed: int) -> tuple[ArmadaState, ...]:
    """Every EVERY-th state of a fast-path bot game, in order."""
    data = json.loads(SCENARIO.read_text())
    gid = str(uuid.uuid5(uuid.NAMESPACE_URL, f"armada-caches-{seed}"))
    game = FastGame.new(header_for("armada", data, game_id=gid, seed=seed))
    states: list[ArmadaState] = []
    for n in range(100_000):
        if game.bot_step(seed) is None:
            break
        if n % EVERY == 0:
            states.append(game.rules)
    return tuple(states)


def _units(state: ArmadaState) -> list[str]:
    ships = [s.id for s in state.ships.values() if s.in_play]
    return [*ships, *(s.id for s in state.squadrons.values() if s.in_play)]


def _zones(state: ArmadaState, unit: str) -> tuple[str | None, ...]:
    return ZONES if unit in state.ships else (None,)


def _enemy_pairs(state: ArmadaState) -> Iterator[tuple[str, str | None, str]]:
    """Every (attacker, its hull zone or None for a squadron, enemy target) in play."""
    for unit in _units(state):
        mine = (state.ships.get(unit) or state.squadrons[unit]).side
        for zone in _zones(state, unit):
            for target in _units(state):
                if (state.ships.get(target) or state.squadrons[target]).side != mine:
                    yield unit, zone, target


SEEDS = [1, 2, 3]


@pytest.mark.parametrize("seed", SEEDS)
def test_measurements_and_engagements_equal_fresh_ones(seed: int) -> None:
    """Every measurement between units in play, every engagement and every pre-check, as
    remembered, equals the one computed from the state alone."""
    for state in _states(seed):
        for squadron in state.squadrons.values():
            if squadron.in_play:
                assert engaged_with(state, squadron.id) == _engaged_with(state, squadron.id)
        for unit, zone, target in _enemy_pairs(state):
            if zone is not None:
                assert integration._plausible(
                    state, unit, zone, target
                ) == integration._plausible_here(state, unit, zone, target)
            for dzone in defending_zones(state, target):
                kept = measure(state, unit, zone, target, dzone)
                engaged = target in state.squadrons and any(
                    s != unit for s in _engaged_with(state, target)
                )
                fresh = _measure(state, unit, zone, target, dzone, engaged)
                assert kept.geometry == fresh.geometry
                assert kept.distance_mm == fresh.distance_mm
                if fresh.sight is not None:
                    assert kept.sight is not None
                    assert kept.sight.blocked_by == fresh.sight.blocked_by
                    assert kept.sight.obstructed_by == fresh.sight.obstructed_by


def _fresh_hull(state: Any, ship: Any) -> damage.ShipHull:
    """A ship's hull built and validated from its state alone, as the rules built it before
    any cache."""
    card = state.data.ships.get(ship.card)
    return damage.ShipHull(
        id=ship.id,
        side=ship.side,
        name=ship.name,
        hull=card.hull,
        shields=ship.shields,
        tokens=ship.defense,
        cards=ship.damage,
        speed=ship.speed,
        dials=len(ship.dials),
        destroyed=ship.destroyed,
    )


@pytest.mark.parametrize("seed", SEEDS)
def test_attack_inputs_and_hulls_equal_fresh_ones(seed: int) -> None:
    """A ship's hull, each defender's input and each attacker's input (ships' and squadrons'),
    as remembered, equal the ones built from the state alone."""
    for state in _states(seed):
        for ship in state.ships.values():
            card = state.data.ships.get(ship.card)
            fresh_hull = _fresh_hull(state, ship)
            assert hull_of(state, ship.id) == fresh_hull
            for zone in ZONES:
                assert defender_input(state, ship.id, zone) == ShipDefender(
                    **dict(fresh_hull), zone=zone, size=card.size
                )
                fresh = _ship_attacker(ship, card, state.activation, zone)
                assert attacker_input(state, ship.id, zone) == fresh
        for squadron in state.squadrons.values():
            card_ = state.squadron_card(squadron.id)
            engaging = _engaged_with(state, squadron.id)
            # (engagements are remembered for squadrons in play only, as measurements)
            assert not squadron.in_play or attacker_input(state, squadron.id, None) == Attacker(
                id=squadron.id,
                side=squadron.side,
                kind="squadron",
                battery=card_.battery,
                anti_squadron=card_.anti_squadron,
                keywords=tuple(card_.keywords),
                engaged=bool(engaging),
                engaged_with_escort=any(
                    "escort" in state.squadron_card(s).keywords for s in engaging
                ),
            )
            assert defender_input(state, squadron.id, None) == SquadronDefender(
                id=squadron.id,
                side=squadron.side,
                hull=squadron.hull,
                tokens=squadron.defense,
                keywords=tuple(state.squadron_card(squadron.id).keywords),
                destroyed=squadron.destroyed,
            )


def _same_model(kept: Any, fresh: Any) -> None:
    """Equal, of the same class, with the same fields given and in the same order, and the
    same text (nested models' classes included)."""
    assert type(kept) is type(fresh)
    assert kept == fresh
    assert kept.model_fields_set == fresh.model_fields_set
    assert list(kept.__dict__) == list(fresh.__dict__)
    assert repr(kept) == repr(fresh)
    assert kept.model_dump_json() == fresh.model_dump_json()


@pytest.mark.parametrize("seed", SEEDS)
def test_assembled_hulls_and_ship_defenders_equal_validated_ones(seed: int) -> None:
    """SWA-DMG / SWA-ATK 4: a ship's hull and its defender's input, assembled from the
    validated ship state without validating again (``damage_dealing._hull``,
    ``attack_inputs._ship_defender``), are the models validation builds, in every state of a
    game (shields lost, tokens spent, cards dealt, ships destroyed)."""
    checked = 0
    for state in _states(seed):
        for ship in state.ships.values():
            card = state.data.ships.get(ship.card)
            fresh_hull = _fresh_hull(state, ship)
            _same_model(hull_of(state, ship.id), fresh_hull)
            for zone in ZONES:
                fresh = ShipDefender(**dict(fresh_hull), zone=zone, size=card.size)
                _same_model(defender_input(state, ship.id, zone), fresh)
                checked += 1
    assert checked > 100


def test_assembled_refuses_what_validation_would_not_build() -> None:
    """``frozen.assembled`` takes only a model's fields, needs every required one, and leaves
    a default out of the fields set as validation does; the hull falls back to validation,
    which raises, for values its constraints refuse."""
    from pydantic import ValidationError

    from domain.frozen import assembled
    from domain.rulesets.armada.damage_dealing import _hull

    shields = dict.fromkeys(ZONES, 1)
    built = assembled(damage.ShipHull, id="s", side="a", hull=3, shields=shields)
    _same_model(built, damage.ShipHull(id="s", side="a", hull=3, shields=shields))
    with pytest.raises(TypeError):
        assembled(damage.ShipHull, id="s", side="a", hull=3, shields=shields, nope=1)
    with pytest.raises(TypeError):
        assembled(damage.ShipHull, id="s", side="a", hull=3)
    state = _states(1)[-1]
    ship = next(iter(state.ships.values()))
    with pytest.raises(ValidationError):
        _hull(ship, 0)
    from domain.frozen import changed

    with pytest.raises(ValidationError):
        _hull(changed(ship, shields={**ship.shields, "front": -1}), 3)


@pytest.mark.parametrize("seed", SEEDS)
def test_shared_defence_orders_and_options_equal_fresh_ones(seed: int) -> None:
    """SWA-DEF: the defence orders listed at each defence step, shared per distinct order
    (``attack._spend``), are the models built afresh, one for one (fields set included); and
    the attack's rule readings (``attack_inputs.attack_options``) are a fresh model's."""
    from domain.rulesets.armada import attack as pipeline
    from domain.rulesets.armada.attack_inputs import attack_options
    from domain.rulesets.armada.attack_state import AttackOptions, SpendDefenceToken

    spends = 0
    for state in _states(seed):
        _same_model(attack_options(state), AttackOptions(evade=state.options.evade))
        attack = state.attack
        if attack is None or attack.step != "defend":
            continue
        kept = list(pipeline.legal_decisions(attack, state.data.damage))
        with pytest.MonkeyPatch.context() as m:
            m.setattr(pipeline, "_spend", lambda **given: SpendDefenceToken(**given))
            fresh = list(pipeline.legal_decisions(attack, state.data.damage))
        assert len(kept) == len(fresh)
        for a, b in zip(kept, fresh, strict=True):
            _same_model(a, b)
            spends += isinstance(a, SpendDefenceToken)
    assert spends > 0


def test_events_outside_ship_events_change_no_defender_and_nothing_owed() -> None:
    """SWA-ATK 5 / SWA-DMG: folding an attack skips the defender and the damage owed for an
    event that is not one of ``damage.SHIP_EVENTS``; for every such event folded into an
    attack in bot games, both really come back unchanged."""
    from domain.rulesets.armada import attack_state

    seen: list[tuple[Any, Any]] = []
    real = attack_state.apply

    def recording(attack: Any, event: Any) -> Any:
        seen.append((attack, event))
        return real(attack, event)

    data = json.loads(SCENARIO.read_text())
    with pytest.MonkeyPatch.context() as m:
        m.setattr(attack_state, "apply", recording)
        for seed in (4, 5):
            gid = str(uuid.uuid5(uuid.NAMESPACE_URL, f"armada-ship-events-{seed}"))
            game = FastGame.new(header_for("armada", data, game_id=gid, seed=seed))
            while game.bot_step(seed) is not None:
                pass
    skipped = 0
    for attack, event in seen:
        if isinstance(event, damage.SHIP_EVENTS):
            continue
        assert attack_state._apply_defender(attack, event) is attack
        assert damage.apply_dealing(attack.dealing, event) is attack.dealing
        skipped += 1
    assert skipped > 100


def _reference_declarations(state: ArmadaState, side: str) -> list[DeclareAttack]:
    """The legal attacks as listed before the speed work: every pair of zones checked with
    ``legal_declaration`` (after the unremembered pre-check)."""
    if state.attack is not None or state.dealings or state.obstacle_choice:
        return []
    attackers: list[tuple[str, tuple[str | None, ...]]] = []
    activation = state.activation
    if (
        state.phase == "ship"
        and activation is not None
        and state.squadron_activation is None
        and state.displaced is None
    ):
        attackers.append((activation.ship, tuple(z for z in ZONES if z not in activation.attacks)))
    if state.squadron_activation is not None:
        attackers = [(state.squadron_activation.squadron, (None,))]
    found: list[DeclareAttack] = []
    for unit, zones in attackers:
        for zone in zones:
            for target in integration._enemies(state, unit):
                if zone is not None and not integration._plausible_here(state, unit, zone, target):
                    continue
                for dzone in defending_zones(state, target):
                    order = DeclareAttack(
                        attacker=unit,
                        zone=zone,  # type: ignore[arg-type]
                        defender=target,
                        defending_zone=dzone,
                    )
                    if integration.legal_declaration(state, side, order):
                        found.append(order)
    return found


@pytest.mark.parametrize("seed", SEEDS)
def test_legal_attacks_equal_the_pairwise_check(seed: int) -> None:
    """The legal attacks listed (inputs built once per zone, pre-checks remembered) are, in
    order, those of checking every pair with ``legal_declaration``; and a squadron may attack
    exactly when one is listed."""
    checked = 0
    for state in _states(seed):
        for side in to_act(state):
            assert side is not None
            listed = integration.declarations(state, side)
            assert listed == _reference_declarations(state, side)
            checked += len(listed)
            current = state.squadron_activation
            if current is not None and state.squadrons[current.squadron].side == side:
                can = integration.squadron_can_attack(state, current.squadron)
                assert can == bool(listed)
    assert checked > 0  # the games did attack


def test_points_along_a_line_are_the_per_point_interpolations() -> None:
    """The bot's points along a squadron's room (one vectorised call) are those of
    ``interpolate`` point by point."""
    lines = [
        LineString([(0, 0), (13.7, 4.1), (20.3, 30.9)]),
        box(3.3, 7.1, 50.9, 22.2).exterior,
        Point(5, 5).buffer(17.3).exterior.intersection(box(0, 0, 9, 40)),
    ]
    for lines_ in lines:
        expected: list[tuple[float, float]] = []
        for part in getattr(lines_, "geoms", [lines_]):
            n = max(2, math.ceil(part.length / 2.0) + 1)
            expected += [part.interpolate(i / (n - 1), normalized=True).coords[0] for i in range(n)]
        assert bot._along(lines_) == expected


def test_bounding_box_rejects_agree_with_shapely() -> None:
    """Discs against discs and bases near the reject's threshold: the same answers as the
    shapely distance alone."""
    rng = random.Random(24)
    base = shapely.Polygon([(100, 100), (143, 100), (143, 170), (100, 170)])
    for _ in range(4000):
        radius = 17.3
        x, y = rng.uniform(40, 210), rng.uniform(40, 230)
        disc = Disc((x, y), radius)
        exact = float(shapely.distance(base, disc.point)) < radius - 1e-5
        assert overlap.squadron_overlaps(base, disc) == exact
        other = Disc((x + rng.uniform(-40, 40), y + rng.choice([-1, 1]) * rng.uniform(0, 40)), 17.3)
        gap = float(shapely.distance(disc.point, other.point))
        assert overlap.discs_overlap(disc, other) == (gap < 2 * radius - 1e-5)
    touching = Disc((143 + 17.3, 135.0), 17.3)  # exactly touching the base's edge
    assert overlap.squadron_overlaps(base, touching) is False
    assert overlap.discs_overlap(Disc((0.0, 0.0), 17.3), Disc((34.6, 0.0), 17.3)) is False


@pytest.mark.parametrize("seed", SEEDS)
def test_a_squadron_target_called_far_is_beyond_distance_one(seed: int) -> None:
    """``integration._far`` (the cheap bound before measuring a squadron's attack) calls a
    target far only when a fresh measurement puts every defending zone beyond distance 1; and
    the bound is not idle: it calls some targets far."""
    far = 0
    for state in _states(seed):
        squadrons = [sq for sq in state.squadrons.values() if sq.in_play]
        for sq in squadrons:
            for target in integration._enemies(state, sq.id):
                if not integration._far(state, sq.id, target):
                    continue
                far += 1
                for dzone in defending_zones(state, target):
                    fresh = _measure(state, sq.id, None, target, dzone, False)
                    assert fresh.geometry.distance != 1, (sq.id, target, dzone)
    assert far > 0


@pytest.mark.parametrize("seed", SEEDS)
def test_enemies_and_nearest_first_equal_fresh_ones(seed: int) -> None:
    """SWA-ATK 1: the targets a legal-attack search walks (``integration._enemies``,
    remembered per ships and squadrons part) are every enemy unit in play, ships first in
    scenario order; and ``nearest_first`` (each pair's distance worked out once) orders the
    candidate pairs as sorting them by a fresh centre-to-centre distance does."""
    ordered = 0
    for state in _states(seed):
        for unit in _units(state):
            mine = (state.ships.get(unit) or state.squadrons[unit]).side
            fresh = [
                *(s.id for s in state.ships.values() if s.in_play and s.side != mine),
                *(s.id for s in state.squadrons.values() if s.in_play and s.side != mine),
            ]
            assert list(integration._enemies(state, unit)) == fresh
        for side in to_act(state):
            found = list(integration.candidates(state, side))
            centre = integration._centre
            by_fresh = sorted(
                found, key=lambda c: math.dist(centre(state, c.unit), centre(state, c.defender))
            )
            assert integration.nearest_first(state, found) == by_fresh
            ordered += len(found) > 1
    assert ordered > 0  # some searches had pairs to order


@pytest.mark.parametrize("seed", SEEDS)
def test_worth_attacking_is_whether_the_best_attack_is_declared(seed: int) -> None:
    """``worth_attacking`` (stops at the first attack worth declaring) answers as
    ``best_attack(...) is not None``, for the states of a game and for the bot's trial of each
    ready squadron attacking from where it stands."""
    from domain.rulesets.armada.attack_bot import best_attack, worth_attacking

    worth = 0
    for state in _states(seed):
        for side in to_act(state):
            assert side is not None
            for trial in _trials(state, side):
                expected = best_attack(trial, side) is not None
                assert worth_attacking(trial, side) == expected
                worth += expected
    assert worth > 0  # some were worth it


def _trials(state: ArmadaState, side: str) -> list[ArmadaState]:
    """The state, and the bot's squadron trials from it: each ready squadron activated."""
    from domain.frozen import changed
    from domain.rulesets.armada.squadron_phase import ready_squadrons
    from domain.rulesets.armada.state import SquadronActivation

    trials = [state]
    if state.attacks_allowed() and state.squadron_activation is None:
        trials += [
            changed(state, squadron_activation=SquadronActivation(squadron=sq.id))
            for sq in ready_squadrons(state, side)
        ]
    return trials


def _reference_best_attack(state: ArmadaState, side: str) -> DeclareAttack | None:
    """The bot's attack as chosen before the bound: every legal attack scored, the highest
    (the first on a tie) if it reaches ``MIN_EXPECTED``."""
    from domain.rulesets.armada.attack_bot import MIN_EXPECTED, _score

    scored = [(_score(state, o), i, o) for i, o in enumerate(integration.declarations(state, side))]
    if not scored:
        return None
    score, _, order = max(scored, key=lambda t: (t[0], -t[1]))
    return order if score >= MIN_EXPECTED else None


@pytest.mark.parametrize("seed", SEEDS)
def test_best_attack_with_the_score_bound_is_the_best_of_all_scored(seed: int) -> None:
    """``best_attack`` (pairs whose score bound cannot win are not measured) picks the attack
    that scoring every legal one picks, for the states of a game and the bot's squadron
    trials; every bound is at least the score it bounds; and the bound is not idle."""
    from domain.rulesets.armada.attack_bot import _bound, _score, best_attack

    chosen = loose = 0
    for state in _states(seed):
        for side in to_act(state):
            assert side is not None
            for trial in _trials(state, side):
                expected = _reference_best_attack(trial, side)
                assert best_attack(trial, side) == expected
                chosen += expected is not None
                for order in integration.declarations(trial, side):
                    attacker = attacker_input(trial, order.attacker, order.zone)
                    bound = _bound(trial, attacker, order.defender, order.defending_zone)
                    score = _score(trial, order)
                    assert bound >= score
                    loose += bound > score
    assert chosen > 0 and loose > 0


@pytest.mark.parametrize("crits", [False, True])
def test_keyed_pool_odds_equal_fresh_ones(crits: bool) -> None:
    """An attack roll's odds remembered per pool and score key (``pool_roll(score_key=...)``)
    are the odds built from the pool's distribution for that roll."""
    from domain.chance import pool_roll
    from domain.dice import SeededDice
    from domain.rulesets.armada.attack_events import DIE

    def score(icons: Counter[str]) -> int:
        return icons["hit"] + (icons["crit"] if crits else 0)

    rng = random.Random(7)
    for n in range(60):
        colours = [rng.choice(["red", "blue", "black"]) for _ in range(rng.randint(1, 5))]
        pool = [DIE[c] for c in colours]
        args: dict[str, Any] = {
            "side": "a",
            "purpose": "attack",
            "rule": "SWA-ATK",
            "unit": "damage",
        }
        keyed = pool_roll(SeededDice(n), pool=pool, score=score, score_key=("t", crits), **args)
        fresh = pool_roll(SeededDice(n), pool=pool, score=score, **args)
        assert keyed == fresh


def _reference_trace(
    start: Any,
    end: Any,
    *,
    defender: Any = None,
    defending_zone: Any = None,
    obstacles: Any = None,
    ships: Any = None,
    hidden: Any = (),
) -> Any:
    """Line of sight as ``sight.trace`` computed it before the bounding-box reject: every
    obstacle and ship base handed to shapely, the line always cut by the hidden tokens."""
    from domain.rulesets.armada.geometry import crossed, shrink
    from domain.rulesets.armada.sight import Sight

    line = LineString([start, end])
    blocked: tuple[Any, ...] = ()
    if defender is not None:
        others = [z for z in ZONES if z != defending_zone]
        hits = crossed(line, [defender.zone_interiors[z] for z in others])
        blocked = tuple(z for z, hit in zip(others, hits, strict=True) if hit)
    visible = line
    for shape in hidden:
        visible = visible.difference(shape)
    names: list[str] = []
    shapes: list[Any] = []
    for group in (obstacles or {}, ships or {}):
        for name in sorted(group):
            names.append(name)
            shapes.append(shrink(group[name]))
    obstructed: tuple[str, ...] = ()
    if not visible.is_empty:
        hits = crossed(visible, shapes)
        obstructed = tuple(n for n, hit in zip(names, hits, strict=True) if hit)
    return Sight(line, blocked, obstructed)


@pytest.mark.parametrize("seed", SEEDS)
def test_sight_with_bounding_box_rejects_equals_shapely_alone(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``sight.trace`` and ``sight.obstructed_between`` leave out the shapes whose bounding box
    is apart from the line's: every line of sight measured in the states of a game (attacks
    and engagements) blocks and is obstructed as with every shape handed to shapely."""
    from domain.rulesets.armada import attack_inputs, squadron_phase

    def reference_obstructed(start: Any, end: Any, **kwargs: Any) -> bool:
        return bool(_reference_trace(start, end, **kwargs).obstructed)

    obstructed = 0
    for state in _states(seed)[::6]:
        for unit, zone, target in _enemy_pairs(state):
            for dzone in defending_zones(state, target):
                fast = _measure(state, unit, zone, target, dzone, False)
                with monkeypatch.context() as m:
                    m.setattr(attack_inputs, "trace", _reference_trace)
                    ref = _measure(state, unit, zone, target, dzone, False)
                assert fast.geometry == ref.geometry
                if ref.sight is not None:
                    assert fast.sight is not None
                    assert fast.sight.blocked_by == ref.sight.blocked_by
                    assert fast.sight.obstructed_by == ref.sight.obstructed_by
                    assert fast.sight.line.equals(ref.sight.line)
                    obstructed += ref.sight.obstructed
        for squadron in state.squadrons.values():
            if squadron.in_play:
                fresh = _engaged_with(state, squadron.id)
                with monkeypatch.context() as m:
                    m.setattr(squadron_phase, "obstructed_between", reference_obstructed)
                    assert fresh == _engaged_with(state, squadron.id)
    assert obstructed > 0  # some lines were obstructed: the test saw the reject keep a shape


@pytest.mark.parametrize("seed", SEEDS)
def test_scored_courses_equal_the_pose_by_pose_score(seed: int) -> None:
    """The bot's maneuver search scores its courses without a ``Pose`` per course
    (``bot._scored_courses``): for every ship in play in the states of a game, at every speed
    0–4, every course and side scores as ``_course_score`` scores ``quick_final``'s pose, and
    the pose's numbers are that pose's."""
    from domain.rulesets.armada.maneuver import courses, yaw_limits
    from domain.rulesets.armada.maneuvering import Mover

    scored = 0
    for state in _states(seed)[::3]:
        for ship in state.ships.values():
            if not ship.in_play or ship.x is None:
                continue
            card = state.card(ship.id)
            mover = Mover(state, ship.id)
            nearest = bot.nearest_enemy(state, ship)
            options = [
                (speed, course, side)
                for speed in range(card.max_speed + 1)
                for course in courses(yaw_limits(card, speed))
                for side in (("right", "left") if course else ("right",))
            ]
            fast = bot._scored_courses(state, mover, options, nearest)  # type: ignore[arg-type]
            for (speed, course, side), got in zip(options, fast, strict=True):
                pose = bot.quick_final(mover.start, mover.size, mover.tool, course, side)  # type: ignore[arg-type]
                value = bot._course_score(state, ship, pose, mover.size, speed, nearest)
                value -= 3.0 if speed == 0 else 0.0
                assert got == (value, speed, course, side, pose.x, pose.y, pose.heading)
                scored += 1
    assert scored > 1000


@pytest.mark.parametrize("seed", SEEDS)
def test_course_offsets_kept_per_base_and_tool_equal_fresh_ones(seed: int) -> None:
    """SWA-2.4 (maneuver tool): the bot's table of course offsets per base and tool
    (``bot._offset_table``, filled as the maneuver search asks over a game) holds, for every
    course and side, what ``_course_offset`` computes without its cache."""
    fresh = bot._course_offset.__wrapped__  # type: ignore[attr-defined]
    checked = 0
    for state in _states(seed):
        tool = state.data.geometry.maneuver_tool
        for ship in state.ships.values():
            size = state.data.geometry.base_sizes[state.card(ship.id).size]
            args = bot._tool_key(size, tool)
            for (course, side), kept in bot._offset_table(*args).items():
                assert kept == fresh(*args, course, side)
                checked += 1
    assert checked > 100  # the games' maneuvers filled the tables


@pytest.mark.parametrize("seed", SEEDS)
def test_tool_overlaps_kept_by_content_token_equal_fresh_ones(seed: int) -> None:
    """SWA-2.4 (the maneuver tool may not overlap the ship's own final base): the tool overlap
    the bot asks per course (``Mover.overlaps_tool``, remembered under a token for the hull,
    base and start pose), for every ship in play in the states of a game, every speed, course
    and side, equals the tool placed and tested afresh."""
    from domain.rulesets.armada.geometry import place_ship
    from domain.rulesets.armada.maneuver import courses, execute, yaw_limits
    from domain.rulesets.armada.maneuvering import Mover

    seen: Counter[bool] = Counter()
    for state in _states(seed)[::3]:
        for ship in state.ships.values():
            if not ship.in_play:
                continue
            mover = Mover(state, ship.id)
            card = state.card(ship.id)
            for speed in range(1, card.max_speed + 1):
                for course in courses(yaw_limits(card, speed)):
                    for side in ("right", "left"):
                        move = execute(mover.start, mover.size, mover.tool, course, side)
                        base = place_ship(mover.hull, mover.size, move.final).base
                        fresh = bool(move.overlaps_tool(base))
                        assert mover.overlaps_tool(course, side) == fresh
                        seen[fresh] += 1
    assert seen[True] > 0 and seen[False] > 0  # both answers were checked


def test_shared_defence_tokens_equal_fresh_ones() -> None:
    """SWA-DEF: the shared token model per kind and state (``defence.token_in``, used when
    folding a token spent or discarded) equals a fresh one, field for field and in the fields
    it was given."""
    from typing import get_args

    from domain.rulesets.armada.defence import DefenceToken, TokenKind, TokenState, token_in

    for kind in get_args(TokenKind):
        for state in get_args(TokenState):
            fresh = DefenceToken(kind=kind, state=state)
            shared = token_in(kind, state)
            assert shared == fresh
            assert shared.model_fields_set == fresh.model_fields_set
            assert token_in(kind, state) is shared
    with pytest.raises(ValueError):
        token_in("no such token", "ready")  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", SEEDS)
def test_beaten_sides_equal_fresh_ones(seed: int) -> None:
    """SWA-5: the sides with no ship left (``scoring.beaten_sides``, remembered per ships and
    scenario part) are those a fresh look at every ship finds, in every state of a game, and
    in the same states with each side's ships destroyed."""
    from domain.frozen import changed
    from domain.rulesets.armada.scoring import beaten_sides

    def fresh(state: ArmadaState) -> tuple[str, ...]:
        return tuple(
            side
            for side in state.scenario.side_ids
            if not any(s.side == side and not s.destroyed for s in state.ships.values())
        )

    beaten = 0
    for state in _states(seed):
        assert beaten_sides(state) == fresh(state)
        for side in state.scenario.side_ids:
            ships = {
                k: changed(s, destroyed=True) if s.side == side else s
                for k, s in state.ships.items()
            }
            lost = changed(state, ships=ships)
            assert beaten_sides(lost) == fresh(lost)
            beaten += side in beaten_sides(lost)
    assert beaten > 0


def _reference_plausible(state: ArmadaState, unit: str, zone: Any, defender: str) -> bool:
    """``integration._plausible_here`` before its centre-distance bound: shapely's distance
    between the bases, then the arc."""
    from domain.rulesets.armada.arcs import distance_between, in_arc

    placed = state.placed(unit)
    target = state.placed(defender).base if defender in state.ships else state.disc(defender)
    if distance_between(placed.base, target) > state.data.geometry.range_bands.long + 1.0:
        return False
    return in_arc(placed, zone, target)


@pytest.mark.parametrize("seed", SEEDS)
def test_plausible_bound_agrees_with_the_shapely_distance(seed: int) -> None:
    """The legal-attack pre-check's centre-distance bound never calls a target out of reach
    that shapely's distance keeps: every ship zone against every enemy in the states of a
    game gets the same answer with and without the bound."""
    for state in _states(seed)[::2]:
        for ship in state.ships.values():
            if not ship.in_play:
                continue
            for target in integration._enemies(state, ship.id):
                for zone in ZONES:
                    assert integration._plausible_here(
                        state, ship.id, zone, target
                    ) == _reference_plausible(state, ship.id, zone, target)


def test_pools_at_range_are_the_pools_built_fresh() -> None:
    """``DicePool.at_range`` hands out one shared pool per dice and band: equal to the pool
    built from the armament's dice, for every armament and band."""
    from domain.rulesets.armada.data import DicePool

    for red in range(4):
        for blue in range(4):
            for black in range(4):
                pool = DicePool(red=red, blue=blue, black=black)
                for band in ("close", "medium", "long"):
                    fresh = DicePool(
                        red=red,
                        blue=blue if band in ("close", "medium") else 0,
                        black=black if band == "close" else 0,
                    )
                    assert pool.at_range(band) == fresh  # type: ignore[arg-type]
                    assert pool.at_range(band) is pool.at_range(band)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", SEEDS)
def test_positions_remembered_for_the_last_state_equal_fresh_ones(seed: int) -> None:
    """``geocache.positions`` keeps the last state's answer: asked about the states of a game
    in turn, and about an earlier state again, it answers as when nothing is kept."""
    from domain.rulesets.armada import geocache

    def fresh(state: ArmadaState) -> tuple[int, int, int]:
        geocache._set_last((None, (0, 0, 0)))
        return geocache.positions(state)

    states = _states(seed)
    for before, state in pairwise(states):
        kept = geocache.positions(state)
        assert geocache.positions(state) is kept
        assert kept == fresh(state)
        assert geocache.positions(before) == fresh(before)
        assert geocache.positions(state) == kept


def _reference_room(
    ship: Any, radius: float, gap: float, area: Any, bases: list[Any], discs: list[Disc]
) -> Any:
    """``overlap.room_touching`` as it was: every shape buffered afresh, all of them united
    and cut from the ring."""
    ring = ship.buffer(radius + gap / 2, quad_segs=32).exterior
    margin = overlap.ROOM_MARGIN
    blocked = [b.buffer(radius + margin, quad_segs=32) for b in bases]
    blocked += [d.point.buffer(d.radius + radius + margin, quad_segs=32) for d in discs]
    inside = box(
        radius + margin,
        radius + margin,
        area.width - radius - margin,
        area.height - radius - margin,
    )
    free = ring.intersection(inside)
    if blocked:
        free = free.difference(shapely.union_all(blocked))
    return free


def _same_shape(a: Any, b: Any) -> bool:
    """The same geometry, coordinate for coordinate and part for part (the bot samples points
    along it from its start), or both empty."""
    if a.is_empty or b.is_empty:
        return bool(a.is_empty and b.is_empty)
    return a.geom_type == b.geom_type and bool(shapely.equals_exact(a, b, 0.0))


@pytest.mark.parametrize("seed", SEEDS)
def test_room_beside_a_ship_equals_the_cut_by_every_shape(seed: int) -> None:
    """The room beside each ship in play for a squadron (shapes remembered, only those that can
    reach the ring cut from it) is the room cut by every other base and disc, for every ship
    of the states of a game; and the filter is not idle."""
    from domain.rulesets.armada.maneuvering import TOUCH, room_beside

    left_out = 0
    for state in _states(seed):
        geometry = state.data.geometry
        discs = [state.disc(s.id) for s in state.squadrons.values() if s.in_play]
        for ship in state.ships.values():
            if not ship.in_play:
                continue
            bases = [
                state.placed(s.id).base
                for s in state.ships.values()
                if s.in_play and s.id != ship.id
            ]
            fresh = _reference_room(
                state.placed(ship.id).base,
                geometry.squadron_base_radius,
                TOUCH,
                geometry.play_area,
                bases,
                discs,
            )
            assert _same_shape(room_beside(state, ship.id, discs), fresh)
            radius = geometry.squadron_base_radius
            ring = state.placed(ship.id).base.buffer(radius + TOUCH / 2, quad_segs=32).exterior
            blocked = [overlap._buffered(b, radius + overlap.ROOM_MARGIN) for b in bases]
            blocked += [
                overlap._buffered(d, d.radius + radius + overlap.ROOM_MARGIN) for d in discs
            ]
            left_out += len(overlap._reaching(ring.bounds, blocked)) < len(blocked)
    assert left_out > 0


def test_room_touching_with_shapes_near_and_far_equals_the_cut_by_every_shape() -> None:
    """Random ships, bases and discs, some overlapping the ring, some far, some touching each
    other: the same room as cutting every shape."""
    from domain.rulesets.armada.data import PlayArea

    rng = random.Random(2024)
    area = PlayArea(width=914.4, height=914.4)
    base = shapely.Polygon([(0, 0), (43, 0), (43, 71), (0, 71)])

    def placed(x: float, y: float) -> Any:
        return shapely.affinity.translate(shapely.affinity.rotate(base, rng.uniform(0, 360)), x, y)

    for _ in range(600):
        cx, cy = rng.uniform(0, 914.4), rng.uniform(0, 914.4)
        ship = placed(cx, cy)
        spread = rng.choice([60.0, 150.0, 500.0])
        bases = [
            placed(cx + rng.uniform(-spread, spread), cy + rng.uniform(-spread, spread))
            for _ in range(rng.randint(0, 3))
        ]
        discs = [
            Disc((cx + rng.uniform(-spread, spread), cy + rng.uniform(-spread, spread)), 17.3)
            for _ in range(rng.randint(0, 6))
        ]
        kept = overlap.room_touching(ship, 17.3, 0.5, area, bases, discs)
        assert _same_shape(kept, _reference_room(ship, 17.3, 0.5, area, bases, discs))


def test_a_decisions_folder_equals_folding_from_the_start() -> None:
    """``rules._Folder`` (a decision's folds, each going on from the last fold of the same
    state when its events begin with that fold's) gives the states ``fold_all`` gives, for the
    growing event lists of a bot game's orders, with folds from other states in between."""
    from domain.rulesets.armada.rules import _Folder, fold_all

    data = json.loads(SCENARIO.read_text())
    gid = str(uuid.uuid5(uuid.NAMESPACE_URL, "armada-caches-folder"))
    game = FastGame.new(header_for("armada", data, game_id=gid, seed=5))
    went_on = 0
    for _ in range(400):
        before = game.rules
        step = game.bot_step(5)
        if step is None:
            break
        events = step[2]
        folder = _Folder()
        grown: list[Any] = []
        for event in events:
            grown.append(event)  # one list growing in place, as a decider's
            assert folder(before, grown) == fold_all(before, grown)
            middle = fold_all(before, grown[:1])
            assert folder(middle, grown[1:]) == fold_all(middle, grown[1:])
            went_on += len(grown) > 1
        assert folder(before, events) == game.rules
    assert went_on > 0


def _reference_additional_targets(state: ArmadaState) -> list[Any]:
    """``integration.additional_targets`` before its pre-check: every enemy squadron in play
    not yet targeted, measured and checked."""
    from domain.errors import IllegalCommand
    from domain.rulesets.armada import attack as pipeline
    from domain.rulesets.armada.commands import AdditionalTarget

    attack = state.attack
    assert attack is not None
    found = []
    for squadron in state.squadrons.values():
        if not squadron.in_play or squadron.side == attack.attacker.side:
            continue
        if squadron.id in attack.targeted:
            continue
        defender = defender_input(state, squadron.id, None)
        geometry = _measure(
            state, attack.attacker.id, attack.attacker.zone, squadron.id, None, False
        ).geometry
        engaged = any(s != attack.attacker.id for s in _engaged_with(state, squadron.id))
        geometry = geometry.model_copy(update={"defender_engaged": engaged})
        try:
            pipeline.check_target(attack.attacker, defender, geometry, state.data.damage)
        except IllegalCommand:
            continue
        found.append(AdditionalTarget(squadron=squadron.id))
    return found


@pytest.mark.parametrize("seed", SEEDS)
def test_additional_targets_with_the_pre_check_equal_every_squadron_checked(seed: int) -> None:
    """SWA-ATK 6: the squadrons an attack may target next, listed after the arc-and-range
    pre-check, are those of measuring and checking every enemy squadron, for every attack in
    progress in a game taken to its additional-target step; and some are listed."""
    from domain.frozen import changed

    listed = 0
    for state in _states(seed):
        attack = state.attack
        if attack is None or attack.attacker.kind != "ship":
            continue
        trial = changed(state, attack=changed(attack, step="additional"))
        expected = _reference_additional_targets(trial)
        assert integration.additional_targets(trial) == expected
        listed += len(expected)
    assert listed > 0


def _random_rooms(rng: random.Random) -> Iterator[Any]:
    """Rooms as the bot meets them: a ring around a turned base cut by discs and the table's
    edge (a line, several lines, or nothing), and a few plain lines and points."""
    from domain.rulesets.armada.data import PlayArea

    area = PlayArea(width=914.4, height=914.4)
    base = shapely.Polygon([(0, 0), (43, 0), (43, 71), (0, 71)])
    for _ in range(150):
        x, y = rng.uniform(-20, 900), rng.uniform(-20, 900)
        ship = shapely.affinity.translate(shapely.affinity.rotate(base, rng.uniform(0, 360)), x, y)
        discs = [
            Disc((x + rng.uniform(-80, 120), y + rng.uniform(-80, 120)), 17.3)
            for _ in range(rng.randint(0, 5))
        ]
        yield overlap.room_touching(ship, 17.3, 0.5, area, [], discs)
    yield LineString([(0, 0), (13.7, 4.1), (20.3, 30.9)])
    yield shapely.MultiPoint([(3.0, 4.0), (5.5, 1.25)])
    yield shapely.GeometryCollection([Point(7.0, 7.0), LineString([(1, 1), (9, 3)])])


def test_rough_points_along_a_line_are_within_the_slack_of_geos() -> None:
    """The bot's rough interpolation (numpy) is within a thousandth of ``NEAR_SLACK`` of
    GEOS's points, on rooms like the bot's."""
    import numpy as np

    rng = random.Random(11)
    worst = 0.0
    for room in _random_rooms(rng):
        for part in getattr(room, "geoms", [room]):
            if part.is_empty or part.geom_type == "Point":
                continue
            n = max(2, math.ceil(part.length / 2.0) + 1)
            fractions = [i / (n - 1) for i in range(n)]
            exact = shapely.get_coordinates(shapely.line_interpolate_point(part, fractions, True))
            rough = bot._rough_along(np.asarray(part.coords, dtype=float), fractions)
            worst = max(worst, float(np.abs(exact - rough).max()))
    assert worst < bot.NEAR_SLACK / 1000


def test_the_nearest_legal_point_along_a_room_is_the_first_of_all_sorted() -> None:
    """``_nearest_along`` (GEOS's points computed for the nearest few) gives the point of
    sorting every point along the room and taking the first legal one, for legality tests
    that refuse none, the nearest points, a random share, or all."""
    rng = random.Random(12)
    for room in _random_rooms(rng):
        origin = (rng.uniform(-50, 950), rng.uniform(-50, 950))
        ordered = sorted(bot._along(room), key=lambda p: (math.dist(p, origin), p))
        refusals: list[set[Any]] = [
            set(),
            set(ordered[: rng.randint(1, 40)]),
            {p for p in ordered if rng.random() < 0.5},
            set(ordered),
        ]
        for refused in refusals:
            expected = next((p for p in ordered if p not in refused), None)
            found = bot._nearest_along(room, origin, lambda p, r=refused: p not in r)
            assert found == expected
