"""A tool author's loop (issue 22 item 15): an out-of-tree ruleset plugin installs by the docs
alone, offline, with ``pip install --no-build-isolation --no-index -e``, and plays.

The toy ruleset (tests/plugin_toy/duel.py) becomes a package of its own with exactly the
``pyproject.toml`` docs/ruleset-contract.md gives, and is installed into a fresh environment that
sees Wake's (a ``.pth`` adding Wake's site-packages: what "the environment Wake is installed in"
means, without touching Wake's own). No network: ``--no-index``, and the build uses the installed
setuptools. Then ``wake rulesets`` lists it, and a game is recorded and verified with it.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.helpers import ROOT

CONTRACT = ROOT / "docs" / "ruleset-contract.md"
TOY = ROOT / "tests" / "plugin_toy" / "duel.py"
MARKER = "<!-- plugin-pyproject:"


def _documented_pyproject() -> str:
    """The plugin's pyproject.toml, as the contract documents it (the block after MARKER)."""
    text = CONTRACT.read_text("utf-8")
    found = re.search(re.escape(MARKER) + r".*?-->\s*```toml\n(.*?)```", text, re.S)
    assert found, f"{CONTRACT} lost its plugin pyproject block"
    return found.group(1)


def _build_tools_present() -> bool:
    """setuptools >= 70.1 (bdist_wheel built in), or the wheel package, in Wake's environment."""
    try:
        import setuptools
    except ImportError:
        return False
    major, minor = (int(x) for x in setuptools.__version__.split(".")[:2])
    if (major, minor) >= (70, 1):
        return True
    try:
        import wheel  # noqa: F401
    except ImportError:
        return False
    return True


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=300)


def test_the_documented_plugin_installs_offline_and_plays(tmp_path: Path) -> None:
    assert _build_tools_present(), (
        "Wake's environment lacks setuptools>=70.1 (or wheel): run `make install` (the dev "
        "extra installs it), as docs/ruleset-contract.md says"
    )
    package = tmp_path / "wake-duel"
    (package / "wake_duel").mkdir(parents=True)
    (package / "pyproject.toml").write_text(_documented_pyproject(), "utf-8")
    (package / "wake_duel" / "__init__.py").write_text('"""A toy Wake ruleset."""\n', "utf-8")
    (package / "wake_duel" / "duel.py").write_text(TOY.read_text("utf-8"), "utf-8")
    env = tmp_path / "env"
    made = _run([sys.executable, "-m", "venv", "--without-pip", str(env)], tmp_path)
    assert made.returncode == 0, made.stderr
    python = env / "bin" / "python"
    target = _run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], tmp_path
    )
    site = Path(target.stdout.strip())
    wake_site = sysconfig.get_paths()["purelib"]
    (site / "wake-environment.pth").write_text(f"import site; site.addsitedir({wake_site!r})\n")
    pip = [sys.executable, "-m", "pip", "--python", str(python), "--disable-pip-version-check"]
    installed = _run(
        [*pip, "install", "--no-build-isolation", "--no-index", "-e", str(package)], tmp_path
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    wake = [str(python), "-m", "domain.cli.app"]
    listed = _run([*wake, "rulesets"], tmp_path)
    assert listed.returncode == 0, listed.stderr
    line = next(line for line in listed.stdout.splitlines() if line.startswith("duel"))
    assert "plugin wake_duel.duel:DuelRuleset [wake-duel]" in line
    scenario = tmp_path / "harbour.json"
    scenario.write_text(json.dumps({"id": "harbour"}), "utf-8")
    record = tmp_path / "duel.wake.json"
    played = _run(
        [*wake, "record", "duel", str(scenario), "--seed", "4", "-o", str(record)], tmp_path
    )
    assert played.returncode == 0, played.stderr
    verified = _run([*wake, "verify", str(record)], tmp_path)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert ": OK - " in verified.stdout
    log = _run([*wake, "log", str(record)], tmp_path)
    # an order and the result in words; the names are the plugin's read model's (its units
    # share their sides' ids, so which name a side's id reads as is the plugin's to choose)
    assert "order #0 by " in log.stdout and "game over: " in log.stdout
    assert "CommandIssued" not in log.stdout  # describe() gets the engine's events too


@pytest.mark.parametrize("ruleset", ["morze", "iron_oak", "armada", "ships"])
def test_the_contract_lists_every_built_in_entry_point(ruleset: str) -> None:
    """Item 15: the entry-point example names all four rulesets, as pyproject.toml does."""
    import tomllib

    points = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["entry-points"][
        "wake.rulesets"
    ]
    assert f'{ruleset} = "{points[ruleset]}"' in CONTRACT.read_text("utf-8")
