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
:func:`located_noise_errors` reruns Figure 7 with the noise the authors' script drew when it last made
that figure (commit ``9e83092``): ``numpy.random.laplace(D)``, whose first argument is the *location*,
so the noise was ``D + Lap(1)`` where ``Lap(0, D)`` was meant.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray
from scipy import sparse

from dpnet.errors import ParameterError
from dpnet.estimation.datasets import EstimationData
from dpnet.estimation.dynamics import Run, propagate, simulate, step
from dpnet.estimation.moments import (
    decentralisation_curve,
    mvue_moments,
    ol_network_moments,
    ol_signal_moments,
    theorem31_bound,
    theorem41_bound,
    theorem42_bound,
)
from dpnet.estimation.privacy import Calibration, smooth_scales
from dpnet.networks import eigenvalues, neighbour_weights

__all__ = [
    "MECHANISMS",
    "REFERENCES",
    "error_summary",
    "error_vs_epsilon",
    "exact_rms_error",
    "located_noise_errors",
    "moment_study",
    "ol_signal_rms_paths",
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
    calibration: Calibration | Sequence[Calibration],
    n_draws: int = 1,
    horizon: int | None = None,
    record: ArrayLike | None = None,
) -> Run:
    """One mechanism at each ε (``n_draws`` noise draws each) and its non-private twin, on ``data``.

    ``horizon`` defaults to the dataset's ``T`` (MVUE: ``T`` averaging steps from the day-1 signals).
    ``calibration`` may list several calibrations: they then share one unit noise draw
    (:func:`~dpnet.estimation.dynamics.simulate` with ``groups``), and the run's configurations are
    every ε of the first calibration, then every ε of the next, each exactly the run a single
    calibration would give with a generator in the same state.
    """
    algorithm, kind = _mechanism(mechanism)
    T = data.horizon if horizon is None else int(horizon)
    columns = T if algorithm.startswith("ol") else 1
    calibrations = [calibration] if isinstance(calibration, str) else list(calibration)
    scales = np.concatenate([
        _scales(data, kind, eps_values, delta=delta, calibration=cal, columns=columns) for cal in calibrations
    ])  # fmt: skip
    return simulate(algorithm, data.weights, data.xi, scales, rng, horizon=T, n_draws=n_draws, record=record,
                    groups=len(calibrations))  # type: ignore[arg-type]  # fmt: skip


def error_vs_epsilon(
    data: EstimationData,
    mechanisms: Sequence[str],
    eps_values: Sequence[float],
    rngs: Sequence[np.random.Generator],
    *,
    delta: float,
    calibration: Calibration | Sequence[Calibration],
    n_draws: int,
    reference: str = "paper",
) -> pd.DataFrame:
    """Final-round errors of each mechanism at each ε, one row per noise draw (Figure 7).

    Parameters
    ----------
    rngs
        One generator per mechanism.
    calibration
        One calibration, or several that share each mechanism's unit noise (one draw serves them all,
        :func:`private_run`): the rows are then those of one call per calibration, each with fresh
        generators in the same states, in the order of the calibrations.

    Returns
    -------
    pandas.DataFrame
        Columns ``dataset, mechanism, calibration, eps, draw, cop, te, cod``: the cost of privacy
        ``‖ν_T − μ_T‖₂``, the total error ``‖ν_T − 𝟙m‖₂`` and the non-private ``‖μ_T − 𝟙m‖₂``.
    """
    if len(rngs) != len(mechanisms):
        raise ParameterError(f"give one generator per mechanism ({len(mechanisms)}; got {len(rngs)})")
    calibrations = [calibration] if isinstance(calibration, str) else list(calibration)
    frames: list[list[pd.DataFrame]] = [[] for _ in calibrations]
    k = len(eps_values)
    eps_grid, draws = np.meshgrid(np.asarray(eps_values, dtype=float), np.arange(n_draws), indexing="ij")
    for name, rng in zip(mechanisms, rngs, strict=True):
        run = private_run(data, name, eps_values, rng, delta=delta, calibration=calibrations, n_draws=n_draws,
                          record=[data.horizon])  # fmt: skip
        m = reference_value(data, name, reference)
        cop, te = run.cost_of_privacy()[0], run.total_error(m)[0]  # (calibrations × ε, r)
        cod = float(run.cost_of_decentralisation(m)[0])
        for g, cal in enumerate(calibrations):
            block = slice(g * k, (g + 1) * k)
            frames[g].append(pd.DataFrame({
                "dataset": data.name, "mechanism": name, "calibration": cal, "eps": eps_grid.ravel(),
                "draw": draws.ravel(), "cop": cop[block].ravel(), "te": te[block].ravel(), "cod": cod,
            }))  # fmt: skip
    return pd.concat([frame for block in frames for frame in block], ignore_index=True)


