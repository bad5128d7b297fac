"""Peak memory of reading the worst files within the limits (issue 23 item 5).

Each file is just under ``MAX_RECORD_BYTES`` and the other limits of ``domain.safe_json`` (so the
reader has to parse it before it can refuse it as a record); ``wake verify FILE`` runs in a
subprocess and its peak resident memory (``ru_maxrss``) and wall time are printed. Not part of
the test run: ``python -m tests.benchmarks.bench_memory`` (docs/record-format.md#limits quotes
its figures).
"""

from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from domain.record.reader import MAX_RECORD_BYTES
from domain.safe_json import MAX_DISTINCT_KEYS, MAX_ITEMS

LIMIT = MAX_RECORD_BYTES - 64
HEAD = b'{"format":"wake-record","format_version":2,"header":{"x":'
TAIL = b"}}"


def _fill(items: Callable[[int], bytes], opener: bytes, closer: bytes, max_items: int) -> bytes:
    parts = [HEAD, opener]
    size = len(HEAD) + len(opener) + len(closer) + len(TAIL)
    for n in range(max_items):
        item = items(n)
        if size + len(item) + 1 > LIMIT:
            break
        parts.append(item + b",")
        size += len(item) + 1
    parts[-1] = parts[-1].rstrip(b",")
    return b"".join([*parts, closer, TAIL])


def _objects_of_distinct_keys(n: int) -> bytes:
    """Objects of 20 keys each, drawn from ``MAX_DISTINCT_KEYS`` distinct names (the most a
    file may hold): every key a parser keeps, in as many objects as the limits allow."""
    base = (n * 20) % (MAX_DISTINCT_KEYS - 20)
    return b"{" + b",".join(b'"%x":0' % (base + i) for i in range(20)) + b"}"


def _cases() -> Iterator[tuple[str, bytes]]:
    yield (
        "distinct keys (the bound)",
        _fill(lambda n: b'"%x":0' % n, b"{", b"}", MAX_DISTINCT_KEYS - 10),
    )
    yield (
        "distinct keys (over the bound, refused)",
        _fill(lambda n: b'"%x":0' % n, b"{", b"}", MAX_ITEMS),
    )
    yield "objects of distinct keys", _fill(_objects_of_distinct_keys, b"[", b"]", MAX_ITEMS // 21)
    yield "floats", _fill(lambda n: b"%d.5" % (n % 1000), b"[", b"]", MAX_ITEMS - 10)
    yield "short strings", _fill(lambda n: b'"%x"' % (n % 4096), b"[", b"]", MAX_ITEMS - 10)
    yield "empty objects", _fill(lambda _: b"{}", b"[", b"]", MAX_ITEMS // 2 - 10)


def measure(path: Path) -> tuple[float, float, str]:
    """Peak resident MB, wall seconds and the first line of ``wake verify PATH``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "domain.cli.app", "verify", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    elapsed = time.monotonic() - started
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    assert peak >= before
    first = (done.stdout or done.stderr).splitlines()[0] if done.stdout or done.stderr else ""
    return peak / 1024, elapsed, first.split(" - ", 1)[-1][:70]


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        print(f"{'file (just under the limits)':42} {'MB peak':>8} {'s':>6}  answer")
        for name, data in _cases():
            path = Path(folder) / "worst.wake.json"
            path.write_bytes(data)
            # ru_maxrss of children is the largest so far: measure each in a fresh runner
            code = (
                "import sys; from pathlib import Path; "
                "from tests.benchmarks.bench_memory import measure; "
                "mb, s, first = measure(Path(sys.argv[1])); print(f'{mb:.0f} {s:.1f} {first}')"
            )
            out = subprocess.run(
                [sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True
            ).stdout.split(" ", 2)
            print(f"{name:42} {out[0]:>8} {out[1]:>6}  {out[2].strip()}")


if __name__ == "__main__":
    main()
