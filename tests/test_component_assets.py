"""The components' files as a browser fetches them (issue 21 item 12: the first board of a game
within 1 s warm): the scrubber's scripts joined into one bundle in ``index.html``'s order, every
file served for good from the asset route under Wake's server, nothing else served there, and
the plotly.js bundle that matches the installed ``plotly``."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from starlette.applications import Starlette

from tests.helpers import asgi_get
from viewer import components
from viewer.asset_route import IMMUTABLE, asset_routes
from viewer.scrubber import SCRIPTS, STATIC


def _get(app: Starlette, path: str, gzip_ok: bool = False) -> tuple[int, dict[str, str], bytes]:
    """One GET through the ASGI app: status, headers, body."""
    return asgi_get(app, path, [(b"accept-encoding", b"gzip")] if gzip_ok else [])


@pytest.fixture
def by_route(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(components, "_by_route", True)


def _scrubber(bundle: bool = True) -> Path:
    files = ("index.html", "scrubber.css", *SCRIPTS)
    return components.component_dir("scrubber", STATIC, files, bundle=SCRIPTS if bundle else ())


def test_the_scrubber_page_loads_one_bundle_of_its_scripts_in_their_order() -> None:
    """Sixteen script requests became one: ``index.html`` as served loads
    ``scrubber.bundle.js`` where it loaded ``context.js``, and no other script of the
    scrubber; the bundle is the scripts joined in ``SCRIPTS`` order."""
    folder = _scrubber()
    page = (folder / "index.html").read_text("utf-8")
    scripts = re.findall(r'<script src="([^"]+)"', page)
    assert scripts == ["plotly.min.js", "scrubber.bundle.js"]
    bundle = (folder / "scrubber.bundle.js").read_text("utf-8")
    starts = [bundle.index((STATIC / name).read_text("utf-8")) for name in SCRIPTS]
    assert starts == sorted(starts) and starts[0] == 0
    assert all(not (folder / name).exists() for name in SCRIPTS)


def test_a_page_names_its_files_by_the_route_and_the_route_serves_them_for_good(
    by_route: None,
) -> None:
    """Under Wake's server every file the page loads is ``../../wake-assets/scrubber/<digest>/
    <file>`` (the component's page is ``/component/<name>/index.html``), served with a
    year's immutable caching: a page opened again asks the server for its ``index.html``
    only. The body is the file's own bytes, gzipped when the browser accepts it."""
    folder = _scrubber()
    page = (folder / "index.html").read_text("utf-8")
    named = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert len(named) == 3 and all(n.startswith("../../wake-assets/scrubber/") for n in named)
    app = Starlette(routes=asset_routes())
    for name in named:
        path = "/" + name.removeprefix("../../")
        status, headers, body = _get(app, path)
        assert status == 200, path
        assert headers["cache-control"] == IMMUTABLE
        assert body == (folder / path.rsplit("/", 1)[1]).read_bytes()
        status, headers, zipped = _get(app, path, gzip_ok=True)
        assert headers["content-encoding"] == "gzip" and gzip.decompress(zipped) == body


def test_the_route_serves_nothing_but_the_assembled_files(by_route: None) -> None:
    """Nothing in the address is a path: an unknown component, digest or file, the page
    itself, a traversal and a file of another kind are all 404."""
    folder = _scrubber()
    digest = folder.name.rsplit("-", 1)[1]
    app = Starlette(routes=asset_routes())
    assert _get(app, f"/wake-assets/scrubber/{digest}/scrubber.css")[0] == 200
    for path in (
        f"/wake-assets/scrubber/{digest}/index.html",
        f"/wake-assets/scrubber/{digest}/context.js",  # bundled, not served alone
        f"/wake-assets/scrubber/{'0' * 16}/scrubber.css",
        f"/wake-assets/other/{digest}/scrubber.css",
        f"/wake-assets/scrubber/{digest}/..%2F..%2Fapp.py",
        f"/wake-assets/scrubber/{digest}/ready",
    ):
        assert _get(app, path)[0] == 404, path


def test_the_route_sits_under_the_servers_base_path(by_route: None) -> None:
    folder = _scrubber()
    digest = folder.name.rsplit("-", 1)[1]
    app = Starlette(routes=asset_routes("/club/"))
    assert _get(app, f"/club/wake-assets/scrubber/{digest}/scrubber.css")[0] == 200
    assert _get(app, f"/wake-assets/scrubber/{digest}/scrubber.css")[0] == 404


def test_without_the_route_the_page_names_its_files_beside_it() -> None:
    """``streamlit run viewer/app.py`` (no asset route): Streamlit's component route serves
    the same files from the page's own directory."""
    page = (_scrubber() / "index.html").read_text("utf-8")
    assert re.findall(r'(?:src|href)="([^"]+)"', page) == [
        "scrubber.css",
        "plotly.min.js",
        "scrubber.bundle.js",
    ]


def test_the_pages_get_the_basic_plotly_bundle_of_the_installed_version() -> None:
    """The basic bundle (scatter, bar, pie: every trace the pages draw) is used when it is
    the installed plotly.js's version; the figures made in Python are for that version."""
    components.plotly_js.cache_clear()
    chosen = components.plotly_js()
    full = components.full_plotly_js()
    assert components.plotly_version(chosen) == components.plotly_version(full)
    if components.plotly_version(components.BASIC) == components.plotly_version(full):
        assert chosen == components.BASIC
        assert chosen.stat().st_size < full.stat().st_size / 2
    traces = set()
    for script in ("board-traces.js", "board.js", "charts.js", "winprob.js", "board-table.js"):
        traces |= set(re.findall(r"type: '(\w+)'", (STATIC / script).read_text("utf-8")))
    assert traces - {"line", "rect", "path"} <= {"scatter", "bar", "pie"}  # shapes aside


def test_another_plotly_version_gets_the_full_bundle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    older = tmp_path / "plotly-basic.min.js"
    older.write_text("/**\n* plotly.js (basic - minified) v1.0.0\n*/\n", "utf-8")
    monkeypatch.setattr(components, "BASIC", older)
    components.plotly_js.cache_clear()
    try:
        assert components.plotly_js() == components.full_plotly_js()
    finally:
        components.plotly_js.cache_clear()
