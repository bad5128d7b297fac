"""``wake play GAME --interactive`` (issue 20): a scribe with a laptop and no browser records a
game at the keyboard. The same menu, dice requests, checks and messages as the browser page:
numbered orders, a prompt for each field and for each die, nothing typed as JSON.

Keys at the order prompt: a number gives that order, ``b`` lets the bot give the next order,
``t`` takes back the last order (kept as a variation), ``q`` stops (everything given is kept).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from domain.engine import GameState, bot_order, bot_secret, decode, named_refusal
from domain.errors import InvalidCommand, OrderConflict, WakeError
from domain.events import CommandIssued
from domain.scribe import table as T
from domain.scribe.menu import MenuField, MenuOrder, build_command, open_choices
from domain.scribe.probe import DiceAsk, preview, probe
from domain.store import GameStore

Ask = Callable[[str], str]
Say = Callable[[str], None]


class Quit(Exception):
    """The scribe stopped (``q`` or the end of input)."""


def _read(ask: Ask, prompt: str) -> str:
    try:
        answer = ask(prompt)
    except EOFError as exc:
        raise Quit from exc
    if answer.strip().lower() == "q":
        raise Quit
    return answer.strip()


def _number(
    ask: Ask, say: Say, prompt: str, count: int, *, allow_empty: bool = False
) -> int | None:
    """A number 1..count (None for an empty answer when allowed), asked again until valid."""
    while True:
        answer = _read(ask, prompt)
        if not answer and allow_empty:
            return None
        if answer.isdigit() and 1 <= int(answer) <= count:
            return int(answer) - 1
        say(f"  type a number from 1 to {count}" + (" (or Enter for none)" if allow_empty else ""))


def _field(ask: Ask, say: Say, field: MenuField, values: dict[str, Any]) -> Any:
    """Ask for one field's value, as the menu allows it."""
    secret = " (secret: only you see it)" if field.secret else ""
    own: dict[str, Any] = {field.name: []} if field.kind == "many" else {}
    open_now = open_choices(field, {**values, **own})
    if field.kind in ("one", "many") and field.optional and not open_now:
        return None  # it does not apply with the values chosen (a joint beyond the speed)
    if field.help:
        say(f"  {field.help}")
    if field.kind == "many" and (field.ordered or not field.distinct):
        return _in_order(ask, say, field, values, secret)
    if field.kind in ("one", "many"):
        choices = open_choices(field, values)
        if not choices:
            raise InvalidCommand(f"{field.label}: nothing can be chosen now")
        for i, choice in enumerate(choices, start=1):
            detail = f" · {choice.detail}" if choice.detail else ""
            say(f"    {i}. {choice.label}{detail}")
        if field.kind == "one":
            empty = field.optional or field.default is not None  # the default then stands
            prompt = f"  {field.label}{secret}: "
            picked = _number(ask, say, prompt, len(choices), allow_empty=empty)
            return None if picked is None else choices[picked].value
        while True:
            answer = _read(ask, f"  {field.label}{secret} (numbers separated by spaces): ")
            words = answer.replace(",", " ").split()
            if all(w.isdigit() and 1 <= int(w) <= len(choices) for w in words):
                return [choices[int(w) - 1].value for w in words]
            say(f"  numbers from 1 to {len(choices)}, separated by spaces")
    if field.kind == "point":
        while True:
            leave = ", empty to leave it" if field.optional else ""
            words = _read(ask, f"  {field.label} (x y{leave}){secret}: ").replace(",", " ").split()
            if not words and field.optional:
                return None
            try:
                return [float(words[0]), float(words[1])]
            except (IndexError, ValueError):
                say("  two numbers: x y")
    if field.kind in ("integer", "number"):
        while True:
            answer = _read(ask, f"  {field.label}{secret}: ")
            try:
                return int(answer) if field.kind == "integer" else float(answer)
            except ValueError:
                say("  a number")
    answer = _read(ask, f"  {field.label}{secret} [y/n]: ").lower()
    return answer.startswith("y")


def _in_order(
    ask: Ask, say: Say, field: MenuField, values: dict[str, Any], secret: str
) -> list[Any]:
    """A pick of several whose order matters (a path's boxes, a stack of dials): one value at
    a time among those open after the ones before it; Enter ends it once enough are chosen."""
    chosen: list[Any] = []
    while field.max_count is None or len(chosen) < field.max_count:
        choices = open_choices(field, {**values, field.name: chosen})
        if not choices:
            break
        for i, choice in enumerate(choices, start=1):
            detail = f" · {choice.detail}" if choice.detail else ""
            say(f"    {i}. {choice.label}{detail}")
        done = len(chosen) >= field.min_count
        prompt = f"  {field.label} #{len(chosen) + 1}{secret}" + (" (Enter: done)" if done else "")
        picked = _number(ask, say, prompt + ": ", len(choices), allow_empty=done)
        if picked is None:
            break
        chosen.append(choices[picked].value)
    return chosen


def _dice(ask: Ask, say: Say, need: DiceAsk, names: dict[str, str]) -> list[int]:
    """Ask for each die of a throw, face by face, each checked against the die's faces."""
    say(f"  Roll: {need.text(names)}")
    faces: list[int] = []
    for group in need.groups:
        who = names.get(group.side, group.side) if group.side else "the table"
        for n, die in enumerate(group.dice, start=1):
            labels = {face.label.lower(): face.face for face in die.faces}
            shown = " ".join(face.label for face in die.faces)
            while True:
                answer = _read(ask, f"  {who} · die {n} ({die.name}: {shown}): ").lower()
                if die.name == "d10" and answer == "0":
                    answer = "10"  # a d10's 0 reads as 10 (IO-1.6)
                face = labels.get(answer)
                if face is not None:
                    faces.append(face)
                    break
                say(f"  {die.name} cannot show {answer!r}; it shows {shown}")
    return faces


