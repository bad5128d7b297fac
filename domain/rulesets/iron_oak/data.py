"""Iron & Oak data: loading and resolving the data files — ship and fort cards
(:mod:`.ship_cards`), action cards (:mod:`.action_cards`), tables (:mod:`.tables`) and scenarios
(:mod:`.scenario`), on the basic types of :mod:`.basics`.

The rules digest gives the structure of the game's data (IO-1.0.1.1 ship card fields, IO-1.3.2
action cards, IO-6.2 damage chart, IO-6.3 criticals) and a few values (the hazard, repair, spar,
fouling and contact dice of IO-3.1.1, IO-5.4 and IO-5.6; the fire start roll of IO-6.3.9; the
crew-loss bands of IO-6.3.2/6.3.5). Everything else is IO-GAPS: no card values, tables or
action-card lists are public. The bundled files under ``data/`` therefore carry
``"provisional": true`` and a ``provisional_note``; each card lists its invented fields in
``provisional`` and the tables file lists its invented fields in ``provisional_fields``. Values the
seed gives are not provisional and the tests pin them.

A user's own file (from their copy of the game) replaces the bundled file of the same kind whole:
see :func:`resolve_data`. Scenarios (IO-1.1 5 × 5 grid, IO-GAPS 15) are checked against the card
sets in use by :func:`load_scenario`.

Dice text follows the seed (IO-1.6.1): ``d10d4`` rolls both dice and keeps the highest,
``d10+d8`` adds them; it is validated by :func:`domain.dice.parse` and stored in canonical form.
Grid cells are ``[column, row]`` counted from 0: column 0 is the W edge, row 0 the N edge.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, TypeVar

from pydantic import (
    BaseModel,
)

from domain import datafiles
from domain.datafiles import load_model
from domain.errors import ScenarioError
from domain.rulesets.iron_oak.action_cards import ActionDeck
from domain.rulesets.iron_oak.basics import _Model
from domain.rulesets.iron_oak.scenario import Scenario
from domain.rulesets.iron_oak.ship_cards import FortCards, ShipCards
from domain.rulesets.iron_oak.tables import Tables

_M = TypeVar("_M", bound=BaseModel)


class DataSet(_Model):
    """The card sets and tables one game uses (each bundled or the user's own, whole)."""

    ships: ShipCards
    forts: FortCards
    cards: ActionDeck
    tables: Tables


def _load(model: type[_M], part: str, data: Any) -> _M:
    name = data.get("id") if part == "scenario" and isinstance(data, Mapping) else None
    what = f"{part} {name!r}" if isinstance(name, str) else f"{part} file"
    return load_model(model, data, f"Iron & Oak {what}")


def load_ships(data: Any) -> ShipCards:
    """Validate a ships file (the user's own replaces the bundled one whole).

    Raises:
        ScenarioError: the message names the file part and field.
    """
    return _load(ShipCards, "ships", data)


def load_forts(data: Any) -> FortCards:
    """Validate a forts file. Raises ScenarioError."""
    return _load(FortCards, "forts", data)


def load_cards(data: Any) -> ActionDeck:
    """Validate an action-cards file. Raises ScenarioError."""
    return _load(ActionDeck, "cards", data)


def load_tables(data: Any) -> Tables:
    """Validate a tables file. Raises ScenarioError."""
    return _load(Tables, "tables", data)


def read_json(path: str | Path) -> Any:
    """Read a user's JSON data file.

    Raises:
        ScenarioError: the file cannot be read or is not JSON.
    """
    return datafiles.read_json(path, "Iron & Oak data file")


def _bundled_json(name: str) -> Any:
    return datafiles.bundled_json("domain.rulesets.iron_oak", name)


@lru_cache(maxsize=1)
def bundled_ships() -> ShipCards:
    """The ship cards shipped with Wake (provisional, IO-GAPS 13)."""
    return load_ships(_bundled_json("ships.json"))


@lru_cache(maxsize=1)
def bundled_forts() -> FortCards:
    """The fort cards shipped with Wake (provisional, IO-GAPS 13)."""
    return load_forts(_bundled_json("forts.json"))


@lru_cache(maxsize=1)
def bundled_cards() -> ActionDeck:
    """The action cards shipped with Wake (provisional, IO-GAPS 14)."""
    return load_cards(_bundled_json("action_cards.json"))


@lru_cache(maxsize=1)
def bundled_tables() -> Tables:
    """The tables shipped with Wake (seed values where given, provisional elsewhere)."""
    return load_tables(_bundled_json("tables.json"))


def resolve_data(
    ships: Any = None, forts: Any = None, cards: Any = None, tables: Any = None
) -> DataSet:
    """The data for a game: each part given replaces the bundled part whole.

    Raises:
        ScenarioError: a given part is invalid.
    """
    return DataSet(
        ships=bundled_ships() if ships is None else load_ships(ships),
        forts=bundled_forts() if forts is None else load_forts(forts),
        cards=bundled_cards() if cards is None else load_cards(cards),
        tables=bundled_tables() if tables is None else load_tables(tables),
    )


def load_scenario(data: Any, dataset: DataSet | None = None) -> Scenario:
    """Validate a scenario and check its ship and fort cards exist in ``dataset``.

    Raises:
        ScenarioError: the message names the field.
    """
    scenario = _load(Scenario, "scenario", data)
    ds = dataset if dataset is not None else resolve_data()
    where = f"invalid Iron & Oak scenario {scenario.id!r}"
    for ship in scenario.ships:
        if ship.card not in ds.ships.ids:
            raise ScenarioError(f"{where}: ships[{ship.id}].card: unknown ship card {ship.card!r}")
        if ds.ships.get(ship.card).side != ship.side:
            raise ScenarioError(
                f"{where}: ships[{ship.id}].side: {ship.side} but card {ship.card!r} is "
                f"{ds.ships.get(ship.card).side}"
            )
    for fort in scenario.forts:
        if fort.card not in ds.forts.ids:
            raise ScenarioError(f"{where}: forts[{fort.id}].card: unknown fort card {fort.card!r}")
        if ds.forts.get(fort.card).side != fort.side:
            raise ScenarioError(
                f"{where}: forts[{fort.id}].side: {fort.side} but card {fort.card!r} is "
                f"{ds.forts.get(fort.card).side}"
            )
    return scenario


BUNDLED_SCENARIOS = ("hampton_roads", "mobile_bay_gauntlet", "wassaw_sound")


@cache
def bundled_scenario(scenario_id: str) -> Scenario:
    """A scenario shipped with Wake, checked against the bundled cards.

    Raises:
        ScenarioError: no such bundled scenario, or its file is invalid.
    """
    if scenario_id not in BUNDLED_SCENARIOS:
        raise ScenarioError(f"no bundled Iron & Oak scenario {scenario_id!r}")
    scenario = load_scenario(_bundled_json(f"scenarios/{scenario_id}.json"))
    if scenario.id != scenario_id:
        raise ScenarioError(f"scenario file {scenario_id}.json has id {scenario.id!r}")
    return scenario
