"""An event's kind in players' words, from its stored topic: ``wake.DiceRolled/1`` is a "dice
roll", ``...AttackDeclared/1`` an "attack declared" (issue 21 item 7: the move list's Kind
filter, the explain panel, reports and ``wake explain`` show kinds, never topics)."""

from __future__ import annotations

import re

KIND_WORDS = {"CommandIssued": "order", "DiceRolled": "dice roll", "CardDrawn": "card drawn"}


def topic_kind(topic: str) -> str:
    """An event's class name from its topic: ``wake.DiceRolled/1`` -> ``DiceRolled``."""
    return topic.split("/")[0].rsplit(".", 1)[-1]


def kind_name(kind: str) -> str:
    """An event kind as players read it: ``AttackDeclared`` -> ``attack declared``,
    ``CommandIssued`` -> ``order``."""
    if kind in KIND_WORDS:
        return KIND_WORDS[kind]
    words = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+", kind)
    return " ".join(w if w.isupper() and len(w) > 1 else w.lower() for w in words) or kind


def topic_words(topic: str) -> str:
    """An event's kind in words straight from its topic."""
    return kind_name(topic_kind(topic))