def _refusal(state: GameState, error: WakeError, side: str | None) -> str:
    """A refusal in words: units and sides by name (as ``side`` knows them), the rule."""
    error = named_refusal(state, error, side)
    if error.rule:
        summary = state.ruleset.rule_summary(error.rule)
        return f"refused [{error.rule}]: {error.message}" + (f" ({summary})" if summary else "")
    return f"refused: {error.message}"


def _give(
    store: GameStore,
    state: GameState,
    side: str | None,
    command: dict[str, Any],
    ask: Ask,
    say: Say,
) -> bool:
    """Enter the order's dice and cards (physical games) and store it; False if refused."""
    names = {s.id: s.name for s in state.header.sides}
    faces: list[int] = []
    cards: list[str] = []
    if state.header.dice.mode == "physical":
        while True:
            needs = probe(state, side, command, faces, cards)
            if needs.status == "ready":
                break
            if needs.status == "refused" and needs.error is not None:
                say("  " + _refusal(state, needs.error, side))
                return False
            if needs.dice is not None:
                faces += _dice(ask, say, needs.dice, names)
            elif needs.card is not None:
                say(f"  Draw: {needs.card.text(names)}")
                choices = needs.card.choices()
                for i, (_, name, copies) in enumerate(choices, start=1):
                    say(f"    {i}. {name} ({copies} left)")
                picked = _number(ask, say, "  the card drawn: ", len(choices))
                assert picked is not None
                cards.append(choices[picked][0])
    try:
        facts = T.submit(
            store, state.header.game_id, side, command, state.seq, dice=faces, cards=cards
        )
    except OrderConflict as exc:
        say(f"  {exc.message}")
        return False
    except WakeError as exc:
        say("  " + _refusal(state, exc, side))
        return False
    ruleset = state.ruleset
    for fact in facts:
        if fact.topic != CommandIssued.TOPIC:
            say(f"  {fact.seq}: {ruleset.describe(decode(state, fact))}")
    return True


def _fill(
    store: GameStore, state: GameState, side: str | None, order: MenuOrder, ask: Ask, say: Say
) -> dict[str, Any] | None:
    """The command of ``order`` with its fields asked for; None when refused (said why)."""
    values: dict[str, Any] = {}
    try:
        for field in order.fields:
            value = _field(ask, say, field, values)
            if value is not None:
                values[field.name] = value
        if order.sealed:
            return T.sealed_command(store, state, side, order, values)
        return build_command(order, values)
    except WakeError as exc:
        say("  " + _refusal(state, exc, side))
        return None


def _choose_side(ask: Ask, say: Say, acting: Sequence[str | None], names: dict[str, str]) -> Any:
    if len(acting) == 1:
        return acting[0]
    for i, side in enumerate(acting, start=1):
        say(f"  {i}. {names.get(side, side) if side else 'the table'}")
    picked = _number(ask, say, "Who decides now? ", len(acting))
    assert picked is not None
    return acting[picked]


def run(store: GameStore, game_id: str, ask: Ask = input, say: Say = print) -> int:
    """Record orders at the keyboard until the game ends or the scribe stops; the number of
    orders given."""
    given = 0
    try:
        while True:
            game_id = T.current_game(store, game_id)
            state = store.state(game_id)
            names = {s.id: s.name for s in state.header.sides}
            view = state.ruleset.read_model(state.rules)
            if state.result is not None:
                winner = names.get(state.result.winner or "", "nobody")
                say(f"The game is over: {winner} won ({state.result.reason}).")
                return given
            acting = state.ruleset.to_act(state.rules)
            who = ", ".join(names.get(s, s) if s else "the table" for s in acting)
            say(f"\nEvent {state.seq} · turn {view.turn} · {view.phase.replace('_', ' ')} · "
                f"decision: {who or 'nobody'}")
            side = _choose_side(ask, say, acting, names) if acting else None
            menu = T.menu(store, state, side)
            for i, order in enumerate(menu, start=1):
                say(f"  {i}. {order.label}" + (" (sealed)" if order.sealed else ""))
            say("  b. the bot gives it · t. take back the last order · q. stop")
            answer = _read(ask, "Order: ").lower()
            if answer == "t":
                try:
                    T.take_back(store, game_id, 1)
                    say("  taken back; the line is kept as a variation")
                except WakeError as exc:
                    say(f"  {exc.message}")
                continue
            if answer == "b":
                secret = None
                held = store.secret_seed(game_id)
                if held is not None:
                    secret = bot_secret(state.header, held[0].seed)
                envelope = bot_order(state, secret)
                if envelope is None:
                    say("  the bot has no order to give now")
                    continue
                if _give(store, state, envelope.side, envelope.command, ask, say):
                    given += 1
                continue
            if not (answer.isdigit() and 1 <= int(answer) <= len(menu)):
                say(f"  type 1 to {len(menu)}, b, t or q")
                continue
            order = menu[int(answer) - 1]
            command = _fill(store, state, side, order, ask, say)
            if command is None:
                continue
            seen = preview(state, side, command)
            if seen.status == "refused" and seen.error is not None:
                say("  " + _refusal(state, seen.error, side))
                continue
            if _give(store, state, side, command, ask, say):
                given += 1
    except Quit:
        say(f"\nStopped; {given} order(s) recorded this session.")
        return given
