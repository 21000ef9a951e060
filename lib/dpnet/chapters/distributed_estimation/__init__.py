"""Chapter 6, ``distributed-estimation``: private distributed estimation on power networks (paper 001,
Table 1, Figures 2–7 and the (ε, δ) guarantee of §5.2).

The chapter's parameters (:data:`SCHEMA`), and its experiments, one module per item: each experiment
takes the resolved parameters, computes with :mod:`dpnet.estimation`, checks the outcome against paper
001 with :mod:`dpnet.reference.estimation`, and returns a small frozen dataclass that the chapter
records (:meth:`dpnet.results.Results.record`), tabulates and plots. The package re-exports every
experiment and result, so the chapter calls ``chapter.networks(P)``.

Random streams: the synthetic signals come from
:func:`~dpnet.chapters.distributed_estimation.p001_fig2.signal_stream` (seeded by ``data_seed``, so
that changing the noise seed keeps the data); every noise draw comes from a named stream of ``seed``.
A sample-path figure draws both calibrations from two fresh generators of its stream, so they see the
same unit noise; a dataset's draws continue the stream after the datasets listed before it. Figure 7
draws each mechanism's unit noise once and scales it by both calibrations, which gives the same numbers;
its located noise (the published figure's last scripted run) draws from children 8–15 of its stream.

The footprint (``dpnet.chapters._items.footprint``) adds the items' ``cost`` terms to 20 s for
the kernel, the imports and the figures. Calibrated on this 2-core machine (one core, under load from
other runs): at the former quick defaults (every agent drawn, each calibration of Figure 7 drawing its
own noise) the experiments took 98 s (Figure 7 37–42 s) and the whole process peaked at 1.03 GiB, every
result held; at horizon = 2000, 387 s and 2.76 GiB; on the US grid alone at horizon = 4000 the peak was
4.9 GiB. At the quick defaults (250 agents drawn) the whole chapter took 164–170 s under load
(estimate 132 s).
"""

from __future__ import annotations

from typing import Any

from dpnet import estimation as est
from dpnet.chapters._items import footprint
from dpnet.chapters.distributed_estimation.est_naive_noise import NaiveNoise, naive_noise
from dpnet.chapters.distributed_estimation.est_optimal_noise import NoiseComparison, optimal_noise
from dpnet.chapters.distributed_estimation.p001_fig2 import Networks, networks, signal_stream
from dpnet.chapters.distributed_estimation.p001_fig3 import SamplePaths, convergence_table, mvue_signal
from dpnet.chapters.distributed_estimation.p001_fig4 import mvue_network
from dpnet.chapters.distributed_estimation.p001_fig5 import online_signal
from dpnet.chapters.distributed_estimation.p001_fig6 import online_network
from dpnet.chapters.distributed_estimation.p001_fig7 import BudgetSweep, error_vs_budget
from dpnet.chapters.distributed_estimation.p001_sec5_2 import SmoothGuarantee, smooth_guarantee
from dpnet.chapters.distributed_estimation.p001_table1 import MomentStudy, moment_study
from dpnet.chapters.distributed_estimation.slopes import Slopes, slope_table
from dpnet.params import (
    AS_DEFAULT,
    COMMON,
    Param,
    Rule,
    Schema,
    choice,
    eps_grid,
    integer,
    list_of,
    real,
)
from dpnet.reference import estimation as ref

__all__ = [
    "SCHEMA",
    "BudgetSweep",
    "MomentStudy",
    "NaiveNoise",
    "Networks",
    "NoiseComparison",
    "SamplePaths",
    "Slopes",
    "SmoothGuarantee",
    "convergence_table",
    "error_vs_budget",
    "moment_study",
    "mvue_network",
    "mvue_signal",
    "naive_noise",
    "networks",
    "online_network",
    "online_signal",
    "optimal_noise",
    "signal_stream",
    "slope_table",
    "smooth_guarantee",
]

#: Seconds no item accounts for: the kernel, the imports, the figures.
_FIXED_SECONDS = 20.0


def _datasets() -> Rule:
    """One dataset name, or a list of distinct ones."""
    names = list_of(choice(*est.DATASETS))

    def convert(value: Any) -> list[str]:
        return names.convert([value] if isinstance(value, str) else value)

    return Rule(f"one of {est.DATASETS} or a list of them", convert)


def _word_or_integer(word: str, *, ge: int, le: int) -> Rule:
    """The string ``word`` (``"paper"``: the paper's value; ``"all"``: every one) or an integer within
    bounds."""
    number = integer(ge=ge, le=le)

    def convert(value: Any) -> Any:
        return value if value == word else number.convert(value)

    return Rule(f"{word!r} or {number.describe}", convert)


#: The chapter's parameters, each declared once (:class:`~dpnet.params.Schema`).
SCHEMA = Schema(
    {
        **COMMON,
        "seed": Param(integer(ge=0), "seed of every noise draw in the chapter", default=20230801),
        "dataset": Param(
            _datasets(), "network(s) and signals: us_power_grid, german_households",
            default=list(est.DATASETS), paper=AS_DEFAULT,
        ),
        "eps_values": Param(
            eps_grid(allow_zero=False), "privacy budgets ε of Figure 7 (the published figure's grid)",
            default=list(ref.FIG7_EPS), paper=AS_DEFAULT,
        ),
        "horizon": Param(
            _word_or_integer("paper", ge=2, le=20_000),
            "rounds T ('paper': 100 on the US grid, 1096 on the German households)", default="paper",
            paper=AS_DEFAULT,
        ),
        "n_draws": Param(
            integer(ge=2, le=1000), "noise draws per point of Figure 7 (the published figure's)",
            default=ref.FIG7_DRAWS, paper=AS_DEFAULT,
        ),
        "calibration": Param(
            choice("paper", "authors_code"),
            "smooth-sensitivity noise of the sample paths (Figures 3–6): the text's, or the authors' code's",
            default="paper", paper=AS_DEFAULT,
        ),
        "delta": Param(
            real(gt=0.0, lt=1.0), "δ of (ε, δ)-DP under smooth sensitivity", default=ref.SMOOTH_DELTA,
            paper=AS_DEFAULT,
        ),
        "data_seed": Param(integer(ge=0), "seed of the synthetic signals, apart from the noise", default=0),
        "n_mc": Param(integer(ge=100, le=100_000), "runs of the exact-moment check", quick=1000, full=2000),
        "paths_drawn": Param(
            _word_or_integer("all", ge=1, le=100_000),
            "agents whose paths Figures 3–6 draw, evenly spaced ('all': every agent)", quick=250, full="all",
        ),
    },
    # the published runs keyed each experiment's noise by integers under `seed`
    streams={
        "p001-fig2-layout": (700, 0),
        "p001-table1": (701, 0),
        "p001-fig3": (702, 0),
        "p001-fig4": (702, 1),
        "p001-fig5": (702, 2),
        "p001-fig6": (702, 3),
        "naive-noise": (703, 0),
        "p001-fig7": (704,),
    },
    footprint=footprint(__name__, seconds=_FIXED_SECONDS, memory=0.0),
)  # fmt: skip
