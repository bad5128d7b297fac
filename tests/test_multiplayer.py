"""Nothing generic assumes two sides or public state (issue 11, step 1): per-viewer read models
with private units, colours for six sides, the log's side column for player-named events,
simulation statistics without hidden cards."""

from __future__ import annotations

from domain.read_model import (
    HIDDEN_KIND,
    BoardView,
    GameView,
    SideView,
    UnitView,
    redact_view,
    sides_label,
)
from domain.record import read_record_file
from domain.simulate import play_one
from tests.helpers import FIXTURES
from tests.ships_helpers import scenario
from viewer.figures import PALETTE, side_colours
from viewer.timeline import Timeline


def _view() -> GameView:
    def card(side: str, n: int) -> UnitView:
        return UnitView(
            id=f"{side}-card-{n}", side=side, name=f"secret {side}{n}", kind="card",
            status="active", damage=0, strength=1, zone="hand",
            details={"seat": side, "card": f"secret_{side}{n}"}, private=True,
        )  # fmt: skip

    ship = UnitView(
        id="a-ship", side="a", name="Ship", kind="ship", status="active", damage=1, strength=3,
        zone="vanguard",
    )  # fmt: skip
    return GameView(
        ruleset="x", ruleset_name="X", scenario="s", turn=1, phase="p", active_side="a",
        sides=[SideView(id=s, name=s.upper(), vp=0, units_total=1, units_active=1) for s in "abc"],
        units=[ship, *(card(s, n) for s in "abc" for n in (1, 2))],
        board=BoardView(kind="zones", width=3, height=2, seats=["a", "b", "c"]),
    )  # fmt: skip


def test_redact_view_shows_each_of_n_sides_only_its_own_private_units() -> None:
    view = _view()
    assert redact_view(view, None) is view  # the umpire sees all
    for side in "abc":
        seen = redact_view(view, side)
        text = seen.model_dump_json()
        assert f"secret_{side}1" in text
        for other in set("abc") - {side}:
            assert f"secret_{other}" not in text and f"secret {other}" not in text
            placeholders = [u for u in seen.units if u.side == other and u.zone == "hand"]
            assert len(placeholders) == 2 and {u.kind for u in placeholders} == {HIDDEN_KIND}
        assert seen.units[0] == view.units[0]  # public units are untouched
    public = view.model_copy(update={"units": view.units[:1]})
    assert redact_view(public, "b") is public


def test_six_sides_get_six_distinct_colours() -> None:
    colours = side_colours([f"P{i}" for i in range(1, 7)])
    assert len(set(colours.values())) == 6 == len(PALETTE)


def test_the_log_names_the_player_of_player_events() -> None:
    rec = read_record_file(FIXTURES / "games/ships/multi3-three_players.wake.json")
    tl = Timeline(rec.header, rec.events[:40])
    drawn = [e for e in tl.events if e.topic == "ships.CardsDrawn/1"]
    assert [e.side for e in drawn] == ["P1", "P2", "P3"]


def test_simulation_statistics_leave_hidden_cards_out() -> None:
    outcome = play_one("ships", scenario("multi3"), {}, 3)
    assert outcome.finished and set(outcome.vp) == {"P1", "P2", "P3"}
    assert not [k for k in outcome.fielded_by_class if k == "card" or k.endswith(" card")]


def test_sides_read_as_a_duel_or_a_list_of_players() -> None:
    assert sides_label(["Graf Spee", "Exeter"]) == "Graf Spee v Exeter"
    assert sides_label(["A", "B", "C"]) == "A, B, C (3 players)"


def test_the_damage_charts_never_name_hidden_cards() -> None:
    rec = read_record_file(FIXTURES / "games/ships/multi3-three_players.wake.json")
    tl = Timeline(rec.header, rec.events[:200])
    names = set(tl.damage_unit.points)
    secret = {"Shock cannon salvo", "Missile salvo", "Mega-particle cannon", "Char Aznable"}
    assert names and not names & secret
