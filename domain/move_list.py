"""A game's move list in players' words: one line per event, for the viewer and ``wake log``.

One source of the text a person reads about each event (issue 21 item 7): an order as its
sentence (``Ruleset.describe_order``, worded on the board it was given on), any other event as
the ruleset describes it, and every id in it as its display name (the ruleset's catalogue,
``Ruleset.names``; the sides whose ids are internal; each unit as the read model names it,
:func:`domain.words.unit_labels`, from the moment it is on the table). A side reads each event
redacted for it (``Ruleset.redact``) with only the names it may know; the umpire also reads
what each sealed choice turns out to hold (``domain.reveals``).

:class:`MoveList` is fed one event at a time (the viewer's ``Timeline`` feeds it from its own
pass over the game); :func:`build_move_list` makes the pass itself, for the CLI.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Sequence
from typing import Any

from domain.engine import Fact, GameState, apply_event, decode, new_game
from domain.events import CommandIssued, DomainEvent
from domain.explain import event_text
from domain.header import GameHeader
from domain.read_model import GameView, SideView
from domain.reveals import (
    Opened,
    SealedIndex,
    SealedItem,
    match_sealed,
    own_note,
    umpire_note,
)
from domain.ruleset import Ruleset
from domain.words import Names, unit_labels


def side_names(sides: Sequence[SideView]) -> dict[str, str]:
    """Side id -> the name players read, for the sides whose ids are internal (``royal_navy``
    -> ``Royal Navy``). A seat or an abbreviation in capitals (``P1``, ``USA``) is what the
    players call that side (the rules write "Bombshell (CSA)", SHIPS seats P1 to P6 round the
    table), so it reads as it is."""
    return {s.id: s.name for s in sides if s.id.islower()}


class MoveList:
    """The move list of one game, built event by event (:meth:`add`), then closed
    (:meth:`finish`) before :meth:`text` is read for a side or the umpire."""

    def __init__(self, state: GameState, view: GameView) -> None:
        """``state``: the game at its start; ``view``: its read model."""
        self.ruleset: Ruleset[Any, Any] = state.ruleset
        self._fixed_names = {**self.ruleset.names(state.rules), **side_names(view.sides)}
        self._known: dict[str, tuple[str, bool, str]] = {}  # id -> (label, private, side)
        self._name_seqs: list[int] = []
        self._name_maps: list[dict[str, tuple[str, bool, str]]] = []
        self._names_cache: dict[tuple[int, str | None], Names] = {}
        # each order's line before names, worded on the board it was given on (a side that
        # may read the order reads the same words)
        self._order_lines: dict[int, str] = {}
        self.known_units: set[str] = set()
        self.decoded: list[DomainEvent] = []  # for per-side texts of hidden information
        self.lines: list[str] = []  # each event's line as the umpire reads it, before notes
        self._commands: list[int | None] = []  # each event's order index
        self._sealed: list[tuple[int, list[SealedItem]]] = []
        self.sealed = SealedIndex()
        self._order_seals: dict[int, list[int]] = {}  # order index -> its committing events
        self._order_at: dict[int, int] = {}  # order index -> its CommandIssued event
        self.learn_names(0, view)

    # --- building --------------------------------------------------------------------------

    def add(
        self,
        fact: Fact,
        before: GameState,
        event: DomainEvent,
        board: GameView,
        after: GameView | None = None,
    ) -> str:
        """Note ``fact`` (``event``, decoded on ``before``, happening on the read model
        ``board``; ``after``: the read model after it, when the event changed the state);
        returns its line as the umpire reads it."""
        if after is not None:
            self.learn_names(fact.seq, after)
        if not isinstance(event, CommandIssued):
            items = self.ruleset.sealed_items(before.rules, event)
            if items:
                self._sealed.append((fact.seq, items))
        self.decoded.append(event)
        self._commands.append(fact.command)
        line = event_text(self.ruleset, event, board)
        if isinstance(event, CommandIssued):
            self._order_lines[fact.seq] = line
            if fact.command is not None:
                self._order_at[fact.command] = fact.seq
        self.lines.append(line)
        return self.names_at(fact.seq, None).text(line)

    def learn_names(self, seq: int, view: GameView) -> None:
        """Note the name of every unit of ``view`` (from event ``seq`` on). A unit once public
        stays named for everyone; a private one (a card in hand) only for its own side."""
        labels = unit_labels(view.units)
        changed = False
        for unit in view.units:
            label = labels.get(unit.id)
            if label is None:
                continue
            self.known_units.add(unit.id)
            old = self._known.get(unit.id)
            entry = (label, unit.private and (old is None or old[1]), unit.side)
            if old != entry:
                self._known[unit.id] = entry
                changed = True
        if changed or not self._name_maps:
            self._name_seqs.append(seq)
            self._name_maps.append(dict(self._known))

    def finish(self) -> None:
        """Match every sealed choice with its reveal (``domain.reveals.match_sealed``)."""
        self.sealed = match_sealed(self._sealed)
        self._order_seals = {}
        for seq in self.sealed.commits:
            command = self._commands[seq - 1]
            if command is not None:
                self._order_seals.setdefault(command, []).append(seq)

    # --- reading ---------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.lines)

    def names_at(self, seq: int, viewer: str | None) -> Names:
        """The display names ``viewer`` knows after event ``seq`` (``None``: the umpire)."""
        i = max(0, bisect.bisect_right(self._name_seqs, seq) - 1)
        key = (i, viewer)
        names = self._names_cache.get(key)
        if names is None:
            units = {
                uid: label
                for uid, (label, private, side) in self._name_maps[i].items()
                if viewer is None or not private or side == viewer
            }
            names = self._names_cache[key] = Names({**self._fixed_names, **units})
        return names

    def text(self, seq: int, viewer: str | None) -> str:
        """Event ``seq``'s line as ``viewer`` may read it (``None``: the umpire sees all, and
        what a sealed choice made here turns out to be; a side sees hidden information only
        once revealed, via ``Ruleset.redact``, and its own sealed choices)."""
        if viewer is None:
            text = self.names_at(seq, None).text(self.lines[seq - 1])
            note = umpire_note(self.sealed.committed_at(seq), seq)
            return text + (self.names_at(seq, None).text(note) if note else "")
        if not self.ruleset.meta.hidden_information:
            return self.names_at(seq, None).text(self.lines[seq - 1])
        event = self.decoded[seq - 1]
        seen = self.ruleset.redact(event, viewer)
        order = self._order_lines.get(seq) if seen == event else None
        line = order if order is not None else event_text(self.ruleset, seen)
        return self.names_at(seq, viewer).text(line + own_note(self._own(seq, viewer), seq))

    def _own(self, seq: int, viewer: str) -> list[Opened]:
        """The choices sealed at event ``seq`` by ``viewer``'s own orders (with their content
        from the later reveal): the side knew them when it made them."""
        return [e for e in self.sealed.committed_at(seq) if self.sealed_by(e.seq) == viewer]

    def sealed_by(self, seq: int) -> str | None:
        """The side whose order sealed the choice of event ``seq`` (None: no order did)."""
        command = self._commands[seq - 1]
        if command is None:
            return None
        issued = self.decoded[self._order_at[command] - 1]
        return issued.side if isinstance(issued, CommandIssued) else None

    def sealed_lines(self, seq: int, viewer: str | None) -> list[str]:
        """For the explanation of event ``seq``: the umpire reads each choice sealed by the
        order behind it (its commitment and the content of the later reveal, and whether it is
        still sealed at this moment), and each commitment the event opens; a side only what
        its own orders sealed (issue 21 item 3)."""
        if not 1 <= seq <= len(self.lines):
            return []
        command = self._commands[seq - 1]
        made = self._order_seals.get(command, []) if command is not None else []
        if viewer is not None:
            own = [e for s in made or [seq] for e in self._own(s, viewer) if e.text is not None]
            say = self.names_at(seq, viewer).text
            return [say(f"your sealed choice at event {e.seq}: {e.label} = {e.text}") for e in own]
        entries: list[Opened] = [e for s in made or [seq] for e in self.sealed.committed_at(s)]
        lines = [f"sealed at event {e.seq}: {e.line(seq)}" for e in entries]
        lines += [
            f"opens the seal of event {e.seq}: {e.label} = {e.text} (content and salt hash "
            "to the committed digest)"
            for e in self.sealed.opened_at(seq)
        ]
        names = self.names_at(seq, None)
        return [names.text(line) for line in lines]


def build_move_list(header: GameHeader, facts: Sequence[Fact]) -> MoveList:
    """The move list of a whole game, in one pass over its facts."""
    state = new_game(header)
    view = state.ruleset.read_model(state.rules)
    moves = MoveList(state, view)
    for fact in facts:
        before = state
        event = decode(before, fact)
        state = apply_event(state, event, fact.digest)
        board = view
        if state.rules is not before.rules:
            view = state.ruleset.read_model(state.rules)
        moves.add(fact, before, event, board, view if view is not board else None)
    moves.finish()
    return moves


def log_lines(
    header: GameHeader,
    facts: Sequence[Fact],
    viewer: str | None = None,
    start: int = 1,
    stop: int | None = None,
) -> Iterator[str]:
    """``wake log``: events ``start`` to ``stop`` as ``viewer`` reads them in the move list,
    one line each, numbered, ``*`` marking an automatic event."""
    moves = build_move_list(header, facts)
    for fact in facts:
        if start <= fact.seq and (stop is None or fact.seq <= stop):
            marker = "*" if fact.automatic else " "
            yield f"{fact.seq:>6}{marker} {moves.text(fact.seq, viewer)}"
