"""Success curves: how often a scheme recovers the item clusters exactly, as the number of users grows.

A :class:`Setting` fixes the algorithm, the model and the privacy level; :func:`success_curves` runs
``trials`` independent recoveries at every number of users of a grid (through :func:`dpnet.sweep.sweep`,
every cell with its own child of a named stream, keyed by its position) and :func:`crossing` reads off
``U_90``, the number of users at which 90% of the runs recover every item.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import isotonic_regression

from dpnet.errors import ParameterError
from dpnet.recommender.cluster import kmeans_1d, misclassified, spectral_labels
from dpnet.recommender.ldp import eps_hat
from dpnet.recommender.model import BlockModel, delta_min, item_labels, predicted_u
from dpnet.recommender.simulate import (
    SKETCHES,
    maxsense_scores,
    maxsense_scores_per_user,
    maxsense_scores_subset,
    multi_maxsense_scores,
    multi_maxsense_scores_per_user,
    pairwise_matrix,
    pairwise_matrix_per_user,
)
from dpnet.sweep import Stream, sweep

__all__ = [
    "ALGORITHMS",
    "Setting",
    "adaptive_curves",
    "crossing",
    "maxsense_scale",
    "pairwise_scale",
    "predicted_grid",
    "record",
    "recover",
    "success_curves",
    "thresholds",
]

ALGORITHMS = ("pairwise", "maxsense", "multi-maxsense")
SIMULATORS = ("aggregate", "per-user", "subset")


@dataclass(frozen=True)
class Setting:
    """One experimental configuration.

    ``simulator``: ``"aggregate"`` (exact sufficient statistics, the default), ``"per-user"`` (every
    user simulated; Bernoulli ratings for MaxSense) or ``"subset"`` (every user rates exactly ``w``
    items, the model of §2.1: MaxSense in aggregate,
    :func:`~dpnet.recommender.simulate.maxsense_scores_subset`; Multi-MaxSense user by user).
    """

    algorithm: str
    model: BlockModel
    eps: float
    theta: float = 1.0
    n_bits: int = 1
    sketch: str = "agree"
    support_known: bool = False
    simulator: str = "aggregate"

    def __post_init__(self) -> None:
        if self.algorithm not in ALGORITHMS:
            raise ParameterError(f"algorithm must be one of {', '.join(ALGORITHMS)} (got {self.algorithm!r})")
        if self.simulator not in SIMULATORS:
            raise ParameterError(f"simulator must be one of {', '.join(SIMULATORS)} (got {self.simulator!r})")
        if self.sketch not in SKETCHES:
            raise ParameterError(f"sketch must be one of {', '.join(SKETCHES)} (got {self.sketch!r})")
        if self.n_bits != 1 and self.algorithm != "multi-maxsense":
            raise ParameterError("n_bits > 1 is Multi-MaxSense only")

    def but(self, **changes: object) -> Setting:
        """A copy with some fields changed."""
        return replace(self, **changes)  # type: ignore[arg-type]

    def predicted_u90(self) -> float:
        """MaxSense's Gaussian prediction of this setting's ``U_90``.

        :func:`~dpnet.recommender.model.predicted_u` at the setting's ``theta`` and ``n_bits``;
        Pairwise-Preference has none.
        """
        if self.algorithm == "pairwise":
            raise ParameterError("the Gaussian prediction of U_90 is MaxSense's, not Pairwise-Preference's")
        return predicted_u(self.model, self.eps, theta=self.theta, n_bits=self.n_bits)


def recover(setting: Setting, n_users: int, rng: np.random.Generator) -> int:
    """One run: draw the item clusters and the users' releases, cluster, count misclassified items."""
    model = setting.model
    labels = item_labels(model, rng)
    if setting.algorithm == "pairwise":
        build = pairwise_matrix if setting.simulator == "aggregate" else pairwise_matrix_per_user
        a = build(
            model,
            labels,
            n_users,
            setting.eps,
            rng,
            sketch=setting.sketch,
            support_known=setting.support_known,
        )
        return misclassified(labels, spectral_labels(a, model.L, rng))
    if setting.algorithm == "maxsense":
        if setting.simulator == "aggregate":
            scores = maxsense_scores(model, labels, n_users, setting.eps, rng, theta=setting.theta)
        elif setting.simulator == "subset":
            scores = maxsense_scores_subset(model, labels, n_users, setting.eps, rng, theta=setting.theta)
        else:
            scores = maxsense_scores_per_user(model, labels, n_users, setting.eps, rng, theta=setting.theta)
    else:
        multi = multi_maxsense_scores if setting.simulator == "aggregate" else multi_maxsense_scores_per_user
        scores = multi(model, labels, n_users, setting.eps, rng, theta=setting.theta, n_bits=setting.n_bits)
    return misclassified(labels, kmeans_1d(scores, model.L))


