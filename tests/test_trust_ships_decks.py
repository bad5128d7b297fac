"""Issue 23 item 8: nothing whose order matters is an object's key order. SHIPS decks are lists of
``{"card", "copies"}`` in deck order (a new data version), so a record re-saved with sorted keys
(``jq -S``), which keeps its digests and signatures, still re-runs to the same events; records of
the first data version (decks as ``{card: copies}`` objects) still verify as recorded."""

from __future__ import annotations

import json
from pathlib import Path

from domain.data_versions import data_digest
from domain.rulesets.ships.data import bundled, resolve_data
from domain.rulesets.ships.ruleset import EARLIER_DECKS
from tests.cli_helpers import wake
from tests.helpers import FIXTURES

SCENARIO = FIXTURES / "scenarios" / "ships" / "multi2.json"


def test_bundled_decks_are_lists_in_the_order_shipped_before() -> None:
    """Issue 23 item 8: the same decks, in the same order, as the first data version."""
    decks = bundled().decks.decks
    assert all(isinstance(deck.cards, list) for deck in decks)
    first_version = {
        "decks": [
            {"id": d.id, "name": d.name, "cards": {e.card: e.copies for e in d.cards}}  # type: ignore[union-attr]
            for d in decks
        ]
    }
    old = resolve_data({}).model_dump(mode="json")["decks"]
    old["decks"] = first_version["decks"]
    assert data_digest(old) in EARLIER_DECKS


def test_a_record_resaved_with_sorted_keys_still_verifies(tmp_path: Path) -> None:
    """Issue 23 item 8: ``jq -S`` keeps the digests; the deck order survives it now."""
    out = tmp_path / "duel.wake.json"
    code, _, err = wake("record", "ships", str(SCENARIO), "--seed", "1", "-o", str(out))
    assert code == 0, err
    body = json.loads(out.read_text("utf-8"))
    sorted_copy = tmp_path / "sorted.wake.json"
    sorted_copy.write_text(json.dumps(body, sort_keys=True, indent=2), "utf-8")
    assert json.loads(sorted_copy.read_text("utf-8"))["chain"] == body["chain"]
    code, out_text, _ = wake("verify", str(sorted_copy))
    assert code == 0 and ": OK" in out_text, out_text


def test_records_of_the_first_data_version_still_verify() -> None:
    """Issue 23 item 8: decks as objects (the bundled SHIPS games) re-run as recorded."""
    duel = FIXTURES / "games" / "ships" / "multi2-duel.wake.json"
    decks = json.loads(duel.read_text("utf-8"))["header"]["scenario"]["data"]["decks"]["decks"]
    assert all(isinstance(deck["cards"], dict) for deck in decks)
    code, out, _ = wake("verify", "--strict", str(duel))
    assert code == 0, out
