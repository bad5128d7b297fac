"""Issue 23 item 5: the reader's memory is bounded for a file of distinct keys too. The parser
keeps every distinct key while it reads, so ``domain.safe_json`` counts them on the text first
(at most ``MAX_DISTINCT_KEYS`` held) and refuses a file with more before parsing it. Peak memory
of the worst files within the limits: ``python -m tests.benchmarks.bench_memory``."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain import safe_json
from domain.errors import RecordError
from domain.record import read_record_file
from domain.record.reader import MAX_RECORD_BYTES


def _keys(count: int) -> bytes:
    return b"{" + b",".join(b'"%x":0' % n for n in range(count)) + b"}"


def test_distinct_keys_are_counted_before_parsing() -> None:
    """Issue 23 item 5: up to the bound reads; one more is refused in one line."""
    bound = safe_json.MAX_DISTINCT_KEYS
    assert len(safe_json.loads(_keys(bound))) == bound
    with pytest.raises(safe_json.JSONInputError, match=f"more than {bound} distinct object keys"):
        safe_json.loads(_keys(bound + 1))
    # repeated keys in many objects are not distinct; keys inside strings are not keys
    many = b"[" + b",".join(b'{"a":1,"b":"\\"c\\":d"}' for _ in range(bound + 5)) + b"]"
    assert len(safe_json.loads(many)) == bound + 5
    assert safe_json.loads(b'{"x": "' + b'\\"k\\":' * 100 + b'"}')["x"].startswith('"k":')


def test_a_record_of_distinct_keys_is_refused(tmp_path: Path) -> None:
    """Issue 23 item 5: a 32 MiB record of distinct keys (977 MB and 8 s before) is refused."""
    head = b'{"format":"wake-record","header":{"x":{'
    body, n = bytearray(head), 0
    while len(body) < MAX_RECORD_BYTES - 40:
        body += b'"%x":0,' % n
        n += 1
    path = tmp_path / "keys.wake.json"
    path.write_bytes(bytes(body[:-1]) + b"}}}")
    with pytest.raises(RecordError, match="distinct object keys"):
        read_record_file(path)
