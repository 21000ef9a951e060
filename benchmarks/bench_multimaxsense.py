"""Multi-MaxSense as Fig. 3 describes it: E6's simulator against the one it replaced, printed.

:func:`dpnet.recommender.multi_maxsense_scores_per_user` draws only the items of each user's chosen blocks
(two uniforms each) and then deals every cluster's items to the users at once; the simulator it replaced
(:func:`followed_every_item`, kept here) shuffled all ``N`` items of every user. Both are exact in
distribution. This prints, asserting nothing:

- ``python benchmarks/bench_multimaxsense.py`` (or ``make bench``): one draw of each at E6's two
  per-user settings (M-asym, N = 100, w = 32), at their predicted U_90, and the speed-up (seconds);
- ``--moments RUNS``: the mean and variance of every item's score and of every cluster's total over RUNS
  draws of each simulator, with their differences in standard errors, at E6's settings and at a small
  case with blocks of two sizes and two user types (minutes with RUNS = 400: the old simulator is slow);
- ``--e6 new|old``: Chapter 7's E6 (``multi_maxsense``) alone, full mode, one process, with the new or
  the old simulator; time it from outside (the old one takes about two minutes).
"""

from __future__ import annotations

import argparse
import math
import os
import time
from collections.abc import Callable

os.environ.setdefault("DPNET_JOBS", "1")
os.environ.setdefault("DPNET_PROGRESS", "0")

import numpy as np
from numpy.typing import NDArray

from dpnet import recommender as rc
from dpnet.recommender import simulate
from dpnet.recommender.ldp import rr_bits

#: Two of E6's per-user settings: (ε, Q) on M-asym with N = 100, w = 32, θ = 1.
E6_CASES = ((4.0, 4), (8.0, 8))
#: The small case: two user types, blocks of 4 and 5 items (N = 22, w = 5, θ = 1: m = 5), Q = 2, ε = 2.
SMALL_MODEL = rc.BlockModel((0.6, 0.4), (0.5, 0.5), ((0.9, 0.2), (0.3, 0.7)), 22, 5)
SMALL_EPS, SMALL_Q, SMALL_USERS = 2.0, 2, 400


def followed_every_item(
    model: rc.BlockModel, labels: NDArray[np.int64], n_users: int, eps: float, rng: np.random.Generator,
    *, theta: float = 1.0, n_bits: int = 1,
) -> NDArray[np.int64]:  # fmt: skip
    """The simulator E6 used before: every user's blocks from a shuffle of all ``N`` items (``O(U N)``)."""
    n, w, b = model.n_items, model.w, model.like()
    blocks = math.floor(w / theta)
    scores = np.zeros(n, dtype=np.int64)
    block_of_rank = np.arange(n) * blocks // n
    rated_of_rank = np.arange(n) < w
    for size in simulate._chunks(n_users, 4 * n):
        block = rng.permuted(np.broadcast_to(block_of_rank, (size, n)), axis=1)
        chosen = rng.random((size, blocks)).argsort(axis=1)[:, :n_bits]
        k = rng.choice(model.K, p=model.alpha, size=size)
        rated = rng.permuted(np.broadcast_to(rated_of_rank, (size, n)), axis=1)
        liked = rated & (rng.random((size, n)) < b[k][:, labels])
        rows = np.arange(size)[:, None]
        holds_liked = np.zeros((size, blocks + 1), dtype=bool)  # column `blocks`: items not liked
        holds_liked[rows, np.where(liked, block, blocks)] = True
        released = np.zeros((size, blocks), dtype=bool)
        for q in range(n_bits):
            released[rows[:, 0], chosen[:, q]] = rr_bits(
                holds_liked[rows[:, 0], chosen[:, q]], eps / n_bits, rng
            )
        scores += released[rows, block].sum(axis=0)
    return scores


SIMULATORS: dict[str, Callable[..., NDArray[np.int64]]] = {
    "new": rc.multi_maxsense_scores_per_user,
    "old": followed_every_item,
}


def cases() -> list[tuple[str, rc.BlockModel, NDArray[np.int64], int, float, int]]:
    """(name, model, labels, U, ε, Q): E6's two settings at their predicted U_90, and the small case."""
    out = []
    for eps, q in E6_CASES:
        model = rc.m_asym(100, 32)
        users = round(rc.predicted_u(model, eps, n_bits=q))
        labels = rc.item_labels(model, np.random.default_rng(q))
        out.append((f"E6 ε = {eps:g}, Q = {q}", model, labels, users, eps, q))
    labels = rc.item_labels(SMALL_MODEL, np.random.default_rng(0))
    out.append(("small (K = 2, blocks 4/5)", SMALL_MODEL, labels, SMALL_USERS, SMALL_EPS, SMALL_Q))
    return out


