"""Driving the scribe's page (issue 20) in Chromium as a person at a table would: choosing
orders and their fields by clicking pills and the board, entering dice face by face, reading
what the page says. Each helper waits for the page to settle."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from pathlib import Path
from typing import Any

APP_IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
BOARD = 'iframe[title*="board_input"]'
TIMEOUT_MS = 90_000  # a loaded machine reruns a page slowly


@dataclass
class Clicks:
    """Clicks and seconds per order, as a scripted scribe enters them (the benchmark's figures)."""

    # (order type, clicks, seconds)
    orders: list[tuple[str, int, float]] = dataclass_field(default_factory=list)
    _count: int = 0
    _start: float = 0.0

    def begin(self) -> None:
        self._count = 0
        self._start = time.perf_counter()

    def click(self) -> None:
        self._count += 1

    def end(self, label: str) -> None:
        self.orders.append((label, self._count, time.perf_counter() - self._start))


def settle(page: Any, text: str | re.Pattern[str] | None = None) -> None:
    """Wait for ``text`` (when given), then for the script to be idle."""
    if text is not None:
        page.get_by_text(text).first.wait_for(state="visible", timeout=TIMEOUT_MS)
    page.wait_for_timeout(150)
    page.locator(APP_IDLE).wait_for(state="attached", timeout=TIMEOUT_MS)


def board_drawn(page: Any) -> None:
    page.frame_locator(BOARD).locator("#board .main-svg").first.wait_for(
        state="visible", timeout=TIMEOUT_MS
    )


def pick(page: Any, name: str, clicks: Clicks | None = None, *, exact: bool = True) -> None:
    """Click the pill (an order, a choice, a die face) called ``name``."""
    page.get_by_role("radio", name=name, exact=exact).first.click()
    if clicks is not None:
        clicks.click()
    settle(page)


def give(page: Any, clicks: Clicks | None = None) -> None:
    button = page.get_by_role("button", name="Give the order")
    button.wait_for(timeout=TIMEOUT_MS)
    page.wait_for_function(
        "() => [...document.querySelectorAll('button')].some("
        "b => b.innerText.includes('Give the order') && !b.disabled)",
        timeout=TIMEOUT_MS,
    )
    button.click()
    if clicks is not None:
        clicks.click()
    settle(page)


ENTERED = re.compile(r"Faces entered for this order \((\d+)\)")


def _entered(page: Any) -> int:
    found = ENTERED.search(text(page))
    return int(found.group(1)) if found else 0


def faces(page: Any, values: list[str], clicks: Clicks | None = None) -> None:
    """Enter dice faces one by one (each a pill of the die being asked for), each time waiting
    until the page shows it entered (or the order recorded, after the last die)."""
    for value in values:
        page.get_by_text(re.compile(r"die \d+ · ")).first.wait_for(timeout=TIMEOUT_MS)
        settle(page)
        before = _entered(page)
        pick(page, value, clicks)
        deadline = time.monotonic() + TIMEOUT_MS / 1000
        while _entered(page) <= before and "Roll:" in text(page):
            if time.monotonic() > deadline:
                raise AssertionError(f"the face {value} was not taken")
            page.wait_for_timeout(100)


def _board_point(page: Any, x: float, y: float) -> dict[str, float]:
    frame = page.frame_locator(BOARD)
    board_drawn(page)
    point: dict[str, float] = frame.locator("#board").evaluate(
        """(b, xy) => { const l = b._fullLayout;
            return {x: l.xaxis._offset + l.xaxis.c2p(xy[0]),
                    y: l.yaxis._offset + l.yaxis.c2p(xy[1])}; }""",
        [x, y],
    )
    return point


def click_board(page: Any, x: float, y: float, clicks: Clicks | None = None) -> None:
    """Click the board at board coordinates (x, y), once the board has stopped redrawing (a
    choice made just before redraws it, zoomed to the order's reach, a moment later)."""
    point = _board_point(page, x, y)
    for _ in range(40):
        page.wait_for_timeout(250)
        again = _board_point(page, x, y)
        if abs(again["x"] - point["x"]) < 0.5 and abs(again["y"] - point["y"]) < 0.5:
            break
        point = again
    page.frame_locator(BOARD).locator("#board").click(position=point)
    if clicks is not None:
        clicks.click()
    settle(page)


def unit_at(page: Any, unit: str) -> tuple[float, float]:
    """Where the board draws a unit's marker (board coordinates)."""
    frame = page.frame_locator(BOARD)
    board_drawn(page)
    xy: list[float] = frame.locator("#board").evaluate(
        """(b, id) => { for (const t of b.data) { const c = t.customdata || [];
            if (!t.mode || !t.mode.includes('markers')) continue;
            for (let i = 0; i < c.length; i++) if (c[i] === id) return [t.x[i], t.y[i]]; }
            return null; }""",
        unit,
    )
    assert xy is not None, f"{unit} is not drawn on the board"
    return float(xy[0]), float(xy[1])


INSIDE = 0.97
"""How far along its way to the point the bot chose a person clicks: a bot often moves a unit
its whole reach, and a click a pixel beyond it is refused (PL-2: "10.07 cm is longer than
achilles' speed of 10 cm"), as a person clicking on the ring's very edge would be."""


def _inside_reach(
    page: Any, order: Any, values: dict[str, Any], x: float, y: float
) -> tuple[float, float]:
    """The bot's point ``(x, y)``, pulled a little towards the unit that goes there (when the
    order concerns one unit, or names one, that the board draws)."""
    named = (values[k] for k in ("unit", "ship", "squadron") if k in values)
    unit = next(named, order.units[0] if len(order.units) == 1 else None)
    if not isinstance(unit, str):
        return x, y
    try:
        ux, uy = unit_at(page, unit)
    except AssertionError:  # not drawn (yet): the bot's own point
        return x, y
    return ux + (x - ux) * INSIDE, uy + (y - uy) * INSIDE


def click_unit(page: Any, unit: str, clicks: Clicks | None = None) -> None:
    x, y = unit_at(page, unit)
    click_board(page, x, y, clicks)


def text(page: Any) -> str:
    """The page's main text (the sidebar left out)."""
    main = page.locator('[data-testid="stMain"]')
    return str(main.inner_text() if main.count() else page.inner_text("body"))


# --------------------------------------------------------------------------- a scripted scribe


def _label_pattern(label: str) -> re.Pattern[str]:
    """A field's label as an accessible name: Streamlit keeps the Markdown escapes
    (backslashes) in it, so each character may follow one."""
    return re.compile("".join(r"\\?" + re.escape(ch) for ch in label[:40]))


def _choice_text(field: Any, value: Any, values: dict[str, Any]) -> str:
    from domain.scribe.menu import open_choices

    for choice in open_choices(field, values):
        if choice.value == value:
            return str(choice.label + (f" · {choice.detail}" if choice.detail else ""))
    raise AssertionError(f"{field.label}: {value!r} is not open")


class ScriptedScribe:
    """A person entering a game on the scribe's page, order after order: what to order comes
    from the bot (through the ruleset's menu, so every click is one a person would make);
    sealed choices are made by their first open values; dice faces and cards drawn are
    picked by a seeded random generator. Counts clicks and seconds per order."""

    def __init__(
        self,
        page: Any,
        store_path: str,
        game_id: str,
        seed: int = 1,
        devices: dict[str | None, Any] | None = None,
    ) -> None:
        """``devices``: in hosted mode, each side's page (its own link) and the umpire's
        (``None``): each order is entered on the page of the side that gives it."""
        import random

        from domain.store import GameStore

        self.page = page
        self.devices = devices or {}
        self.store = GameStore(store_path)
        self.game_id = game_id
        self.random = random.Random(seed)
        self.clicks = Clicks()

    def _state(self) -> Any:
        from domain.scribe import table as T

        self.game_id = T.current_game(self.store, self.game_id)
        return self.store.state(self.game_id)

    def _plan(self, state: Any) -> tuple[Any, Any, dict[str, Any]]:
        """(side, menu order, values) for the next order."""
        from domain.scribe import table as T
        from domain.scribe.menu import match_command, missing

        ruleset = state.ruleset
        side = ruleset.to_act(state.rules)[0]
        menu = T.menu(self.store, state, side)
        bot = ruleset.bot_command(T.rules_for(self.store, state, side), side)
        command = bot.model_dump(mode="json") if bot is not None else {}

        def normal(command: Any) -> Any:
            return ruleset.parse_command(dict(command)).model_dump(mode="json")

        for order in menu:
            if order.sealed and order.type == command.get("type"):
                found = self._sealed_values(state, side, order, command)
                if found is not None:
                    return side, order, found
            if not order.sealed:
                found = match_command(order, command, normal)
                if found is not None:
                    return side, order, found
        # the bot's own plan differs from what this side sealed (its reveal opens what was
        # sealed): an order of the same kind with nothing left to choose
        for order in menu:
            if order.type == command.get("type") and not order.sealed and not missing(order, {}):
                return side, order, {}
        raise AssertionError(f"no menu order gives the bot's {command.get('type')}")

    def _sealed_values(
        self, state: Any, side: Any, order: Any, bot: dict[str, Any]
    ) -> dict[str, Any] | None:
        """Secret values the rules accept for a sealed order: those that seal as the bot's own
        order does where each choice seals on its own (an order card, a ship's dials), else
        the first open choices, else random ones (a legal fleet)."""
        from domain.errors import WakeError
        from domain.scribe import table as T
        from domain.scribe.menu import missing, open_choices

        def sealed(values: dict[str, Any]) -> dict[str, Any] | None:
            try:
                return dict(T.sealed_command(self.store, state, side, order, values))
            except WakeError:
                return None

        def agreeing(command: dict[str, Any] | None) -> int:
            if command is None:
                return -1
            flat = {k: str(v) for k, v in _leaves(command)}
            return sum(1 for k, v in _leaves(bot) if flat.get(k) == str(v))

        greedy: dict[str, Any] = {}
        for field in order.fields:
            choices = open_choices(field, {**greedy, field.name: []})
            if field.kind != "one" or not choices:
                greedy = {}
                break
            greedy[field.name] = max(
                (c.value for c in choices),
                key=lambda v, f=field.name: agreeing(sealed({**greedy, f: v})),
            )
        if greedy and not missing(order, greedy) and sealed(greedy) is not None:
            return greedy
        for attempt in range(60):
            values: dict[str, Any] = {}
            for field in order.fields:
                choices = open_choices(field, {**values, field.name: []})
                if not choices:
                    continue
                pick = choices[0] if attempt == 0 else self.random.choice(choices)
                if field.kind == "many":
                    need = max(field.min_count, 1 if field.ordered else 0)
                    values[field.name] = [pick.value] * need
                elif field.kind == "one":
                    values[field.name] = pick.value
            if missing(order, values):
                continue
            try:
                T.sealed_command(self.store, state, side, order, values)
            except WakeError:
                continue
            return values
        return None

    def _pick_side(self, side: Any, state: Any) -> None:
        acting = state.ruleset.to_act(state.rules)
        if len(acting) < 2:
            return
        names = {s.id: s.name for s in state.header.sides}
        shown = names.get(side, side) if side else "the table"
        group = self.page.get_by_role("radiogroup", name="Deciding for")
        if group.count():
            group.get_by_role("radio", name=shown, exact=True).click()
            settle(self.page)

    def _fill(self, order: Any, values: dict[str, Any]) -> None:
        page = self.page
        so_far: dict[str, Any] = {}
        for field in order.fields:
            if field.name not in values:
                continue
            value = values[field.name]
            group = page.get_by_role("radiogroup", name=_label_pattern(field.label)).first
            if field.kind == "one":
                if value == field.default and field.optional:
                    so_far[field.name] = value
                    continue
                group.get_by_role(
                    "radio", name=_choice_text(field, value, so_far), exact=True
                ).click()
                self.clicks.click()
                settle(page)
            elif field.kind == "many" and (field.ordered or not field.distinct):
                adder = page.get_by_role("radiogroup", name=_label_pattern(f"Add to {field.label}"))
                for i, item in enumerate(value):
                    name = _choice_text(field, item, {**so_far, field.name: value[:i]})
                    _fresh_adder(page, adder)  # a click on the old pills would undo the last
                    adder.first.get_by_role("radio", name=name, exact=True).click()
                    self.clicks.click()
                    settle(page)
            elif field.kind == "many":
                for i, item in enumerate(value):
                    name = _choice_text(field, item, {**so_far, field.name: value[:i]})
                    group.get_by_role("radio", name=name, exact=True).click()
                    self.clicks.click()
                    settle(page)
            elif field.kind == "point":
                x, y = _inside_reach(page, order, values, float(value[0]), float(value[1]))
                click_board(page, x, y, self.clicks)
            elif field.kind == "integer" and field.low is not None and field.high is not None:
                if value != field.default:
                    group.get_by_role("radio", name=str(value), exact=True).click()
                    self.clicks.click()
                    settle(page)
            elif field.kind in ("integer", "number"):
                box = page.get_by_role("spinbutton", name=_label_pattern(field.label)).first
                box.fill(str(value))
                box.press("Enter")
                self.clicks.click()
                settle(page)
            elif field.kind == "flag" and bool(value) != bool(field.default):
                page.get_by_text(field.label, exact=True).first.click()
                self.clicks.click()
                settle(page)
            so_far[field.name] = value

    def _chance(self, before: int) -> None:
        """Enter dice faces and cards until the order is stored."""
        page = self.page
        deadline = time.monotonic() + 900
        while self.store.state(self.game_id).seq == before:
            if time.monotonic() > deadline:
                page.screenshot(path="artifacts/browser/FAILED-scripted-scribe.png")
                raise AssertionError(f"the order was not stored; the page shows:\n{text(page)}")
            body = text(page)
            if "Refused:" in body and "Roll:" not in body and "Draw:" not in body:
                raise AssertionError(body[-800:])
            dice = page.get_by_role("radiogroup", name=re.compile(r"die \d+ · "))
            cards = page.get_by_role("radiogroup", name="The card drawn")
            if dice.count():
                radios = dice.first.get_by_role("radio")
                radios.nth(self.random.randrange(radios.count())).click()
                self.clicks.click()
                settle(page)
            elif cards.count():
                cards.first.get_by_role("radio").first.click()
                self.clicks.click()
                settle(page)
            else:
                page.wait_for_timeout(200)

    def order(self) -> str:
        """Enter the next order as a person would; its label."""
        state = self._state()
        side, order, values = self._plan(state)
        print(f"scripted scribe: event {state.seq}, {side}: {order.label} {values}")
        if self.devices:
            self.page = self.devices.get(side) or self.devices[None]
            settle(self.page, re.compile(rf"event {state.seq} "))
        page = self.page
        self.clicks.begin()
        try:
            self._pick_side(side, state)
            page.get_by_role("radiogroup", name="Orders").get_by_role(
                "radio", name=re.compile("^" + re.escape(order.label))
            ).first.click()
            self.clicks.click()
            settle(page)
            self._fill(order, values)
            give(page, self.clicks)
            self._chance(state.seq)
        except Exception as exc:  # what the page showed, for whoever reads the failure
            Path("artifacts/browser").mkdir(parents=True, exist_ok=True)
            page.screenshot(path=f"artifacts/browser/FAILED-scripted-scribe-{state.seq}.png")
            raise AssertionError(f"{exc}\nthe page shows:\n{text(page)[-1500:]}") from exc
        self.clicks.end(order.type)
        settle(page)
        return str(order.label)


def _fresh_adder(page: Any, adder: Any) -> None:
    """Wait until an ordered pick's "Add to" pills hold no choice: the page has taken the last
    one (it draws new pills for the next place). Clicking the old pills' chosen value again
    would unselect it, and that value would be lost."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while time.monotonic() < deadline:
        if adder.count() and adder.first.locator('[aria-checked="true"]').count() == 0:
            return
        page.wait_for_timeout(200)
    raise AssertionError("the ordered pick did not take its last value")


def _leaves(value: Any, path: str = "") -> list[tuple[str, Any]]:
    """A command's JSON as (path, scalar) pairs."""
    if isinstance(value, dict):
        return [leaf for k, v in value.items() for leaf in _leaves(v, f"{path}.{k}")]
    if isinstance(value, list):
        return [leaf for i, v in enumerate(value) for leaf in _leaves(v, f"{path}.{i}")]
    return [(path, value)]


def find_refusal(store: Any, state: Any, side: Any) -> tuple[Any, dict[str, Any], str] | None:
    """An order the menu offers that ``decide`` refuses, naming a rule: (menu order, values,
    rule), trying each order's combinations of open choices (a few hundred at most)."""
    import itertools

    from domain.errors import WakeError
    from domain.scribe import table as T
    from domain.scribe.menu import build_command, missing, open_choices
    from domain.scribe.probe import preview

    for order in T.menu(store, state, side):
        if order.sealed:
            if missing(order, {}):
                continue  # the page asks for the rest before it judges
            try:
                T.sealed_command(store, state, side, order, {})
            except WakeError as exc:
                if exc.rule:
                    return order, {}, exc.rule
            continue
        fields = [f for f in order.fields if f.kind in ("one", "many")]
        if len(fields) != len(order.fields):
            continue  # points and numbers: judged by decide only once entered
        pools = []
        for f in fields:
            values_open = [c.value for c in open_choices(f, {f.name: []})]
            if f.kind == "one":
                pools.append([*values_open, *([None] if f.optional else [])])
            elif f.ordered:
                pools.append([*[[v] for v in values_open][:6], []])
            else:  # a few picks of several (two at most), and a choice repeated to the count
                # asked for where repeats are allowed (IO-3.4: a hand naming more copies of a
                # card than the deck holds)
                pairs = [list(p) for p in itertools.combinations(values_open[:6], 2)]
                repeats = [[v] * f.min_count for v in values_open[:6]]
                repeats = repeats if not f.distinct and f.min_count > 1 else []
                pools.append([[], *repeats, *([v] for v in values_open[:6]), *pairs])
        for combo in itertools.islice(itertools.product(*pools), 500):
            values = {f.name: v for f, v in zip(fields, combo, strict=True) if v is not None}
            try:
                command = build_command(order, values)
            except WakeError:
                continue
            seen = preview(state, side, command)
            if seen.status == "refused" and seen.error is not None and seen.error.rule:
                return order, values, seen.error.rule
    return None
