"""Paper 001's experiments: the four private mechanisms on a dataset, their references and errors.

The four mechanisms of Figures 3–7 pair an algorithm with a kind of privacy:

=========  ==============================  ===========
name       algorithm                       privacy
=========  ==============================  ===========
MVUE-S     Algorithm 3 (noise once)        Signal DP
MVUE-N     Algorithm 3 (noise once)        Network DP
OL-S       Algorithm 4                     Signal DP
OL-N       Algorithm 5                     Network DP
=========  ==============================  ===========

All use smooth-sensitivity Laplace noise (:func:`dpnet.estimation.privacy.smooth_scales`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

from dpnet.errors import ParameterError
from dpnet.estimation.datasets import EstimationData
from dpnet.estimation.dynamics import Run, simulate
from dpnet.estimation.privacy import Calibration, neighbour_weights, smooth_scales

__all__ = [
    "MECHANISMS",
    "REFERENCES",
    "error_vs_epsilon",
    "private_run",
    "reference_value",
]

#: Mechanism name → (algorithm of :func:`~dpnet.estimation.dynamics.simulate`, privacy kind).
MECHANISMS: dict[str, tuple[str, str]] = {
    "MVUE-S": ("mvue", "signal"),
    "MVUE-N": ("mvue", "network"),
    "OL-S": ("ol_signal", "signal"),
    "OL-N": ("ol_network", "network"),
}
#: Conventions for the value the errors are measured against (:func:`reference_value`).
REFERENCES: tuple[str, ...] = ("paper", "authors_code")


def _mechanism(name: str) -> tuple[str, str]:
    try:
        return MECHANISMS[name]
    except KeyError:
        raise ParameterError(f"mechanism must be one of {tuple(MECHANISMS)} (got {name!r})") from None


def reference_value(
    data: EstimationData, mechanism: str, convention: str = "paper", horizon: int | None = None
) -> float:
    """The value ``m`` of the total error ``‖ν_T − 𝟙m‖₂``.

    ``"paper"``: the MVUE ``m̂ = mean_i log s_{i,1}`` (§5.2) for Algorithm 3, the true ``m_θ = μ`` of
    Theorems 4.1–4.2 for online learning. ``"authors_code"``: agent 0's time average
    ``mean_t log s_{0,t}`` for the MVUE, the grand mean of the ``n·T`` log-signals for online learning
    (which the network average equals exactly at ``T``).
    """
    algorithm, _ = _mechanism(mechanism)
    if convention not in REFERENCES:
        raise ParameterError(f"reference convention must be one of {REFERENCES} (got {convention!r})")
    xi = data.xi
    T = data.horizon if horizon is None else int(horizon)
    if algorithm == "mvue":
        return float(xi[:, 0].mean() if convention == "paper" else xi[0, :].mean())
    return float(data.theta if convention == "paper" else xi[:, :T].mean())


def _scales(
    data: EstimationData,
    kind: str,
    eps_values: Sequence[float],
    *,
    delta: float,
    calibration: Calibration,
    columns: int,
) -> NDArray[np.float64]:
    a = neighbour_weights(data.weights) if kind == "network" else None
    s = data.signals[:, :columns]
    return np.stack(
        [smooth_scales(kind, s, e, delta=delta, a=a, calibration=calibration) for e in eps_values]
    )  # type: ignore[arg-type]


def private_run(
    data: EstimationData,
    mechanism: str,
    eps_values: Sequence[float],
    rng: np.random.Generator,
    *,
    delta: float,
    calibration: Calibration,
    n_draws: int = 1,
    horizon: int | None = None,
    record: ArrayLike | None = None,
) -> Run:
    """One mechanism at each ε (``n_draws`` noise draws each) and its non-private twin, on ``data``.

    ``horizon`` defaults to the dataset's ``T`` (MVUE: ``T`` averaging steps from the day-1 signals).
    """
    algorithm, kind = _mechanism(mechanism)
    T = data.horizon if horizon is None else int(horizon)
    columns = T if algorithm.startswith("ol") else 1
    scales = _scales(data, kind, eps_values, delta=delta, calibration=calibration, columns=columns)
    return simulate(algorithm, data.weights, data.xi, scales, rng, horizon=T, n_draws=n_draws, record=record)  # type: ignore[arg-type]


def error_vs_epsilon(
    data: EstimationData,
    mechanisms: Sequence[str],
    eps_values: Sequence[float],
    rngs: Sequence[np.random.Generator],
    *,
    delta: float,
    calibration: Calibration,
    n_draws: int,
    reference: str = "paper",
) -> pd.DataFrame:
    """Final-round errors of each mechanism at each ε, one row per noise draw (Figure 7).

    Parameters
    ----------
    rngs
        One generator per mechanism.

    Returns
    -------
    pandas.DataFrame
        Columns ``dataset, mechanism, calibration, eps, draw, cop, te, cod``: the cost of privacy
        ``‖ν_T − μ_T‖₂``, the total error ``‖ν_T − 𝟙m‖₂`` and the non-private ``‖μ_T − 𝟙m‖₂``.
    """
    if len(rngs) != len(mechanisms):
        raise ParameterError(f"give one generator per mechanism ({len(mechanisms)}; got {len(rngs)})")
    frames = []
    for name, rng in zip(mechanisms, rngs, strict=True):
        run = private_run(data, name, eps_values, rng, delta=delta, calibration=calibration, n_draws=n_draws,
                          record=[data.horizon])  # fmt: skip
        m = reference_value(data, name, reference)
        cop, te = run.cost_of_privacy()[0], run.total_error(m)[0]  # (c, r)
        eps_grid, draws = np.meshgrid(np.asarray(eps_values, dtype=float), np.arange(n_draws), indexing="ij")
        frames.append(pd.DataFrame({
            "dataset": data.name, "mechanism": name, "calibration": calibration, "eps": eps_grid.ravel(),
            "draw": draws.ravel(), "cop": cop.ravel(), "te": te.ravel(),
            "cod": float(run.cost_of_decentralisation(m)[0]),
        }))  # fmt: skip
    return pd.concat(frames, ignore_index=True)
