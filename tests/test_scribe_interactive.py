"""``wake play GAME --interactive`` driven through a pseudo-terminal (issue 20): numbered orders,
a prompt per field and per die, a die's impossible face asked again, a refused order naming its
rule (PL-2) with nothing appended, a take-back kept as a variation."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

from domain.engine import header_for
from domain.scribe import table as T
from domain.store import GameStore
from tests.helpers import ROOT

SCENARIO = {
    "id": "pty_duel",
    "title": "Keyboard duel",
    "table": {"width": 100, "height": 60},
    "sides": [{"id": "alpha", "name": "Alpha"}, {"id": "bravo", "name": "Bravo"}],
    "units": [
        {"id": "a1", "name": "Aurora", "side": "alpha", "class": "heavy_cruiser", "x": 40, "y": 30},
        {
            "id": "b1",
            "name": "Bellona",
            "side": "bravo",
            "class": "heavy_cruiser",
            "x": 55,
            "y": 30,
        },
    ],
    "victory": {"annihilation": True, "turn_limit": 2},
}


class Terminal:
    """A command on a pseudo-terminal: type lines, read until a text appears."""

    def __init__(self, args: list[str]) -> None:
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen(
            args, stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, close_fds=True
        )
        os.close(slave)
        self.seen = ""

    def expect(self, text: str, timeout: float = 60.0) -> str:
        deadline = time.monotonic() + timeout
        while text not in self.seen:
            left = deadline - time.monotonic()
            assert left > 0, f"{text!r} did not appear; the terminal shows:\n{self.seen[-2000:]}"
            ready, _, _ = select.select([self.master], [], [], min(left, 0.5))
            if ready:
                try:
                    self.seen += os.read(self.master, 65536).decode("utf-8", "replace")
                except OSError:
                    break
        at = self.seen.index(text) + len(text)
        shown, self.seen = self.seen[:at], self.seen[at:]
        return shown

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def close(self) -> int:
        try:
            return self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return -1
        finally:
            os.close(self.master)


def test_a_scribe_records_at_the_keyboard(tmp_path: Path) -> None:
    store_path = str(tmp_path / "store.sqlite3")
    store = GameStore(store_path)
    header = header_for(
        "morze", SCENARIO, game_id="00000000-0000-4000-8000-0000000e0001", seed=None
    )
    gid = store.create_game(header)
    wake = str(Path(sys.executable).with_name("wake"))
    term = Terminal([wake, "play", gid, "--interactive", "--store", store_path])
    try:
        term.expect("1. Roll for initiative")
        term.type("1")
        term.expect("Roll: initiative [PL-1]: Alpha: d10")
        term.expect("Alpha · die 1 (d10")
        term.type("11")  # a d10 cannot show 11: asked again
        term.expect("d10 cannot show '11'")
        term.type("7")
        term.expect("Bravo · die 1 (d10")
        term.type("0")  # a d10's 0 reads as 10 (IO-1.6): Bravo wins the initiative
        shown = term.expect("decision: Alpha")
        assert "7" in shown and "10" in shown and "initiative" in shown
        term.expect("Order: ")
        term.type("1")  # Move Aurora
        term.expect("(x y)")
        term.type("95 30")  # 55 cm: too far
        term.expect("refused [PL-2]")
        assert store.state(gid).seq == 4  # nothing appended
        term.expect("Order: ")
        term.type("1")
        term.expect("(x y)")
        term.type("45 30")
        term.expect("a1 moves")
        term.expect("Order: ")
        term.type("t")  # take the move back: kept as a variation
        term.expect("taken back")
        term.expect("Order: ")
        term.type("q")
        term.expect("Stopped; 2 order(s) recorded")
    finally:
        status = term.close()
    assert status == 0
    current = T.current_game(store, gid)
    assert current != gid and store.header(current).parent is not None
    assert store.state(current).seq == 4 and store.state(gid).seq > 4
    assert json.loads(json.dumps(T.links(store, gid))) == []
