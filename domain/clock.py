"""The clock an order is stamped with: the time is an input of the order, read once and recorded.

A game of record format 2 carries the time of each order inside its ``CommandIssued`` event (so
the time is under the hash chain and a signature). Like physical dice, the time is read once,
when the order is given, and a re-run of the orders reuses the recorded time. When the
environment sets ``SOURCE_DATE_EPOCH`` (the reproducible-builds convention), every order is
stamped with that instant instead, so that re-recording the bundled fixtures gives the same
bytes.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from typing import Final

#: An order's time: UTC, ISO 8601, microseconds, ``Z``.
TIME_PATTERN: Final = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z$"


def format_time(moment: datetime) -> str:
    """``moment`` in the recorded form, e.g. ``2026-11-25T09:05:00.000000Z``."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def now() -> str:
    """The time to stamp an order with (``SOURCE_DATE_EPOCH`` when set, else the clock)."""
    fixed = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if fixed.isdigit() and len(fixed) <= 12:
        return format_time(datetime.fromtimestamp(int(fixed), UTC))
    return format_time(datetime.now(UTC))
