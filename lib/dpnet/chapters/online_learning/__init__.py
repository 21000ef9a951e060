"""Chapter 5, ``online-learning``: private online learning from intermittent streams (paper 003 §4.3,
§11, §14.1(c) and §14.5; Figures 14.1(c) and 14.6).

The chapter's parameters (:data:`SCHEMA`) and its experiments, one module per published item or
experiment of the book's own. Each experiment takes the resolved parameters (and what earlier
experiments computed), computes with :mod:`dpnet.inference` and :mod:`dpnet.survival`, checks the
outcome against paper 003 with :mod:`dpnet.reference.online`, and returns a small frozen dataclass that
the chapter records (:meth:`dpnet.results.Results.record`), tabulates and plots:

- :mod:`~dpnet.chapters.online_learning.p003_sec4_3_signals`: the synthetic streams' signal laws,
  sensitivity and network;
- :mod:`~dpnet.chapters.online_learning.p003_sec4_3_convergence`: the non-private time average against
  its closed-form limit, and one private stream at every ε;
- :mod:`~dpnet.chapters.online_learning.p003_sec4_3` (§4.3): the probability of identifying θ° against
  the period, at every ε, and the noise part of the time-averaged ratio;
- :mod:`~dpnet.chapters.online_learning.p003_thm4_7` (Theorem 4.7): the horizon against the periods the
  runs need;
- :mod:`~dpnet.chapters.online_learning.p003_sec4_3_mixing`: the same curve on other graphs and for
  rarer arrivals, against Theorem 4.7's factors for mixing and arrivals;
- :mod:`~dpnet.chapters.online_learning.p003_fig14_1c` (Figure 14.1(c)) and
  :mod:`~dpnet.chapters.online_learning.p003_fig14_6` (Figure 14.6): the clinical cohorts as streams,
  with the paper's likelihood and as published;
- :mod:`~dpnet.chapters.online_learning.clinical_streams`: their limits and agreements, side by side.

Random streams (:data:`SCHEMA` ``streams``): ``convergence``, ``sample-paths`` and ``p003-sec4-3`` (the
convergence check, the sample paths and the privacy sweep), ``mixing`` and ``arrivals`` (one child per
graph or arrival chance, by its position in the list), ``p003-fig14-1c`` and ``p003-fig14-6`` (one child
per stream). Their keys are those of the published runs, so naming them changed no number.

The footprint (``SCHEMA.footprint``) adds up the items' ``cost`` terms, whose constants were measured on
this book's 2-core machine to within a factor of about 2, and ``FIXED_SECONDS`` for the data, the
figures and the kernel. Its memory is the largest array an item holds while it runs (the privacy sweep's
log-beliefs or a clinical stream's runs); no item keeps a large result.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dpnet.chapters._items import footprint
from dpnet.chapters.online_learning.clinical_streams import StreamSummary, stream_summary
from dpnet.chapters.online_learning.p003_fig14_1c import PAPER_PERIOD_DAYS, THETA1, StreamStudy, actg_stream
from dpnet.chapters.online_learning.p003_fig14_6 import PAPER_PERIOD_MONTHS, THETA_TMB, cancer_stream
from dpnet.chapters.online_learning.p003_sec4_3 import PrivacySweep, privacy_sweep
from dpnet.chapters.online_learning.p003_sec4_3_convergence import Convergence, convergence
from dpnet.chapters.online_learning.p003_sec4_3_mixing import (
    Comparison,
    CurveTask,
    identification_curve,
    mixing_and_arrivals,
)
from dpnet.chapters.online_learning.p003_sec4_3_signals import TRUTH, Signals, signals, time_grid
from dpnet.chapters.online_learning.p003_thm4_7 import Theorem47, theorem_4_7
from dpnet.errors import ParameterError
from dpnet.params import AS_DEFAULT, COMMON, Param, Schema, choice, eps_grid, integer, list_of, real
from dpnet.reference.clinical import ACTG_RUN

__all__ = [
    "GRAPHS",
    "SCHEMA",
    "THETA1",
    "THETA_TMB",
    "TRUTH",
    "Comparison",
    "Convergence",
    "CurveTask",
    "PrivacySweep",
    "Signals",
    "StreamStudy",
    "StreamSummary",
    "Theorem47",
    "actg_stream",
    "cancer_stream",
    "convergence",
    "identification_curve",
    "mixing_and_arrivals",
    "privacy_sweep",
    "signals",
    "stream_summary",
    "theorem_4_7",
    "time_grid",
]

#: The graphs the synthetic streams may use (Metropolis–Hastings weights).
GRAPHS = ("complete", "star", "path", "cycle")
#: Seconds no item accounts for: the data, the figures and the kernel.
FIXED_SECONDS = 20.0


def _synthetic_constraints(values: Mapping[str, Any]) -> None:
    graphs = [values["graph"], *values["graphs"]]
    if "cycle" in graphs and values["n_agents"] % 2 == 0:
        raise ParameterError(
            f"a cycle of even length n_agents = {values['n_agents']} is periodic under Metropolis–Hastings "
            "weights (b* = 1, Theorem 4.7 gives no horizon): use an odd n_agents or another graph"
        )
    if values["n_agents"] < values["n_states"] - 1:
        raise ParameterError(
            f"n_agents must be at least n_states − 1 = {values['n_states'] - 1}, so that every wrong state "
            f"is told apart by some agent (got n_agents = {values['n_agents']})"
        )


#: The chapter's parameters, each declared once (:class:`~dpnet.params.Schema`).
SCHEMA = Schema(
    {
        **COMMON,
        "seed": Param(integer(ge=0), "seed of every random draw in the chapter", default=20250301),
        "n_agents": Param(
            integer(ge=3, le=100),
            "agents n of the synthetic streams (at least 3: with two, Metropolis–Hastings weights swap "
            "the agents' beliefs every period, b* = 1, and Theorem 4.7 gives no horizon)", default=10,
        ),
        "n_states": Param(
            integer(ge=2, le=10), "states |Θ| of the synthetic streams (θ° is the first)", default=3
        ),
        "signal_shift": Param(
            real(gt=0.0, lt=0.5), "Bernoulli signals: p = 0.5 + shift at an agent's own state, else 0.5",
            default=0.3,
        ),
        "gaussian_shift": Param(
            real(gt=0.0, le=10.0), "Gaussian signals of the convergence check: mean shift, in units of σ",
            default=2.0,
        ),
        "graph": Param(choice(*GRAPHS), "graph of the privacy sweep", default="complete"),
        "graphs": Param(
            list_of(choice(*GRAPHS)), "graphs of the mixing comparison", default=["complete", "star", "path"]
        ),
        "arrival_rate": Param(
            real(gt=0.0, le=1.0), "chance ξ that an agent gets a signal in a period (privacy sweep)",
            default=1.0,
        ),
        "arrival_rates": Param(
            list_of(real(gt=0.0, le=1.0)), "arrival chances ξ of the arrival-rate comparison",
            default=[1.0, 0.5, 0.2],
        ),
        "eps_values": Param(
            eps_grid(allow_zero=False), "privacy budgets ε of the synthetic sweep",
            default=[0.25, 0.5, 1.0, 2.0, 5.0],
        ),
        "eps_compare": Param(
            real(gt=0.0), "ε of the mixing and arrival-rate comparisons", default=2.0
        ),
        "eta": Param(real(gt=0.0, lt=0.5), "error probability η of Theorem 4.7's horizon", default=0.05),
        "horizon": Param(
            integer(ge=10, le=200_000), "periods T of the synthetic sweeps", quick=2000, full=12000
        ),
        "limit_horizon": Param(
            integer(ge=100, le=200_000), "periods of the convergence check", quick=5000, full=20000
        ),
        "replications": Param(
            integer(ge=20), "Monte Carlo replications per curve and cohort", quick=100, full=200
        ),
        "n_centers": Param(
            integer(ge=2, le=50), "centres n of the clinical streams, on a complete graph",
            default=ACTG_RUN["n_centers"], paper=AS_DEFAULT,
        ),
        "eps": Param(
            real(gt=0.0), "privacy budget ε of the clinical streams", default=ACTG_RUN["eps"],
            paper=AS_DEFAULT,
        ),
        "period_days": Param(
            real(ge=1.0, le=365.0),
            "period of the ACTG 175 stream, in days (the data's times are whole days)",
            default=PAPER_PERIOD_DAYS, paper=AS_DEFAULT,
        ),
        "period_months": Param(
            real(ge=1.0, le=24.0),
            "period of the cancer-cohort stream, in months (the data's times are whole months)",
            default=PAPER_PERIOD_MONTHS, paper=AS_DEFAULT,
        ),
    },
    constraints=(_synthetic_constraints,),
    # the published runs drew from SeedSequence([seed, *key]) under these integer keys
    streams={
        "convergence": (500, 0), "sample-paths": (500, 1), "p003-sec4-3": (500, 2), "mixing": (501,),
        "arrivals": (502,), "p003-fig14-1c": (503,), "p003-fig14-6": (504,),
    },
    footprint=footprint(__name__, seconds=FIXED_SECONDS, memory=0.0),
)  # fmt: skip
