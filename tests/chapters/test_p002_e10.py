"""Paper 002, E10 (Chapter 7): MovieLens 100k, semi-synthetic. The experiment on small sizes (skipped when
the data set cannot be had) and its cost."""

from __future__ import annotations

import pytest
from small import CHECKS, small

from dpnet.chapters.recommender_maxsense import p002_e10
from dpnet.errors import DataError


def test_movielens_experiment_on_small_sizes() -> None:
    P = small("recommender-maxsense", movielens_items=40, movielens_eps=[2.0, 4.0], movielens_trials=5)
    try:
        e10 = p002_e10.movielens(P)
    except DataError as exc:
        pytest.skip(f"MovieLens 100k unavailable: {exc}")
    checks = {c.name: c for c in e10.checks["p002-e10"]}
    assert list(checks) == CHECKS["p002-e10"].split()
    assert all(
        checks[n].passed and checks[n].against == "reference" for n in ("ratings", "users", "movies", "scale")
    )
    assert e10.model.n_items == 40 and len(e10.table) == 2 and e10.fit_table.shape == (2, 4)
    metrics = e10.metrics()
    assert metrics["movielens_shape"] == {"ratings": 100_000, "users": 943, "movies": 1682}
    assert [r["eps"] for r in metrics["movielens_u90"]] == [2.0, 4.0]


def test_p002_e10_cost_holds_the_fitted_matrix() -> None:
    """At each ε: MaxSense at 15 points (40 runs), Pairwise-Preference at 3 + 2 points (6 runs), N = 100."""
    values = {"mode": "quick", "movielens_items": 100, "movielens_eps": [1.0, 4.0], "trials": 40,
              "movielens_trials": 6}  # fmt: skip
    need = p002_e10.cost(values)
    ms, pp = 5e-4 + 1e-6 * 100, 1.1e-3 + 2.2e-7 * 100**2 + 2e-10 * 100**3
    assert need.seconds == pytest.approx(2 * (15 * 40 * ms + 5 * 6 * pp), rel=1e-12)
    assert need.peak == 48.0 * 100**2
