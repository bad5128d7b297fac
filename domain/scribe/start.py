"""Starting a game to record at a table (issue 20): a bundled or uploaded scenario, its options,
and dice rolled at the table (physical) or by the computer from a seed the header only commits
to (the store keeps it until the game ends, so nobody can foresee the dice)."""

from __future__ import annotations

import sys
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal

from domain import safe_json
from domain.engine import header_for
from domain.errors import ScenarioError
from domain.ruleset import get_ruleset, known_rulesets
from domain.seed_commit import committed_dice, new_secret
from domain.store import GameStore

MAX_SCENARIO_BYTES = 2 * 1024 * 1024  # a scenario file, uploaded or bundled


@dataclass(frozen=True)
class BundledScenario:
    """A scenario shipped with a ruleset's package (``data/scenarios/*.json``)."""

    ruleset: str
    name: str  # the file's stem
    title: str
    data: dict[str, Any]


def bundled_scenarios() -> list[BundledScenario]:
    """Every scenario the installed rulesets ship, by ruleset then title. A ruleset that does
    not load, or ships none, adds nothing."""
    found: list[BundledScenario] = []
    for rid in known_rulesets():
        try:
            module = type(get_ruleset(rid)).__module__
        except Exception:  # a broken plugin is listed by `wake rulesets`, not here
            continue
        package = sys.modules[module].__package__ or module
        try:
            folder = resources.files(package).joinpath("data", "scenarios")
            files = sorted(
                (f for f in folder.iterdir() if f.name.endswith(".json")), key=lambda f: f.name
            )
        except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError, TypeError):
            continue
        for file in files:
            try:
                data = parse_scenario(file.read_bytes())
            except ScenarioError:
                continue
            title = str(data.get("title") or file.name.removesuffix(".json"))
            found.append(BundledScenario(rid, file.name.removesuffix(".json"), title, data))
    return sorted(found, key=lambda s: (s.ruleset, s.title))


def parse_scenario(raw: bytes) -> dict[str, Any]:
    """A scenario file's JSON object, read through the bounded reader.

    Raises:
        ScenarioError: too large, not JSON, or not an object.
    """
    if len(raw) > MAX_SCENARIO_BYTES:
        raise ScenarioError(f"a scenario file is at most {MAX_SCENARIO_BYTES // 1024} KiB")
    try:
        data = safe_json.loads(raw)
    except ValueError as exc:
        raise ScenarioError(f"not a scenario file: {exc}") from None
    if not isinstance(data, dict):
        raise ScenarioError("a scenario file holds a JSON object")
    return data


def default_options(ruleset_id: str) -> dict[str, Any]:
    """The ruleset's options with their defaults (what a new game gets unless changed)."""
    return get_ruleset(ruleset_id).resolve_options({})


def start_game(
    store: GameStore,
    ruleset_id: str,
    scenario: Mapping[str, Any],
    *,
    dice: Literal["physical", "seeded"],
    options: Mapping[str, Any] | None = None,
    title: str = "",
) -> str:
    """Store a new game and return its id. Seeded dice get a fresh seed the header commits to
    (kept secret by the store until the game ends or is revealed); physical dice come with
    cards drawn by name (the card drawn at the table is entered as drawn, with its odds).

    Raises:
        UnknownRuleset, ScenarioError: a bad ruleset, scenario or option.
    """
    seed = new_secret().seed if dice == "seeded" else None
    header = header_for(
        ruleset_id,
        scenario,
        game_id=str(uuid.uuid4()),
        seed=seed,
        options=dict(options or {}),
        title=title,
        cards="named" if dice == "physical" else None,  # a card drawn is entered as drawn
    )
    secret = None
    if seed is not None:
        secret = new_secret(seed)
        header = header.model_copy(update={"dice": committed_dice(secret)})
    return store.create_game(header, secret)