def _cell(task: tuple[int, int, Setting, int, int], rng: np.random.Generator) -> NDArray[np.int64]:
    _, _, setting, n_users, trials = task
    return np.array([recover(setting, n_users, rng) for _ in range(trials)], dtype=np.int64)


def _cell_key(task: tuple[int, int, Setting, int, int]) -> tuple[int, int]:
    return task[0], task[1]


def success_curves(
    settings: Sequence[Setting],
    grids: Sequence[ArrayLike],
    *,
    trials: int,
    stream: Stream,
    desc: str = "",
) -> pd.DataFrame:
    """Run ``trials`` recoveries at every ``U`` of ``grids[s]`` for every setting ``s``.

    Parameters
    ----------
    settings
        The configurations, in order.
    grids
        One grid of user counts per setting (rounded to integers).
    trials
        Independent recoveries per cell.
    stream
        The sweep's named stream: cell ``(s, j)`` draws from ``stream.child(s, j)``, so its draws
        depend only on its position, never on the number of worker processes.
    desc
        Label of the progress bar (default: the stream's name).

    Returns
    -------
    pandas.DataFrame
        One row per cell: ``setting`` (index), ``U``, ``success`` (fraction with no error), ``error``
        (mean misclassified fraction) and ``trials``.
    """
    if len(settings) != len(grids) or trials < 1:
        raise ParameterError("give one grid of user counts per setting, and trials ≥ 1")
    tasks = [
        (s, j, setting, round(float(n_users)), trials)
        for s, (setting, grid) in enumerate(zip(settings, grids, strict=True))
        for j, n_users in enumerate(np.asarray(grid, dtype=float))
    ]
    errors = sweep(_cell, tasks, stream, key=_cell_key, desc=desc)
    return pd.DataFrame({
        "setting": [t[0] for t in tasks],
        "U": [t[3] for t in tasks],
        "success": [float(np.mean(errors[t] == 0)) for t in tasks],
        "error": [float(np.mean(errors[t])) / t[2].model.n_items for t in tasks],
        "trials": trials,
    })  # fmt: skip


def adaptive_curves(
    settings: Sequence[Setting],
    ranges: Sequence[tuple[float, float]],
    *,
    points: int,
    rounds: int,
    trials: int,
    stream: Stream,
    level: float = 0.9,
    desc: str = "",
) -> pd.DataFrame:
    """Success curves refined where they cross ``level``: each setting's ``U_90`` found adaptively.

    Every setting is first run at ``points`` user counts spread geometrically over its range ``(lo,
    hi)``. Then, for ``rounds`` rounds, each setting whose curve (made non-decreasing, as in
    :func:`crossing`) crosses ``level`` between two neighbouring counts is run once more, at their
    geometric midpoint, so that the crossing is bracketed ``2^rounds`` times more finely than by the
    first grid at the cost of ``rounds`` points. A setting whose range does not bracket the crossing is
    not refined (its ``U_90`` stays undefined).

    The counts lie on a lattice of ``(points − 1)·2^rounds + 1`` geometric steps; cell ``(s, j)``, the
    ``j``-th lattice count of setting ``s``, draws from ``stream.child(s, j)``, and which cells run depends
    only on the results before them, so the curves are identical for any number of workers. Arguments
    and result as for :func:`success_curves`.
    """
    if len(settings) != len(ranges) or points < 2 or rounds < 0 or trials < 1:
        raise ParameterError("give one (lo, hi) range per setting, points ≥ 2, rounds ≥ 0 and trials ≥ 1")
    steps = (points - 1) * 2**rounds
    lattice = [np.geomspace(lo, hi, steps + 1) for lo, hi in ranges]
    done: dict[tuple[int, int], NDArray[np.int64]] = {}
    todo = [(s, j) for s in range(len(settings)) for j in range(0, steps + 1, 2**rounds)]
    for _ in range(rounds + 1):
        tasks = [(s, j, settings[s], round(float(lattice[s][j])), trials) for s, j in todo]
        errors = sweep(_cell, tasks, stream, key=_cell_key, desc=desc)
        done.update({(t[0], t[1]): errors[t] for t in tasks})
        todo = [(s, mid) for s in range(len(settings)) if (mid := _midpoint(done, s, level)) is not None]
    cells = sorted(done)
    return pd.DataFrame({
        "setting": [s for s, _ in cells],
        "U": [round(float(lattice[s][j])) for s, j in cells],
        "success": [float(np.mean(done[c] == 0)) for c in cells],
        "error": [float(np.mean(done[c])) / settings[c[0]].model.n_items for c in cells],
        "trials": trials,
    })  # fmt: skip


