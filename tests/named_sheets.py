"""Write the dice and card sheets of a physical fixture recorded with named draws (issue 20).

Bots play a physical game whose faces and cards come from a seed (standing in for a table's
dice and decks); the faces and the cards the game consumed are written as a scribe's sheets,
which ``make fixtures`` feeds back to ``wake record --physical --dice-sheet --card-sheet``:

    python -m tests.named_sheets armada fixtures/scenarios/armada/core_learning.json 3 \\
        fixtures/dice/core_learning_armada_named.txt fixtures/cards/core_learning_armada.txt
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from domain.dice import SeededDice
from domain.engine import Session, header_for
from domain.events import CommandIssued

MAX_ORDERS = 200_000


def sheets(ruleset: str, scenario: Path, seed: int) -> tuple[list[int], list[str]]:
    """The faces and card ids a physical named-draw game of ``scenario`` consumes when its
    chance comes from ``seed``, in order."""
    header = header_for(
        ruleset, json.loads(scenario.read_text("utf-8")), game_id="sheets", seed=None, cards="named"
    )
    session = Session(header)
    table = SeededDice(seed)
    for _ in range(MAX_ORDERS):
        if session.submit_bot(table) is None:
            break
    faces: list[int] = []
    cards: list[str] = []
    for fact in session.facts:
        if fact.topic == CommandIssued.TOPIC:
            issued = CommandIssued.model_validate(fact.payload)
            faces += issued.dice or []
            cards += issued.cards or []
    return faces, cards


def _write(path: Path, head: str, words: list[str] | list[int]) -> None:
    lines = [" ".join(map(str, words[i : i + 20])) for i in range(0, len(words), 20)]
    path.write_text(head + "\n".join(lines) + "\n", "utf-8")


def main(argv: list[str]) -> None:
    ruleset, scenario, seed, dice_out, cards_out = argv
    faces, cards = sheets(ruleset, Path(scenario), int(seed))
    what = f"# A physical {ruleset} game ({Path(scenario).stem}) with named draws (issue 20): the "
    made = f"# Made by: python -m tests.named_sheets {' '.join(argv)}\n"
    if faces:  # a game without dice (SHIPS) has no dice sheet
        _write(Path(dice_out), what + "dice faces in the order they were rolled.\n" + made, faces)
    _write(
        Path(cards_out),
        what + "cards drawn, by id, in the order they were drawn. Not on\n"
        "# it: a card nobody looks at (an Armada damage card dealt face down) and a draw whose\n"
        "# outcome is certain (the last order card): nobody is asked for them.\n" + made,
        cards,
    )


if __name__ == "__main__":
    main(sys.argv[1:])
