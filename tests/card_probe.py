"""A scribe's chance source for tests (issue 20, item 2): dice from a seed, each card drawn by
name chosen by a function (default: the seeded die over the request's cards), every request
kept. The lead's scribe asks for cards exactly this way: ``draw(die)`` and
``draw_card(request)``."""

from __future__ import annotations

from collections.abc import Callable

from domain.dice import CardRequest, CustomDie, Die, SeededDice


class Probe:
    def __init__(self, seed: int = 1, pick: Callable[[CardRequest], str] | None = None) -> None:
        self.dice = SeededDice(seed)
        self.pick = pick
        self.requests: list[CardRequest] = []
        self.position = 0

    def draw(self, die: Die | CustomDie) -> int:
        face = self.dice.draw(die)
        self.position = self.dice.position
        return face

    def draw_card(self, request: CardRequest) -> str:
        self.requests.append(request)
        card = self.pick(request) if self.pick else self.dice.draw_card(request)
        self.dice.position += 0 if self.pick is None else 1
        self.position = self.dice.position
        return card


class Refuse(Probe):
    """A source whose every card draw fails (a scribe who cancels), after keeping the request."""

    def draw_card(self, request: CardRequest) -> str:
        self.requests.append(request)
        raise RuntimeError("the scribe cancelled")
