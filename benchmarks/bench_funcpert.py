"""Speed of Chapter 8 (functional-perturbation), printed, not asserted.

The book's target: full mode under 2 minutes on one core. The cost is the projection onto S (a
least-distance QP per agent and draw) and the minimisation of the perturbed sum; this prints both for
the 1-D and 2-D problems, what building the minimiser's grid table would add to every call without its
cache, and the time of one (q, ε) cell of the trade-off at the full mode's 100 draws.

Run: ``python benchmarks/bench_funcpert.py`` (or ``make bench``).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from dpnet import funcpert as fp
from dpnet.funcpert.solve import _grid_table


def per_call(func: Callable[..., object], *args: object, repeats: int = 20) -> float:
    start = time.perf_counter()
    for _ in range(repeats):
        func(*args)
    return (time.perf_counter() - start) / repeats


def main() -> None:
    rng = np.random.default_rng(0)
    quad = fp.quadratic_problem(10, 20, np.random.default_rng(0))
    logit = fp.logistic_problem(10, 10, 10, np.random.default_rng(0))
    for name, prob in (("1-D quadratic, K = 20", quad), ("2-D logistic, K = 66", logit)):
        noisy = prob.coefficients[0] + fp.perturbation(prob.basis.K, 1.0, 2.0, 1.0, rng)
        rows = prob.S.A.shape[0]
        proj = per_call(fp.project, noisy, prob.S)
        argmin = per_call(fp.poly_argmin, prob.basis, prob.coefficients.sum(0), prob.lower, prob.upper)
        box = (tuple(prob.lower), tuple(prob.upper), 2001 if prob.dim == 1 else 61)
        table = per_call(_grid_table.__wrapped__, prob.basis, *box, repeats=5)
        print(
            f"{name} ({rows} constraint rows): projection {proj * 1e3:.2f} ms, argmin {argmin * 1e3:.2f} ms "
            f"(its grid table, cached, would cost {table * 1e3:.2f} ms a call)"
        )
    start = time.perf_counter()
    fp.tradeoff_errors((quad, 2.0, 1.0, 100), rng)
    print(f"one trade-off cell, 1-D, 100 draws × 10 agents at ε = 1: {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