def located_noise_errors(
    data: EstimationData,
    mechanisms: Sequence[str],
    eps_values: Sequence[float],
    rngs: Sequence[np.random.Generator],
    *,
    delta: float,
    n_draws: int,
    reference: str = "paper",
    label: str = "located",
) -> pd.DataFrame:
    """Figure 7's final-round errors with the noise located at the authors' scale: ``d = D + Lap(1)``.

    ``D`` is the authors' code's scale (:func:`~dpnet.estimation.privacy.smooth_scales` with
    ``calibration="authors_code"``), the noise ``numpy.random.laplace(D)`` drew at commit ``9e83092``.
    The recursions are linear, so the private state is the non-private twin plus the propagation of the
    unit noise (one run with scale 1, ``n_draws`` draws from ``rngs``, one generator per mechanism) plus
    the propagation of the offsets ``D`` (:func:`~dpnet.estimation.dynamics.propagate`, one column per
    ε). Each draw of the unit noise serves every ε (the authors drew afresh for each): every point has
    the same law, the points of one draw are correlated.

    Returns
    -------
    pandas.DataFrame
        The columns of :func:`error_vs_epsilon`, with ``calibration`` = ``label``.
    """
    if len(rngs) != len(mechanisms):
        raise ParameterError(f"give one generator per mechanism ({len(mechanisms)}; got {len(rngs)})")
    T, n = data.horizon, data.n
    frames = []
    for name, rng in zip(mechanisms, rngs, strict=True):
        algorithm, kind = _mechanism(name)
        unit = simulate(algorithm, data.weights, data.xi, np.ones((1, n)), rng, horizon=T, n_draws=n_draws,
                        record=[T])  # fmt: skip
        columns = T if algorithm.startswith("ol") else 1
        offsets = _scales(data, kind, eps_values, delta=delta, calibration="authors_code", columns=columns)
        # (ε, n, columns) → the inputs of propagate: (n, k) for the MVUE, (n, T, k) online
        inputs = offsets[:, :, 0].T if algorithm == "mvue" else np.moveaxis(offsets, 0, -1)
        shift = propagate(algorithm, data.weights, inputs, horizon=T).T  # (ε, n)
        noise = unit.private[0, 0] - unit.nonprivate[0]  # (r, n)
        moved = shift[:, None, :] + noise[None, :, :]  # (ε, r, n)
        m = reference_value(data, name, reference)
        cop = np.linalg.norm(moved, axis=-1)
        te = np.linalg.norm(unit.nonprivate[0] + moved - m, axis=-1)
        cod = float(np.linalg.norm(unit.nonprivate[0] - m))
        eps_grid, draws = np.meshgrid(np.asarray(eps_values, dtype=float), np.arange(n_draws), indexing="ij")
        frames.append(pd.DataFrame({
            "dataset": data.name, "mechanism": name, "calibration": label, "eps": eps_grid.ravel(),
            "draw": draws.ravel(), "cop": cop.ravel(), "te": te.ravel(), "cod": cod,
        }))  # fmt: skip
    return pd.concat(frames, ignore_index=True)


