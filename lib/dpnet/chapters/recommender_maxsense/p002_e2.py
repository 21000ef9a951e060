"""Paper 002, experiment E2 (the book's): exact mutual information of 1-bit sketches (Thm 4.3), against
Lemma 4.1's bound too, of MaxSense's sketch, and Lemma 4.7's error."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray

from dpnet import recommender as rc
from dpnet.chapters.recommender_maxsense._common import SMALL, loglog_axes
from dpnet.estimation import loglog_slope
from dpnet.params import Cost, Parameters
from dpnet.plotting import panel_row
from dpnet.recommender import exact
from dpnet.reference import recommender as ref
from dpnet.results import Check

#: E2: item counts of the enumeration, random query sets per N, and the MaxSense-sketch grids.
E2_N = range(4, 13)
E2_RANDOM_QUERIES = 200
E2_EPS, E2_N_SKETCH = 0.5, (50, 100, 200, 400, 800, 1600)
E2_LEMMA_N = (100, 1000, 10_000)
#: E2: the private sketches checked against Lemma 4.1 besides Thm 4.3's queries: instances (N, w), budgets,
#: and random queries per instance and budget.
E2_PRIVATE = ((8, 2), (8, 3))
E2_PRIVATE_EPS = (0.5, 2.0)
E2_PRIVATE_QUERIES = 20


def cost(values: Mapping[str, Any]) -> Cost:
    """E2's time and memory: a fixed enumeration and closed forms, a few seconds at most whatever the
    parameters (counted in the chapter's fixed seconds)."""
    return Cost()


@dataclass(frozen=True)
class Information:
    """E2: exact information of 1-bit sketches (Thm 4.3), of MaxSense's sketch, and Lemma 4.7's error."""

    one_bit: pd.DataFrame  # N, query, information, bound
    sketch_n: Mapping[int, NDArray[np.float64]]  # by w, over E2_N_SKETCH
    eps_grid: NDArray[np.float64]
    sketch_eps: NDArray[np.float64]
    doubling: float
    eps_ratio: float
    margin_410: float
    eps_slope: float
    lemma: pd.DataFrame
    lemma41: pd.DataFrame  # kind, N, w, ε, exact information, Lemma 4.1's bound
    checks: Mapping[str, list[Check]]
    #: E2 has no paper setting to leave: its sizes are the book's.
    paper_setting = True

    @property
    def random_queries(self) -> int:
        """How many random query sets were enumerated."""
        return int((self.one_bit["query"] == "random").sum())

    @property
    def lemma41_fraction(self) -> float:
        """The largest exact information over Lemma 4.1's bound, among the sketches carrying some."""
        t = self.lemma41[self.lemma41["information"] > 1e-9]  # below, both are rounding errors
        return float((t["information"] / t["bound"]).max())

    @property
    def lemma47_ratio(self) -> float:
        """The largest ``|error|`` of Lemma 4.7 over w⁴/N², over every N and w ≤ √N of the table."""
        return float(self.lemma["largest |error| / (w⁴/N²)"].max())

    @property
    def largest_fraction(self) -> float:
        """The largest exact information as a fraction of Thm 4.3's bound."""
        return float((self.one_bit["information"] / self.one_bit["bound"]).replace(np.inf, 0).max())

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """None."""
        return ()

    def metrics(self) -> dict[str, Any]:
        """None: the chapter glues what it reports."""
        return {}

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every enumerated query, Lemma 4.1 on every enumerated sketch, and Lemma 4.7's error."""
        return {"p002-e2": self.one_bit, "p002-e2-lemma41": self.lemma41, "p002-e2-lemma47": self.lemma}

    def figure(self) -> Figure:
        """(a) exact information against Thm 4.3's bound; (b) MaxSense's sketch against N; (c) against ε."""
        fig, axes = panel_row(3, height=3.6)
        mi = self.one_bit
        rand, guess = mi[mi["query"] == "random"], mi[mi["query"] == "guess vector"]
        axes[0].scatter(
            rand["bound"] * rand["N"],
            rand["information"] * rand["N"],
            s=4,
            alpha=0.4,
            label="random query sets",
        )
        axes[0].scatter(
            guess["bound"] * guess["N"],
            guess["information"] * guess["N"],
            s=18,
            color="C3",
            label="guess-vector query",
        )
        axes[0].plot([0, 1], [0, 1], "k--", lw=0.8, label="I = bound")
        axes[0].set(xlabel="N × Thm 4.3 bound", ylabel="N × exact I(Z;S) (nats)", title="(a) 1-bit, N = 4…12")
        axes[0].legend(fontsize=SMALL)
        n = np.asarray(E2_N_SKETCH)
        for w, colour in zip(self.sketch_n, ("C0", "C1", "C2"), strict=True):
            axes[1].plot(n, self.sketch_n[w] * n, "o-", color=colour, label=f"w = {w}")
        axes[1].set(
            xscale="log",
            xlabel="items N",
            ylabel="N × I(Z;S | H) (nats)",
            title=f"(b) MaxSense sketch, ε = {E2_EPS}",
        )
        axes[1].legend(fontsize=SMALL)
        e = self.eps_grid
        small = e[e < math.log(2)]
        axes[2].plot(e, self.sketch_eps, "C0-", label="MaxSense, N = 100, w = 1")
        axes[2].plot(e, e, "k--", lw=0.8, label="Lemma 3.1: ε")
        axes[2].plot(
            small, [rc.thm410_leading_term(100, 1, x) for x in small], "k:", label="Thm 4.10: 2ε'²w/N"
        )
        loglog_axes(axes[2], "ε", "nats", "(c) information against ε")
        axes[2].legend(fontsize=SMALL)
        return fig


def information(P: Parameters) -> Information:
    """E2 (streams ``p002-e2`` and ``p002-e2/lemma41``): Thm 4.3 by enumeration on the guess-vector query
    and ``E2_RANDOM_QUERIES`` random query sets per N, each also against Lemma 4.1, with random private
    sketches on ``E2_PRIVATE``; MaxSense's sketch in closed form; Lemma 4.7 in exact rationals."""
    rng = P.rng("p002-e2")
    rows = []
    for n in E2_N:
        guess = np.zeros((n, 2), dtype=bool)
        guess[np.arange(n), rng.integers(0, 2, n)] = True
        queries = [("guess vector", guess)]
        queries += [("random", rng.random((n, 2)) < rng.random()) for _ in range(E2_RANDOM_QUERIES)]
        rows += [
            {
                "N": n,
                "query": kind,
                "information": rc.one_bit_information(n, q),
                "bound": rc.thm43_bound(n, q),
                "A": q,
            }
            for kind, q in queries
        ]
    mi = pd.DataFrame(rows).drop(columns="A")
    guess_rows = mi[mi["query"] == "guess vector"].set_index("N")
    guess_ratio = {n: guess_rows.loc[n, "information"] * 2 * n for n in (8, 9, 10)}
    checks = ref.thm43_checks(
        float((mi["information"] - mi["bound"]).max()),
        float((mi["information"] * mi["N"]).max()),
        guess_ratio,
    )
    lemma41 = _lemma41(rows, P.rng("p002-e2/lemma41"))
    checks += ref.lemma41_checks(list(zip(lemma41["information"], lemma41["bound"], strict=True)))
    sketch = rc.maxsense_sketch_information
    sketch_n = {w: np.array([sketch(int(n), w, E2_EPS) for n in E2_N_SKETCH]) for w in (1, 2, 4)}
    eps_grid = np.geomspace(0.01, 10, 41)
    sketch_eps = np.array([sketch(100, 1, e) for e in eps_grid])
    small = eps_grid[eps_grid < math.log(2)]
    over_410 = max(sketch(100, w, e) / rc.thm410_leading_term(100, w, e) for w in (1, 2, 4) for e in small)
    over_eps = float(np.max(sketch_eps / eps_grid))
    # the closed form's properties (halving with N, quadratic in ε) are unit tests; these compare it with
    # the bounds
    checks += ref.maxsense_information_checks(over_410, over_eps)
    return Information(
        mi,
        sketch_n,
        eps_grid,
        sketch_eps,
        sketch(200, 2, E2_EPS) / sketch(100, 2, E2_EPS),
        sketch(100, 1, 0.1) / sketch(100, 1, 0.2),
        1 / over_410,
        loglog_slope(eps_grid, sketch_eps, 0.01, 0.1),
        _lemma47_table(),
        lemma41,
        {"p002-e2": checks},
    )


def _lemma41(queries: list[dict[str, Any]], rng: np.random.Generator) -> pd.DataFrame:
    """Exact information and Lemma 4.1's bound of every query of Thm 4.3 (``w = 1``, no privacy, from
    ``queries``' rows: ``N``, ``query``, ``A``) and of random ε-private sketches on ``E2_PRIVATE``."""
    rows = [
        {"kind": f"Thm 4.3, {r['query']}", "N": r["N"], "w": 1, "ε": math.inf,
         "information": r["information"], "bound": exact.lemma41_bound(r["N"], 1, r["A"].ravel())}
        for r in queries
    ]  # fmt: skip
    for n, w in E2_PRIVATE:
        size = exact.data_size(n, w)
        for e in E2_PRIVATE_EPS:
            for _ in range(E2_PRIVATE_QUERIES):
                q = exact.private_release(rng.random(size) < rng.random(), e)
                rows.append({"kind": "private, random", "N": n, "w": w, "ε": e,
                             "information": exact.sketch_information(n, w, q),
                             "bound": exact.lemma41_bound(n, w, q)})  # fmt: skip
    return pd.DataFrame(rows)


def _lemma47_table() -> pd.DataFrame:
    """Lemma 4.7's error against w⁴/N² at each N of ``E2_LEMMA_N``, in exact rationals."""
    rows = []
    for n in E2_LEMMA_N:
        w = np.arange(1, math.isqrt(n) + 1)
        err = np.array([float(rc.lemma47_error_exact(n, int(k))) for k in w])  # exact rationals, then floats
        rows.append(
            {
                "N": n,
                "largest |error| / (w⁴/N²)": float(np.max(np.abs(err) / (w**4 / n**2))),
                "error at w = 1": float(err[0]),
                "error at w = 2": float(err[1]),
                "w⁴/N² at w = 2": 16 / n**2,
                "error at w = 10": float(err[9]),
                "w⁴/N² at w = 10": 1e4 / n**2,
            }
        )
    return pd.DataFrame(rows)
