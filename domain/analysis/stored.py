"""An analysis kept beside its game in the store: a stream of its own, never the game's chain.

The stream (id ``analysis_stream_id(game_id)``) holds ``Started`` (the spec) and one
``Estimated`` per finished estimate, written as soon as it is computed: an analysis that stops
half-way resumes with what it has. A ``Started`` with another spec (more rollouts, another
version of the bots) begins again; the older estimates stay in the stream's history but are no
longer read. The game's own events and digests are never touched.
"""

from __future__ import annotations

from domain.aggregate import GameAnalysis, analysis_stream_id, legacy_analysis_stream_id
from domain.analysis.model import Analysis, AnalysisSpec, Estimate
from domain.analysis.run import plan
from domain.errors import StoreError, validation_summary
from domain.store import GameStore


def _stream(store: GameStore, game_id: str) -> GameAnalysis | None:
    return store.beside(
        GameAnalysis, analysis_stream_id(game_id), legacy_analysis_stream_id(game_id), game_id
    )


def stored_spec(store: GameStore, game_id: str) -> tuple[AnalysisSpec | None, list[Estimate]]:
    """The spec the game's analysis was started with and its estimates so far.

    Raises:
        StoreError: a stored estimate does not read (the store was altered).
    """
    found = _stream(store, game_id)
    if found is None or found.spec is None:
        return None, []
    try:
        spec = AnalysisSpec.model_validate(found.spec)
        estimates = [Estimate.model_validate(body) for body in found.estimates]
    except ValueError as exc:
        raise StoreError(
            f"game {game_id}: the stored analysis does not read ({validation_summary(exc)})"
        ) from None
    return spec, estimates


def begin(store: GameStore, game_id: str, spec: AnalysisSpec) -> list[Estimate]:
    """Start (or resume) the game's analysis with ``spec``: the estimates already stored for the
    same spec are returned and kept; another spec begins again."""
    have, estimates = stored_spec(store, game_id)
    if have == spec:
        return estimates
    found = _stream(store, game_id) or GameAnalysis.begin(game_id)
    found.start(spec.model_dump(mode="json"))
    store.save(found)
    return []


def add(store: GameStore, game_id: str, estimate: Estimate) -> None:
    """Keep one finished estimate (written at once: a crash loses only unfinished ones)."""
    found = _stream(store, game_id)
    if found is None:
        raise StoreError(f"game {game_id} has no analysis started")
    found.add(estimate.model_dump(mode="json"))
    store.save(found)


def stored_analysis(store: GameStore, game_id: str) -> Analysis | None:
    """The game's analysis as exported (its points recomputed from the game), or None."""
    spec, estimates = stored_spec(store, game_id)
    if spec is None:
        return None
    header, facts = store.facts(game_id)
    return Analysis(spec=spec, points=plan(header, facts, spec.every), estimates=estimates)


def save_analysis(store: GameStore, game_id: str, analysis: Analysis) -> None:
    """Store an imported analysis (already checked against the game), replacing the one kept."""
    found = _stream(store, game_id) or GameAnalysis.begin(game_id)
    found.start(analysis.spec.model_dump(mode="json"))
    for estimate in analysis.estimates:
        found.add(estimate.model_dump(mode="json"))
    store.save(found)


def for_viewer(store: GameStore, game_id: str, viewer: str | None) -> Analysis | None:
    """The analysis a viewer may see: the umpire (``viewer`` None) always; a side only once the
    game is over (during a live game it would leak hidden information)."""
    if viewer is not None and store.state(game_id).result is None:
        return None
    return stored_analysis(store, game_id)