def error_summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Per (dataset, mechanism, calibration, ε): mean and standard deviation of the CoP over the draws, mean
    total error and the (draw-independent) CoD, from the rows of :func:`error_vs_epsilon`."""
    keys = ["dataset", "mechanism", "calibration", "eps"]
    summary = frame.groupby(keys, sort=False).agg(
        cop_mean=("cop", "mean"), cop_sd=("cop", "std"), te_mean=("te", "mean"), cod=("cod", "first")
    )
    return summary.reset_index()


def exact_rms_error(
    mechanism: str, eigenvalues: ArrayLike, times: ArrayLike, variance: float
) -> NDArray[np.float64]:
    """Root of the exact ``E‖μ_t − 𝟙m‖²`` of a mechanism's non-private twin at rounds ``times ≥ 1``.

    For i.i.d. statistics with ``Var ξ = variance``; ``m`` is the MVUE ``m̂`` for Algorithm 3 and ``m_θ``
    for online learning (:func:`~dpnet.estimation.moments.decentralisation_curve`).
    """
    algorithm, _ = _mechanism(mechanism)
    t = np.asarray(times, dtype=np.int64)
    if t.size == 0 or t.min() < 1:
        raise ParameterError(f"times must be rounds ≥ 1 (got {times})")
    curve = decentralisation_curve(algorithm, eigenvalues, int(t.max()))
    return np.sqrt(variance * curve[t - 1])


def moment_study(
    A: sparse.sparray | sparse.spmatrix,
    horizon: int,
    *,
    sigma: float,
    scale: float,
    rng: np.random.Generator,
    n_runs: int,
    mvue_factor: int = 10,
) -> tuple[pd.DataFrame, pd.DataFrame, float]:
    """Monte Carlo second moments of Algorithms 3, 4 and 5 against their exact formulas
    (:mod:`~dpnet.estimation.moments`).

    Each of ``n_runs`` runs draws fresh statistics ``ξ_{i,t} ~ N(0, σ²)`` and fresh ``Lap(scale)`` noise
    (a global-sensitivity mechanism, ``V = 2·scale²``) and runs every algorithm ``horizon`` rounds. The
    recursions are linear, so the non-private runs (``ξ`` alone) and the noise (``d`` alone) are
    propagated as separate stacks of ``n_runs`` columns with :func:`~dpnet.estimation.dynamics.step`:
    ``ν − μ`` is the propagated noise and ``ν`` their sum. Algorithm 3 gets ``mvue_factor`` times as
    many runs: its errors ride on a few slow modes, so they vary more, and a run costs one draw.

    Returns
    -------
    moments
        Rows ``algorithm, quantity, exact, monte_carlo, se`` for ``‖ν−μ‖²`` (CoP²) and ``‖μ−𝟙m‖²`` (CoD²).
    bounds
        Rows ``case, error, bound``: the mean total error against Theorems 3.1, 4.1 and 4.2 (Theorem 3.1's
        bound, which depends on the run's ``M_n = max_i |ξ_i|``, is averaged over the runs' own bounds).
    average_gap
        Largest deviation of a network average of the propagated noise from the running mean of the
        noise inputs (0 up to rounding).
    """
    W = sparse.csr_array(A, dtype=float)
    n, T = W.shape[0], int(horizon)
    if T < 1 or n_runs < 2 or mvue_factor < 1:
        raise ParameterError(
            f"horizon ≥ 1, n_runs ≥ 2 and mvue_factor ≥ 1 needed (got {horizon}, {n_runs}, {mvue_factor})"
        )
    eig = eigenvalues(W)
    beta = float(max(eig[1], abs(eig[-1])))
    V, s2 = 2.0 * scale**2, sigma**2
    cases = {
        "Algorithm 3 (MVUE)": ("mvue", mvue_moments),
        "Algorithm 4 (OL, Signal DP)": ("ol_signal", ol_signal_moments),
        "Algorithm 5 (OL, Network DP)": ("ol_network", ol_network_moments),
    }
    rows, bound_rows, gap = [], [], 0.0
    for label, (algorithm, moment) in cases.items():
        online = algorithm != "mvue"
        k = int(n_runs) * (1 if online else int(mvue_factor))
        signal = np.zeros((n, k)) if online else rng.normal(0.0, sigma, size=(n, k))
        noise = np.zeros((n, k)) if online else rng.laplace(0.0, scale, size=(n, k))
        m = np.zeros(k) if online else signal.mean(axis=0)
        max_stat = np.abs(signal).max(
            axis=0
        )  # M_n of each run's own statistics (Theorem 3.1 conditions on them)
        noise_mean = noise.mean(axis=0)
        for t in range(1, T + 1):
            xi_t = rng.normal(0.0, sigma, size=(n, k)) if online else None
            d_t = rng.laplace(0.0, scale, size=(n, k)) if online else None
            signal = step(algorithm, W, signal, xi_t, t)  # type: ignore[arg-type]
            noise = step(algorithm, W, noise, d_t, t)  # type: ignore[arg-type]
            if online:
                noise_mean += (d_t.mean(axis=0) - noise_mean) / t  # type: ignore[union-attr]
        gap = max(gap, float(np.abs(noise.mean(axis=0) - noise_mean).max()))
        cop2 = np.sum(noise**2, axis=0)
        cod2 = np.sum((signal - m) ** 2, axis=0)
        te = np.linalg.norm(signal + noise - m, axis=0)
        per_v, per_s2 = moment(eig, T)
        for quantity, sample, exact in (("‖ν−μ‖²", cop2, V * per_v), ("‖μ−𝟙m‖²", cod2, s2 * per_s2)):
            se = float(sample.std(ddof=1) / np.sqrt(sample.size))
            rows.append({"algorithm": label, "quantity": quantity, "exact": exact,
                         "monte_carlo": float(sample.mean()), "se": se})  # fmt: skip
        if online:
            theorem = theorem41_bound if algorithm == "ol_signal" else theorem42_bound
            bound = theorem(T, n, beta, s2, n * T * V)
        else:
            # E[TE | ξ] ≤ B(M_n(ξ)) for every run, so the mean error is at most the mean of the runs' bounds
            bound = float(np.mean([theorem31_bound(T, n, beta, n * V, float(m_n)) for m_n in max_stat]))
        bound_rows.append({"case": label, "error": float(te.mean()), "bound": bound})
    return pd.DataFrame(rows), pd.DataFrame(bound_rows), gap


def ol_signal_rms_paths(
    data: EstimationData,
    epsilon: float,
    rng: np.random.Generator,
    *,
    delta: float,
    calibration: Calibration,
    n_data: int,
    horizon: int | None = None,
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """Root mean square, over ``n_data`` fresh draws of the signals, of Algorithm 4's error against ``m_θ``
    without and with Signal-DP noise, at every round.

    Each draw takes new signals ``log s ~ N(θ, σ²)`` (the dataset's law) on the dataset's network, and
    Laplace noise at the smooth-sensitivity scales of those signals
    (:func:`~dpnet.estimation.privacy.smooth_scales`); the draws run side by side as columns. A single
    sample path's log–log slope scatters about the exact one (the slow modes carry few degrees of
    freedom); the root mean square over draws follows the exact second moments.

    Returns
    -------
    times, without, with_dp
        Rounds ``1..T`` and the two root-mean-square errors at each.
    """
    T = data.horizon if horizon is None else int(horizon)
    if n_data < 2 or T < 1:
        raise ParameterError(f"n_data ≥ 2 and horizon ≥ 1 needed (got {n_data}, {horizon})")
    W = sparse.csr_array(data.weights, dtype=float)
    plain = np.zeros((data.n, n_data))
    noisy = np.zeros((data.n, n_data))
    without, with_dp = np.empty(T), np.empty(T)
    for t in range(1, T + 1):
        xi = rng.normal(data.theta, data.sigma, size=(data.n, n_data))
        scale = smooth_scales("signal", np.exp(xi), epsilon, delta=delta, calibration=calibration)
        plain = step("ol_signal", W, plain, xi, t)
        noisy = step("ol_signal", W, noisy, xi + rng.laplace(0.0, 1.0, size=xi.shape) * scale, t)
        without[t - 1] = np.sqrt(np.mean(np.sum((plain - data.theta) ** 2, axis=0)))
        with_dp[t - 1] = np.sqrt(np.mean(np.sum((noisy - data.theta) ** 2, axis=0)))
    return np.arange(1, T + 1, dtype=float), without, with_dp