def _midpoint(done: dict[tuple[int, int], NDArray[np.int64]], s: int, level: float) -> int | None:
    """The lattice index halfway across setting ``s``'s crossing of ``level``, if there is one to add."""
    js = sorted(j for t, j in done if t == s)
    rate = isotonic_regression([float(np.mean(done[(s, j)] == 0)) for j in js]).x
    if rate[0] >= level or rate[-1] < level:
        return None
    k = int(np.argmax(rate >= level))
    low, high = js[k - 1], js[k]
    return (low + high) // 2 if high - low >= 2 else None


def predicted_grid(setting: Setting, lo: float, hi: float, num: int) -> NDArray[np.float64]:
    """``num`` users from ``lo`` to ``hi`` times :meth:`Setting.predicted_u90`, geometrically spaced.

    The grid of a measurement, placed where the transition is expected; the measurement itself does
    not use the prediction.
    """
    return setting.predicted_u90() * np.geomspace(lo, hi, num)


def crossing(users: ArrayLike, rate: ArrayLike, level: float = 0.9) -> float:
    """Users at which a success rate reaches ``level``: ``nan`` if the grid does not bracket it.

    The rates are first made non-decreasing by isotonic regression (pooling Monte Carlo wiggles), then
    interpolated linearly in ``log U`` between the last grid point below ``level`` and the next.
    """
    u, r = np.asarray(users, dtype=float), np.asarray(rate, dtype=float)
    order = np.argsort(u)
    u, r = u[order], isotonic_regression(r[order]).x
    if r[0] >= level or r[-1] < level:
        return math.nan
    j = int(np.argmax(r >= level))
    t = (level - r[j - 1]) / (r[j] - r[j - 1])
    return float(np.exp(np.log(u[j - 1]) + t * (np.log(u[j]) - np.log(u[j - 1]))))


def pairwise_scale(n_items: int, eps: float) -> float:
    """Pairwise-Preference's measured scale ``N ln N / ε̂²`` (the rich regime's ``N log N``, with ε̂²)."""
    return n_items * math.log(n_items) / eps_hat(eps) ** 2


def maxsense_scale(model: BlockModel, eps: float, theta: float = 1.0) -> float:
    """MaxSense's scale of Thm 5.1, ``N² ln N / (w ε̂² δ_min²)`` (``inf`` when ``δ_min = 0``)."""
    delta = delta_min(model, theta)
    if delta == 0.0:
        return math.inf
    return model.n_items**2 * math.log(model.n_items) / (model.w * eps_hat(eps) ** 2 * delta**2)


def thresholds(curves: pd.DataFrame, level: float = 0.9, error: float | None = None) -> NDArray[np.float64]:
    """``U`` at which each setting's curve reaches ``level`` success (``nan`` if not bracketed).

    With ``error``, the ``U`` at which the mean misclassified fraction falls to ``error`` instead.
    """
    out = []
    for _, cell in curves.groupby("setting", sort=True):
        rate = cell["success"] if error is None else 1.0 - cell["error"]
        out.append(crossing(cell["U"], rate, level if error is None else 1.0 - error))
    return np.asarray(out)


def record(setting: Setting, model_name: str, value: float, name: str = "u90") -> dict[str, object]:
    """A metrics record of one setting: ``algorithm, model, N, w, eps, Q, theta, sketch, support_known,
    simulator`` and ``<name>`` (ε = ∞ as ``"inf"``, nan as ``None``)."""
    eps: object = "inf" if math.isinf(setting.eps) else setting.eps
    return {"algorithm": setting.algorithm, "model": model_name, "N": setting.model.n_items,
            "w": setting.model.w, "eps": eps, "Q": setting.n_bits, "theta": setting.theta,
            "sketch": setting.sketch, "support_known": setting.support_known, "simulator": setting.simulator,
            name: None if not math.isfinite(value) else float(value)}  # fmt: skip
