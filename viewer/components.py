"""Serving Wake's own Streamlit components: their static files beside plotly.js, from one
directory made once per content in the temporary directory (the package directory may be
read-only), never from a CDN."""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

import plotly


def plotly_js() -> Path:
    """plotly.js as installed with the ``plotly`` package."""
    return Path(plotly.__file__).with_name("package_data") / "plotly.min.js"


def component_dir(name: str, static: Path, files: Sequence[str]) -> Path:
    """A directory holding ``files`` of ``static`` and plotly.js, made once per content."""
    digest = hashlib.sha256(plotly.__version__.encode())
    for file in files:
        digest.update((static / file).read_bytes())
    target = Path(tempfile.gettempdir()) / f"wake-{name}-{digest.hexdigest()[:16]}"
    if (target / "ready").exists():
        return target
    target.mkdir(parents=True, exist_ok=True)
    for source in [*(static / file for file in files), plotly_js()]:
        partial = target / f".{source.name}.{os.getpid()}"
        shutil.copyfile(source, partial)
        os.replace(partial, target / source.name)  # atomic: another server may be copying too
    (target / "ready").write_text("ok\n")
    return target
