"""Speed and accuracy of the projection onto S (Chapter 8): the library's quadprog against other solvers.

``dpnet.funcpert.project`` solves the least-distance QP ``min ½‖c − ĉ‖² s.t. A c ≤ u`` with quadprog (Goldfarb
and Idnani's dual active-set method), on every row of ``A`` up to ``regular.ALL_ROWS`` = 2000 rows, and above
on the violated and near-active rows, adding rows found violated until none remains (the 1-D problem has 404
rows, the 2-D one 7200; quadprog on the other row set is the slower on each). These measurements chose it.
Lawson and Hanson's reduction to non-negative least squares (``scipy.optimize.nnls``), the book's first
solver, kept here as the library had it (with its active-row loop), takes about 6 times as long per projection
and solves less exactly. DAQP (dual active set) is faster but cycles on about one input in two thousand (exit
flag −2 on degenerate 1-D inputs: all recorded cases, ``--n 6000``, show it), so it would need quadprog as a
fallback. Clarabel (interior point) is 100 to 400 times slower and about 1e-8 off the solution; OSQP (ADMM,
polished) mostly finds no solution within 2 s. quadprog and DAQP are each given the full ``A`` or the
active-row loop. Every solver runs on the same cases, one after the other per case, so that a change of load
on the machine hits them alike.

The cases are infeasible ``ĉ`` of the chapter's quick mode: by default the agents' coefficients plus the
chapter's noise at its (q, ε) grids (E3 in 1-D, E4 in 2-D), regenerated; ``--cases FILE`` loads cases
recorded from the chapter's own run, which ``--record FILE`` makes (the quick experiments E1–E7 with
``project`` recorded). Per solver and problem it prints the median and total time per projection (failed
attempts included), the largest violation ``max(A c − u)/max|u|`` (``project`` accepts ``1e-10``), the
largest ``‖c − c_ref‖/‖ĉ − c_ref‖`` to the library's solution ``c_ref``, the failures (errors, non-optimal
exits, results over the tolerance), and NNLS's total time over ``project``'s. DAQP, Clarabel and OSQP are
not dependencies of the book; those not installed are listed and skipped (``pip install --target DIR daqp
clarabel osqp qpsolvers``, then ``PYTHONPATH=DIR``).

Run: ``python benchmarks/bench_projection.py [--n 60] [--slow 1] [--cases FILE | --record FILE]``
(single-threaded BLAS advised: ``OPENBLAS_NUM_THREADS=1``).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.metadata
import importlib.util
import os
import pickle
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import nnls

os.environ.setdefault("DPNET_PROGRESS", "0")
os.environ.setdefault("DPNET_JOBS", "1")

from dpnet import funcpert as fp
from dpnet import params
from dpnet.chapters import functional_perturbation as ch
from dpnet.funcpert import private, regular

TOL = 1e-10  # project's default: violations up to tol · max(1, max|u|) are accepted
DAQP_TOL = 1e-12  # DAQP's primal tolerance on the rows scaled to unit norm (its default is 1e-6)
ALL_ROWS = regular.ALL_ROWS  # project solves on every row up to this many rows, on the active ones above
VERSIONS = ("quadprog", "scipy", "daqp", "clarabel", "osqp", "qpsolvers")  # scipy: NNLS


# --------------------------------------------------------------------------------------------------
# the cases
# --------------------------------------------------------------------------------------------------


@dataclass
class Kind:
    """One problem of the chapter: its constraints and a sample of infeasible inputs."""

    name: str
    A: NDArray[np.float64]
    u: NDArray[np.float64]
    c_hat: NDArray[np.float64]
    origin: str = ""
    prepared: dict[str, object] = field(default_factory=dict)

    @property
    def S(self) -> regular.RegularSet:
        return regular.RegularSet(self.A, self.u, 1.0, 1.0, 1.0)  # α, β, ū unused by project


def kind_name(problem: fp.Problem) -> str:
    return f"{problem.dim}-D {problem.name}, K = {problem.basis.K}, {problem.S.A.shape[0]} rows"


def infeasible(S: regular.RegularSet, c: NDArray) -> NDArray[np.bool_]:
    return S.violation(c) > TOL * max(1.0, float(np.max(np.abs(S.u))))


def regenerate(n: int, seed: int = 0) -> list[Kind]:
    """The agents' coefficients plus the chapter's noise (1-D: every (q, ε) of E3; 2-D: q = 2, E4's ε)."""
    P = params.resolve(ch.SCHEMA, {"mode": "quick"})
    setup = ch.problems(P)
    rng = np.random.default_rng(seed)
    grids = (
        (setup.quadratic, [(q, e) for q in P.q for e in P.eps_values]),
        (setup.logistic, [(2.0, e) for e in ch.EPS_2D]),
    )
    kinds = []
    for problem, grid in grids:
        draws = np.vstack(
            [
                problem.coefficients + fp.perturbation(problem.basis.K, e, q, q / 2, rng, problem.n_agents)
                for q, e in grid
                for _ in range(3)
            ]
        )
        draws = draws[infeasible(problem.S, draws)]
        pick = np.sort(rng.choice(len(draws), min(n, len(draws)), replace=False))
        kinds.append(Kind(kind_name(problem), problem.S.A, problem.S.u, draws[pick], "regenerated"))
    return kinds


def record(path: str) -> None:
    """Run the quick chapter's E1–E7 in this process with every call of ``project`` recorded."""
    original, calls = regular.project, []

    def recording(c_hat: NDArray, S: regular.RegularSet, **kw: float) -> NDArray:
        calls.append((S, np.array(c_hat, dtype=float)))
        return original(c_hat, S, **kw)

    P = params.resolve(ch.SCHEMA, {"mode": "quick"})
    setup = ch.problems(P)
    names = {id(p.S): kind_name(p) for p in (setup.quadratic, setup.logistic)}
    with swapped(recording):
        e3, e6 = ch.tradeoff(P, setup), ch.message_perturbation(P, setup)
        ch.anatomy(P, setup), ch.case_study(P, setup), ch.distributed(P, setup)
        ch.record_level(P, setup, e3, e6)
    out = {}
    for S, c in calls:
        name = names.get(id(S), f"K = {S.A.shape[1]}, {S.A.shape[0]} rows")
        entry = out.setdefault(name, {"A": S.A, "u": S.u, "c_hat": [], "calls": 0})
        entry["calls"] += 1
        if infeasible(S, c):
            entry["c_hat"].append(c)
    with open(path, "wb") as f:
        pickle.dump({k: {**v, "c_hat": np.array(v["c_hat"])} for k, v in out.items()}, f)
    for name, v in out.items():
        print(f"recorded {name}: {v['calls']} calls, {len(v['c_hat'])} infeasible")


def load(path: str, n: int, seed: int = 0) -> list[Kind]:
    with open(path, "rb") as f:
        data = pickle.load(f)
    rng, kinds = np.random.default_rng(seed), []
    for name, v in data.items():
        c = np.asarray(v["c_hat"])
        pick = np.sort(rng.choice(len(c), min(n, len(c)), replace=False))
        kinds.append(Kind(name, np.asarray(v["A"]), np.asarray(v["u"]), c[pick], f"recorded ({path})"))
    return kinds


# --------------------------------------------------------------------------------------------------
# the solvers: each maps (ĉ, kind) to c, raising on failure
# --------------------------------------------------------------------------------------------------


class SolverFailed(RuntimeError):
    pass


@contextlib.contextmanager
def swapped(project: Callable) -> Iterator[None]:
    """Replace ``project`` where the library imported it, for a while."""
    saved = (regular.project, private.project, fp.project)
    try:
        regular.project = private.project = fp.project = project
        yield
    finally:
        regular.project, private.project, fp.project = saved


def unit_rows(A: NDArray, u: NDArray) -> tuple[NDArray, NDArray]:
    norms = np.linalg.norm(A, axis=1)
    return A / norms[:, None], u / norms


LeastDistance = Callable[[NDArray, NDArray, NDArray], NDArray]  # (ĉ, A, u) ↦ argmin ½‖c − ĉ‖², A c ≤ u


def nnls_ld(c_hat: NDArray, A: NDArray, u: NDArray) -> NDArray:
    """Lawson and Hanson's reduction to NNLS, as the library had it before it switched to quadprog."""
    # Lawson–Hanson: min ½‖z‖² s.t. G z ≥ h with z = c − ĉ, G = −A, h = A ĉ − u
    g, h = -A, A @ c_hat - u
    e = np.vstack([g.T, h[None, :]])
    f = np.zeros(e.shape[0])
    f[-1] = 1.0
    lam, _ = nnls(e, f, maxiter=50 * e.shape[1])
    r = e @ lam - f
    if abs(r[-1]) < 1e-10:  # the residual vanishes only when the constraints are inconsistent
        raise SolverFailed("the constraints are infeasible")
    return c_hat - r[:-1] / r[-1]


def active_rows(least_distance: LeastDistance, *, margin: float = 0.1) -> Callable[[NDArray, Kind], NDArray]:
    """The library's former ``project``: ``least_distance`` on the violated and near-active rows (those
    within ``margin · max|u|`` of their bound), rows found violated being added until none remains, the
    result polished by up to two more passes from it. ``project`` still uses this loop above ``ALL_ROWS``."""

    def solve(c_hat: NDArray, kind: Kind) -> NDArray:
        A, u = kind.A, kind.u
        scale = TOL * max(1.0, float(np.max(np.abs(u))))
        out = np.asarray(c_hat, dtype=float)
        if np.all(u - A @ out >= -scale):
            return out.copy()
        for _ in range(3):
            active = u - A @ out < margin * float(np.max(np.abs(u)))
            start = out
            while True:
                out = least_distance(start, A[active], u[active])
                violated = (A @ out - u > scale) & ~active
                if not violated.any():
                    break
                active |= violated
            if np.all(A @ out - u <= scale):
                return out
        raise SolverFailed("no convergence in 3 passes")

    return solve


def quadprog_ld(c_hat: NDArray, A: NDArray, u: NDArray) -> NDArray:
    import quadprog

    # min ½cᵀc − ĉᵀc s.t. (−Aᵀ)ᵀc ≥ −u; G = I passed as its own inverse factor
    return quadprog.solve_qp(np.eye(c_hat.size), c_hat, -A.T, -u, 0, True)[0]


def quadprog_full(c_hat: NDArray, kind: Kind) -> NDArray:
    import quadprog

    if "quadprog" not in kind.prepared:  # once per S, as a cached attribute of S would
        kind.prepared["quadprog"] = (np.eye(kind.A.shape[1]), np.ascontiguousarray(-kind.A.T), -kind.u)
    eye, C, b = kind.prepared["quadprog"]
    return quadprog.solve_qp(eye, c_hat, C, b, 0, True)[0]


def daqp_ld(c_hat: NDArray, A: NDArray, u: NDArray, *, scale: bool = True, **settings: float) -> NDArray:
    import daqp

    if scale:
        A, u = unit_rows(A, u)
    x, _, flag, _ = daqp.solve(np.eye(c_hat.size), -c_hat, A, u, **settings)
    if flag != 1:
        raise SolverFailed(f"DAQP exit flag {flag}")
    return x


def daqp_full(c_hat: NDArray, kind: Kind) -> NDArray:
    import daqp

    if "daqp" not in kind.prepared:
        kind.prepared["daqp"] = (np.eye(kind.A.shape[1]), *unit_rows(kind.A, kind.u))
    eye, A, u = kind.prepared["daqp"]
    x, _, flag, _ = daqp.solve(eye, -c_hat, A, u, primal_tol=DAQP_TOL)
    if flag != 1:
        raise SolverFailed(f"DAQP exit flag {flag}")
    return x


def daqp_then_quadprog_ld(c_hat: NDArray, A: NDArray, u: NDArray) -> NDArray:
    try:
        return daqp_ld(c_hat, A, u, primal_tol=DAQP_TOL)
    except SolverFailed:  # DAQP cycles on a few degenerate 1-D inputs (about 1 in 2000)
        return quadprog_ld(c_hat, A, u)


def combined(c_hat: NDArray, kind: Kind) -> NDArray:
    """DAQP, quadprog where it fails, on ``project``'s row sets (all rows up to ``ALL_ROWS``)."""
    if kind.A.shape[0] > ALL_ROWS:
        return active_rows(daqp_then_quadprog_ld)(c_hat, kind)
    try:
        return daqp_full(c_hat, kind)
    except SolverFailed:
        return quadprog_full(c_hat, kind)


def qpsolvers_full(solver: str, **options: object) -> Callable[[NDArray, Kind], NDArray]:
    def solve(c_hat: NDArray, kind: Kind) -> NDArray:
        import qpsolvers
        import scipy.sparse as sp

        if "sparse" not in kind.prepared:
            kind.prepared["sparse"] = (sp.identity(kind.A.shape[1], format="csc"), sp.csc_matrix(kind.A))
        P, G = kind.prepared["sparse"]
        x = qpsolvers.solve_qp(P, -c_hat, G, kind.u, solver=solver, **options)
        if x is None:
            raise SolverFailed(f"{solver} found no solution")
        return x

    return solve


def small(kind: Kind) -> bool:
    return kind.A.shape[0] <= ALL_ROWS


@dataclass(frozen=True)
class Solver:
    label: str
    needs: tuple[str, ...]
    solve: Callable[[NDArray, Kind], NDArray]
    slow: bool = False  # run on the first --slow cases of each problem only
    skip: Callable[[Kind], bool] | None = None  # on these problems it is what project does: not repeated


SOLVERS = (
    Solver("project (quadprog) = c_ref", (), lambda c, k: regular.project(c, k.S)),
    Solver("NNLS (Lawson–Hanson, the book's first solver)", (), active_rows(nnls_ld)),
    Solver("quadprog, full A", (), quadprog_full, skip=small),
    Solver("quadprog, active rows", (), active_rows(quadprog_ld), skip=lambda k: not small(k)),
    Solver("daqp, full A, unit rows, tol 1e-12", ("daqp",), daqp_full),
    Solver(
        "daqp, active rows, unit rows, tol 1e-12",
        ("daqp",),
        active_rows(lambda c, A, u: daqp_ld(c, A, u, primal_tol=DAQP_TOL)),
    ),
    Solver("daqp, full A, raw rows, defaults", ("daqp",), lambda c, k: daqp_ld(c, k.A, k.u, scale=False)),
    Solver(
        "daqp, full A, raw rows, tol 1e-12",
        ("daqp",),
        lambda c, k: daqp_ld(c, k.A, k.u, scale=False, primal_tol=DAQP_TOL),
    ),
    Solver("daqp, quadprog if it fails; project's row sets", ("daqp",), combined),
    Solver(
        "clarabel (qpsolvers), tol 1e-10, ≤ 5 s",
        ("clarabel", "qpsolvers"),
        qpsolvers_full("clarabel", tol_gap_abs=1e-10, tol_gap_rel=1e-10, tol_feas=1e-10, time_limit=5.0),
        slow=True,
    ),
    Solver(
        "osqp (qpsolvers), eps 1e-8, polished, ≤ 2 s",
        ("osqp", "qpsolvers"),
        qpsolvers_full("osqp", eps_abs=1e-8, eps_rel=1e-8, polishing=True, max_iter=50_000, time_limit=2.0),
        slow=True,
    ),
)


# --------------------------------------------------------------------------------------------------
# the measurement
# --------------------------------------------------------------------------------------------------


def installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def bench(kind: Kind, solvers: list[Solver], slow: int) -> dict[str, dict[str, object]]:
    solvers = [s for s in solvers if s.skip is None or not s.skip(kind)]
    scale = float(np.max(np.abs(kind.u)))
    limit = TOL * max(1.0, scale) / scale
    stats = {
        s.label: {"times": [], "viol": [], "dist": [], "fail": 0, "over": 0, "why": set()} for s in solvers
    }
    for i, c_hat in enumerate(kind.c_hat):
        c_ref = None
        for s in solvers:
            if s.slow and i >= slow:
                continue
            st = stats[s.label]
            start = time.perf_counter()
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    c = np.asarray(s.solve(c_hat, kind), dtype=float)
            except Exception as exc:  # a failure is a figure here, and so is its time
                st["times"].append(time.perf_counter() - start)
                st["fail"] += 1
                st["why"].add(type(exc).__name__ + ": " + str(exc)[:60])
                continue
            st["times"].append(time.perf_counter() - start)
            c_ref = c if c_ref is None else c_ref  # the first solver is the library's
            viol = max(0.0, float(np.max(kind.A @ c - kind.u))) / scale
            st["viol"].append(viol)
            st["over"] += viol > limit
            st["dist"].append(float(np.linalg.norm(c - c_ref) / np.linalg.norm(c_hat - c_ref)))
    return stats


def report(kind: Kind, stats: dict[str, dict[str, object]]) -> None:
    print(f"\n{kind.name}: {len(kind.c_hat)} infeasible inputs, {kind.origin}")
    path = "every row" if small(kind) else "the active rows"
    print(f"(project solves on {path} here; quadprog on that row set is not repeated)")
    print("| solver | cases | median (ms) | total (s) | max viol/max|u| | max dist to c_ref | failures |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for label, st in stats.items():
        t, n = np.array(st["times"]), len(st["times"])  # failed attempts included
        med = f"{np.median(t) * 1e3:.3f}" if t.size else "—"
        viol = f"{max(st['viol']):.1e}" if st["viol"] else "—"
        dist = f"{max(st['dist']):.1e}" if st["dist"] else "—"
        fails = f"{st['fail']} errors, {st['over']} over tol"
        if st["why"]:
            fails += " (" + "; ".join(sorted(st["why"]))[:90] + ")"
        print(f"| {label} | {n} | {med} | {t.sum():.2f} | {viol} | {dist} | {fails} |")
    reference, *others = stats.items()
    clean = [(np.sum(st["times"]), label) for label, st in others
             if len(st["times"]) == len(kind.c_hat) and not st["fail"] and not st["over"]]  # fmt: skip
    if clean:
        total, label = min(clean)
        ours = np.sum(reference[1]["times"])
        print(f"fastest other, within tolerance, no failure: {label} ({total:.2f} s; project {ours:.2f} s)")
    nnls_times = stats.get("NNLS (Lawson–Hanson, the book's first solver)", {}).get("times")
    if nnls_times:
        ratio = np.sum(nnls_times) / np.sum(reference[1]["times"])
        print(f"NNLS takes {ratio:.1f} times project's total time")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=60, help="infeasible inputs per problem (default 60)")
    parser.add_argument("--slow", type=int, default=1, help="inputs for Clarabel and OSQP (default 1)")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--cases", help="cases recorded by --record")
    source.add_argument("--record", help="run the quick chapter, record its projections to this file")
    args = parser.parse_args()
    if args.record:
        record(args.record)
    path = args.cases or args.record
    kinds = load(path, args.n) if path else regenerate(args.n)
    solvers = [s for s in SOLVERS if all(installed(m) for m in s.needs)]
    missing = sorted({m for s in SOLVERS for m in s.needs if not installed(m)})
    print(
        f"project's tolerance: violation ≤ {TOL:g} · max(1, max|u|); Clarabel and OSQP on {args.slow} inputs"
    )
    found = [f"{m} {importlib.metadata.version(m)}" for m in VERSIONS if installed(m)]
    print(f"solvers: {', '.join(found)}")
    if missing:
        print(f"not installed, skipped: {', '.join(missing)}")
    for kind in kinds:
        report(kind, bench(kind, solvers, args.slow))


if __name__ == "__main__":
    main()
