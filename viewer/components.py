"""Serving Wake's own Streamlit components: their static files beside plotly.js, from one
directory made once per content in the temporary directory (the package directory may be
read-only), never from a CDN.

A component's scripts that its ``index.html`` loads one after another (deferred) are joined
into one file, ``<name>.bundle.js``: one request instead of one per script. When the viewer
runs as Wake's server (``viewer/wake_asgi.py``), the page's files are fetched from
``/wake-assets/<name>/<digest>/<file>`` (``viewer/asset_route.py``), which a browser may keep
for good: the digest names their content, so a page opened again asks the server only for its
``index.html``. Streamlit's own component route sends them without a lifetime, so a browser
fetched them again at every open, each waiting for the page's script run (issue 21 item 12).
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import plotly

ASSET_ROUTE = "wake-assets"


BASIC = Path(__file__).with_name("vendor") / "plotly-basic.min.js"
_VERSION = re.compile(rb"plotly\.js(?: \([^)]*\))? v(\d+\.\d+\.\d+)")


def plotly_version(script: Path) -> str | None:
    """The plotly.js version a bundle names in its opening comment."""
    with script.open("rb") as file:
        found = _VERSION.search(file.read(300))
    return found.group(1).decode() if found else None


def full_plotly_js() -> Path:
    """plotly.js as installed with the ``plotly`` package (every trace type)."""
    return Path(plotly.__file__).with_name("package_data") / "plotly.min.js"


@lru_cache(maxsize=1)
def plotly_js() -> Path:
    """plotly.js for the components' pages: the basic bundle in ``vendor/`` (scatter, bar and
    pie traces: all the pages draw; a quarter of the full bundle, so a page is ready about
    0.6 s sooner) when it is the version of the plotly.js installed with ``plotly`` (the
    figures the Python side builds are made for that version), else the full bundle."""
    full = full_plotly_js()
    if BASIC.is_file() and plotly_version(BASIC) == plotly_version(full):
        return BASIC
    return full


@dataclass(frozen=True)
class Assembled:
    """A component's files as a page fetches them: ``files`` by name (all but ``index.html``),
    their ``digest``, and the directory Streamlit serves the component from."""

    name: str
    digest: str
    directory: Path
    files: Mapping[str, bytes]


_by_route = False
_assembled: dict[tuple[str, str], Assembled] = {}


def serve_by_route() -> None:
    """The components' pages fetch their files from the asset route from now on (called by
    ``viewer/wake_asgi.py``, which adds that route to the server)."""
    global _by_route
    _by_route = True


def served_by_route() -> bool:
    """Whether this process is Wake's server (``viewer/wake_asgi.py``), with its own routes."""
    return _by_route


def assembled(name: str, digest: str) -> Assembled | None:
    """The files of component ``name`` at ``digest``, if this process made them."""
    return _assembled.get((name, digest))


def _script_tag(file: str) -> str:
    return f'<script src="{file}" defer></script>'


def _index(page: str, name: str, bundle: Sequence[str], digest: str) -> str:
    """``index.html`` as served: the bundled scripts' tags replaced by the bundle's, at the first
    one's place; with the asset route, every local file named by its route."""
    if bundle:
        tags = [_script_tag(file) for file in bundle]
        missing = [tag for tag in tags if tag not in page]
        if missing:
            raise ValueError(f"{name}: index.html does not load {missing}")
        page = page.replace(tags[0], _script_tag(f"{name}.bundle.js"), 1)
        for tag in tags[1:]:
            page = re.sub(rf"[ \t]*{re.escape(tag)}\n?", "", page, count=1)
    if _by_route:
        prefix = f"../../{ASSET_ROUTE}/{name}/{digest}/"
        page = re.sub(r'(src|href)="([\w.-]+\.(?:js|css))"', rf'\1="{prefix}\2"', page)
    return page


def component_dir(
    name: str, static: Path, files: Sequence[str], bundle: Sequence[str] = ()
) -> Path:
    """A directory holding ``files`` of ``static`` and plotly.js, made once per content;
    ``bundle``: those of ``files`` joined, in that order, into ``<name>.bundle.js``."""
    sources = {file: (static / file).read_bytes() for file in files}
    digest = hashlib.sha256(f"{plotly_js()}:{plotly.__version__}:{_by_route}:{bundle}".encode())
    for file in files:
        digest.update(file.encode() + b"\0" + sources[file])
    key = digest.hexdigest()[:16]
    served = {f: data for f, data in sources.items() if f != "index.html" and f not in bundle}
    if bundle:
        served[f"{name}.bundle.js"] = b"\n".join(sources[f] for f in bundle)
    served["plotly.min.js"] = plotly_js().read_bytes()
    page = _index(sources["index.html"].decode("utf-8"), name, bundle, key)
    target = Path(tempfile.gettempdir()) / f"wake-{name}-{key}"
    _assembled[(name, key)] = Assembled(name, key, target, served)
    if (target / "ready").exists():
        return target
    target.mkdir(parents=True, exist_ok=True)
    for file, data in [*served.items(), ("index.html", page.encode("utf-8"))]:
        partial = target / f".{file}.{os.getpid()}"
        partial.write_bytes(data)
        os.replace(partial, target / file)  # atomic: another server may be writing too
    (target / "ready").write_text("ok\n")
    return target
