"""Iron & Oak IO-6.3.4 Collateral: the target's side chooses where the extra shield damage goes
(「目標側の選択」), driven through the engine one order at a time; and the criticals a Status
Phase explosion rolls on nearby ships (IO-3.1.2, IO-6.3).

Bundled data used (provisional): the Critical Hit Table's Ship column gives 2d6 3 Captain,
6 Collateral, 11 Jam (Collateral on a non-monitor); its WL-other column 7 Collateral. Virginia
(CSA) has locations B A S WL D (d8 1 B, 2-4 A, 5 S, 6-7 WL, 8 D), guns d10 / d10d6 / d10;
monitor (USA) B TF TS TR WL A D, defence of B d8d6.
"""

from __future__ import annotations

from tests.test_iron_oak_turn import (
    Rigged,
    doctor,
    events,
    new_game,
    play_until,
    scenario,
    submit,
    tennessee,
)


def test_io_3_1_2_status_explosion_attack_criticals_take_effect() -> None:
    """IO-3.1.2 / IO-6.3.8: a level-5 fire that did not drop explodes in the Status Phase; its
    attack on a ship in the same GB that reaches the critical band rolls a critical, and that
    critical takes effect at once (IO-6.3) — here Captain on the monitor."""
    at = {"virginia": (2, 2), "monitor": (2, 2), "cumberland": (1, 4)}
    s = new_game(scenario(at=at, extra=[tennessee((4, 2))]))
    doctor(s, "virginia", fire=5)
    submit(s, None, {"type": "deal"})
    play_until(s, "status", "CSA")
    submit(s, "CSA", {"type": "status"}, Rigged(s, 5))  # the fire stays at level 5
    play_until(s, "status", "CSA", turn=2)
    # fire 5 (explodes); d10+d6 hits 3+2; crew d4 1; the attack on the monitor: d8 1 (B),
    # d10 10 against d8d6 1 1 (critical band); 2d6 1+2 = 3: Captain
    new = submit(s, "CSA", {"type": "status"}, Rigged(s, 5, 3, 2, 1, 1, 10, 1, 1, 1, 2))
    [rolled] = events(new, "CriticalRolled")
    assert (rolled["unit"], rolled["critical"]) == ("monitor", "captain")
    applied = [(p["unit"], p["name"]) for p in events(new, "CriticalApplied")]
    assert applied == [("virginia", "explosion"), ("monitor", "captain")]
    assert "captain" in s.state.rules.ships["monitor"].criticals
