"""Running ``wake`` in process for tests: exit code, stdout and stderr, and an unexpected
exception (a traceback in a command) raised as a test failure instead of passing as exit 1."""

from __future__ import annotations

from typer.testing import CliRunner

from domain.cli.app import app

runner = CliRunner()


def wake(*args: str) -> tuple[int, str, str]:
    """``wake ARGS...``: (exit code, stdout, stderr)."""
    result = runner.invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"traceback for {args}: {result.exception!r}")
    return result.exit_code, result.stdout, result.stderr