def speed() -> None:
    print("One draw of Multi-MaxSense's scores (Fig. 3), median of 5 (seconds)")
    print(f"{'case':<28} {'U':>7} {'old':>8} {'new':>8} {'speed-up':>9}")
    for name, model, labels, users, eps, q in cases():
        times = {}
        for key, func in SIMULATORS.items():
            rng, runs = np.random.default_rng(1), []
            for _ in range(5):
                start = time.perf_counter()
                func(model, labels, users, eps, rng, n_bits=q)
                runs.append(time.perf_counter() - start)
            times[key] = float(np.median(runs))
        ratio = times["old"] / times["new"]
        print(f"{name:<28} {users:>7} {times['old']:>8.4f} {times['new']:>8.4f} {ratio:>8.1f}×")


def moments(runs: int) -> None:
    """Means and variances of the scores of both simulators, their differences in standard errors."""
    print(f"Scores of the new and the old simulator, {runs} draws each: differences in standard errors")
    for name, model, labels, users, eps, q in cases():
        draws = {
            key: np.stack([func(model, labels, users, eps, rng, n_bits=q) for _ in range(runs)]).astype(float)
            for key, func, rng in (
                (k, f, np.random.default_rng(seed)) for seed, (k, f) in enumerate(SIMULATORS.items())
            )
        }
        print(f"\n{name}, U = {users}")
        for c in range(model.L):
            new, old = (d[:, labels == c].sum(axis=1) for d in draws.values())
            print("  " + _compare(f"cluster {c} total", new, old))
        z_mean, z_var = _item_z(draws["new"], draws["old"])
        print(
            f"  per item ({model.n_items}): |z| of the means max {np.max(np.abs(z_mean)):.2f}, "
            f"{np.mean(np.abs(z_mean) > 2):.0%} above 2; of the variances max {np.max(np.abs(z_var)):.2f}, "
            f"{np.mean(np.abs(z_var) > 2):.0%} above 2"
        )


def _se_var(x: NDArray[np.float64]) -> float:
    """Standard error of the sample variance, ``sqrt((m₄ − s⁴)/n)``."""
    centred = x - x.mean()
    return float(math.sqrt(max(np.mean(centred**4) - np.var(centred) ** 2, 0.0) / x.size))


def _compare(label: str, new: NDArray[np.float64], old: NDArray[np.float64]) -> str:
    n = new.size
    z_mean = (new.mean() - old.mean()) / math.sqrt(new.var(ddof=1) / n + old.var(ddof=1) / n)
    z_var = (new.var(ddof=1) - old.var(ddof=1)) / math.hypot(_se_var(new), _se_var(old))
    return (
        f"{label:<16} mean new {new.mean():10.2f} old {old.mean():10.2f} (z = {z_mean:+.2f});"
        f" variance new {new.var(ddof=1):10.2f} old {old.var(ddof=1):10.2f} (z = {z_var:+.2f})"
    )


def _item_z(new: NDArray[np.float64], old: NDArray[np.float64]) -> tuple[NDArray, NDArray]:
    n = new.shape[0]
    z_mean = (new.mean(0) - old.mean(0)) / np.sqrt(new.var(0, ddof=1) / n + old.var(0, ddof=1) / n)
    se = np.array([math.hypot(_se_var(a), _se_var(b)) for a, b in zip(new.T, old.T, strict=True)])
    return z_mean, (new.var(0, ddof=1) - old.var(0, ddof=1)) / se


def e6(which: str) -> None:
    """Chapter 7's E6 alone, full mode, with the new or the old per-user simulator."""
    from dpnet import params
    from dpnet.chapters import recommender_maxsense as ch
    from dpnet.recommender import experiments

    experiments.multi_maxsense_scores_per_user = SIMULATORS[which]  # type: ignore[assignment]
    P = params.resolve(ch.SCHEMA, {"mode": "full"})
    start = time.perf_counter()
    out = ch.multi_maxsense(P)
    print(f"E6 ({which} simulator): {time.perf_counter() - start:.1f} s")
    table = out.table
    print(table[table["U_90 per user (Fig. 3)"].notna()].to_string())


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moments", type=int, metavar="RUNS", help="compare the scores' moments")
    parser.add_argument("--e6", choices=SIMULATORS, help="run Chapter 7's E6 alone, full mode")
    args = parser.parse_args()
    if args.e6:
        e6(args.e6)
    elif args.moments:
        moments(args.moments)
    else:
        speed()
