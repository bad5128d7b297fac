"""The record JSON Schema: generated from the models, checked in as ``record.schema.json``."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from domain.record.model import Record

SCHEMA_ID = "https://wake.invalid/schemas/wake-record.json"


def generate_schema() -> dict[str, Any]:
    schema = Record.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = SCHEMA_ID
    schema["title"] = "Wake recorded game, format versions 1 and 2"
    return schema


def schema_text() -> str:
    return json.dumps(generate_schema(), indent=1, sort_keys=True) + "\n"


def checked_in_schema() -> dict[str, Any]:
    text = resources.files("domain.record").joinpath("record.schema.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


if __name__ == "__main__":
    print(schema_text(), end="")
