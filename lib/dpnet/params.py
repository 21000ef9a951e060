"""Chapter parameters: one schema per chapter, checked before and during execution.

Every chapter has a cell tagged ``parameters`` holding literal defaults (``mode``, ``seed`` and the
chapter's physical parameters). A value of ``None`` means "the mode's default": the schema holds
one value for ``quick`` (continuous-integration sized) and one for ``full`` (the paper's sizes).

:func:`resolve` merges overrides into the defaults, fills mode defaults, and validates every value,
raising :class:`~dpnet.errors.ParameterError` naming the parameter and its allowed range. The book
runner calls it before starting a kernel, and the chapter calls it again in its first cell, so a
notebook opened in Jupyter is checked the same way.
"""

from __future__ import annotations

import itertools
import math
import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dpnet.errors import ParameterError
from dpnet.networks import GRAPH_KINDS

__all__ = [
    "SCHEMAS",
    "Check",
    "Param",
    "Schema",
    "choice",
    "eps_grid",
    "integer",
    "list_of",
    "real",
    "resolve",
]


@dataclass(frozen=True)
class Check:
    """A value check: ``convert`` returns the normalised value or raises ``ValueError``."""

    describe: str
    convert: Callable[[Any], Any]

    def __call__(self, name: str, value: Any) -> Any:
        try:
            return self.convert(value)
        except (ValueError, TypeError) as exc:
            detail = f"; {exc}" if str(exc) else ""
            raise ParameterError(f"{name} must be {self.describe} (got {value!r}{detail})") from None


def _number(value: Any) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError("not a number")
    if not math.isfinite(value):
        raise ValueError("not finite")
    return float(value)


def real(
    *, gt: float | None = None, ge: float | None = None, lt: float | None = None, le: float | None = None
) -> Check:
    """A finite real number within the given bounds."""
    parts = []
    if gt is not None:
        parts.append(f"> {gt:g}")
    if ge is not None:
        parts.append(f"≥ {ge:g}")
    if lt is not None:
        parts.append(f"< {lt:g}")
    if le is not None:
        parts.append(f"≤ {le:g}")
    if gt is not None and lt is not None:
        describe = f"a real number in the open interval ({gt:g}, {lt:g})"
    else:
        describe = "a real number" + (" " + " and ".join(parts) if parts else "")

    def convert(value: Any) -> float:
        x = _number(value)
        if (
            (gt is not None and not x > gt)
            or (ge is not None and not x >= ge)
            or (lt is not None and not x < lt)
            or (le is not None and not x <= le)
        ):
            raise ValueError("")
        return x

    return Check(describe, convert)


def integer(*, ge: int | None = None, le: int | None = None) -> Check:
    """An integer within the given bounds."""
    bounds = " and ".join(b for b in (ge is not None and f"≥ {ge}", le is not None and f"≤ {le}") if b)
    describe = "an integer" + (f" {bounds}" if bounds else "")

    def convert(value: Any) -> int:
        if isinstance(value, (bool, np.bool_)):
            raise TypeError("a boolean is not an integer")
        if not isinstance(value, numbers.Integral):
            if isinstance(value, numbers.Real) and float(value).is_integer():
                value = int(value)
            else:
                raise TypeError("not an integer")
        if (ge is not None and value < ge) or (le is not None and value > le):
            raise ValueError("")
        return int(value)

    return Check(describe, convert)


def choice(*options: Any) -> Check:
    """One of a fixed set of values."""

    def convert(value: Any) -> Any:
        if value not in options:
            raise ValueError("")
        return value

    return Check("one of " + ", ".join(repr(o) for o in options), convert)


def list_of(item: Check, *, min_len: int = 1, unique: bool = True) -> Check:
    """A list of values each passing ``item``."""
    describe = f"a list of at least {min_len} {'distinct ' if unique else ''}values, each {item.describe}"

    def convert(value: Any) -> list[Any]:
        if isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__iter__"):
            raise TypeError("not a list")
        out = [item.convert(v) for v in value]
        if len(out) < min_len:
            raise ValueError(f"it has {len(out)}")
        if unique and len(set(out)) != len(out):
            raise ValueError("values repeat")
        return out

    return Check(describe, convert)


def eps_grid(*, allow_zero: bool = True) -> Check:
    """A grid of privacy budgets: an increasing list, or ``{"start", "stop", "num"}`` for linspace."""
    low = "≥ 0" if allow_zero else "> 0"
    describe = (
        f"a strictly increasing list of at least 2 privacy budgets {low}, or a mapping "
        f"{{'start': a, 'stop': b, 'num': k}} with 0 ≤ a < b and k ≥ 2 (numpy.linspace)"
    )

    def convert(value: Any) -> list[float]:
        if isinstance(value, Mapping):
            if set(value) != {"start", "stop", "num"}:
                raise ValueError("the mapping needs exactly the keys start, stop, num")
            start, stop = _number(value["start"]), _number(value["stop"])
            num = value["num"]
            if isinstance(num, bool) or not isinstance(num, int) or num < 2 or not 0 <= start < stop:
                raise ValueError("")
            grid = np.linspace(start, stop, num).tolist()  # bit-for-bit the paper's grid
        else:
            grid = list_of(real(ge=0.0), min_len=2).convert(value)
        if any(b <= a for a, b in itertools.pairwise(grid)):
            raise ValueError("not strictly increasing")
        if not allow_zero and grid[0] <= 0:
            raise ValueError("ε must be > 0")
        return grid

    return Check(describe, convert)


@dataclass(frozen=True)
class Param:
    """One chapter parameter: its check, its meaning, and (optionally) per-mode defaults."""

    check: Check
    help: str
    quick: Any = None
    full: Any = None


@dataclass(frozen=True)
class Schema:
    """A chapter's parameters and the cross-parameter constraints between them."""

    params: Mapping[str, Param]
    constraints: tuple[Callable[[dict[str, Any]], None], ...] = field(default=())


def _budgets() -> Check:
    """An increasing list of ε > 0 in which the string ``"inf"`` stands for the non-private limit."""

    def convert(value: Any) -> list[float]:
        if isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__iter__"):
            raise TypeError("not a list")
        out = [math.inf if v == "inf" else real(gt=0.0).convert(v) for v in value]
        if len(out) < 2 or any(b <= a for a, b in itertools.pairwise(out)):
            raise ValueError("it needs at least 2 strictly increasing values")
        return out

    return Check("a strictly increasing list of at least 2 budgets ε > 0, or 'inf' (last)", convert)


_COMMON = {
    "mode": Param(choice("quick", "full"), "'quick' (CI-sized) or 'full' (the paper's sizes)"),
    "seed": Param(integer(ge=0), "seed of every random draw in the chapter"),
}


def _panels_in_grid(values: dict[str, Any]) -> None:
    if values["n_panel"] not in values["n_values"]:
        raise ParameterError(
            f"n_panel must be one of n_values {values['n_values']} (got {values['n_panel']})"
        )
    if values["p_panel"] not in values["p_values"]:
        raise ParameterError(
            f"p_panel must be one of p_values {values['p_values']} (got {values['p_panel']})"
        )


def _runtime_rows_fit(values: dict[str, Any]) -> None:
    if min(values["runtime_rows"]) < max(values["runtime_n_values"]):
        raise ParameterError(
            f"every runtime_rows value must be at least the largest of runtime_n_values "
            f"{max(values['runtime_n_values'])}, so that no centre is empty (got {values['runtime_rows']})"
        )


def _aperiodic_graphs(values: dict[str, Any]) -> None:
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


_OL_GRAPHS = ("complete", "star", "path", "cycle")
_ESTIMATION_DATASETS = ("us_power_grid", "german_households")


def _datasets() -> Check:
    """One dataset name, or a list of distinct ones."""
    names = list_of(choice(*_ESTIMATION_DATASETS))

    def convert(value: Any) -> list[str]:
        return names.convert([value] if isinstance(value, str) else value)

    return Check(f"one of {_ESTIMATION_DATASETS} or a list of them", convert)


def _paper_or_integer(*, ge: int, le: int) -> Check:
    """The string ``"paper"`` (the paper's value) or an integer within bounds."""
    number = integer(ge=ge, le=le)

    def convert(value: Any) -> Any:
        return value if value == "paper" else number.convert(value)

    return Check(f"'paper' or {number.describe}", convert)


SCHEMAS: dict[str, Schema] = {
    "power-tradeoff": Schema(
        {
            **_COMMON,
            "n_values": Param(list_of(integer(ge=1)), "numbers of agents n (heat-map rows)"),
            "p_values": Param(list_of(real(gt=0.5, lt=1.0)), "signal accuracies p (heat-map columns)"),
            "alpha": Param(real(gt=0.0, lt=1.0), "test level α"),
            "eps_grid": Param(eps_grid(), "privacy budgets ε of the power curves and of the argmin ε*"),
            "mc_samples": Param(
                integer(ge=2), "Monte Carlo draws per hypothesis and ε (Laplace)", quick=5000, full=5000
            ),
            "mc_repeats": Param(
                integer(ge=1), "independent Monte Carlo runs of the Laplace heat map", quick=3, full=10
            ),
            "n_panel": Param(integer(ge=1), "n of the power-vs-ε curves over p (middle panels)"),
            "p_panel": Param(real(gt=0.5, lt=1.0), "p of the power-vs-ε curves over n (left panels)"),
        },
        constraints=(_panels_in_grid,),
    ),
    "distributed-mle": Schema(
        {
            **_COMMON,
            "n_agents": Param(integer(ge=3, le=50), "number of agents n (a cycle needs n ≥ 3)"),
            "graph": Param(choice(*GRAPH_KINDS), "communication graph"),
            "edge_prob": Param(real(gt=0.0, le=1.0), "edge probability of the Erdős–Rényi graph"),
            "n_states": Param(integer(ge=2, le=12), "number of states |Θ|"),
            "n_signals": Param(integer(ge=1, le=100_000), "Bernoulli signals held by each agent"),
            "eps_values": Param(eps_grid(allow_zero=False), "privacy budgets ε of the error-rate sweep"),
            "alpha": Param(real(gt=0.0, lt=1.0), "target Type I error α"),
            "beta": Param(real(gt=0.0, lt=1.0), "target probability β of keeping every MLE state"),
            "replications": Param(integer(ge=20), "Monte Carlo replications per point", quick=400, full=2000),
            "eps_demo": Param(real(gt=0.0), "ε of the belief trajectories and of the sweep over K"),
            "K_values": Param(list_of(integer(ge=1, le=200)), "numbers of rounds K of the sweep over K"),
            "gap_values": Param(
                list_of(real(ge=0.0, le=100.0), min_len=2),
                "likelihood gaps, in Laplace noise scales, of the guarantee check",
            ),
            "iterations": Param(
                integer(ge=1, le=5000), "iterations T of the trajectories and of the finite-T check"
            ),
            "pi": Param(real(gt=0.0, lt=1.0), "slack π₁ = π₂ of the two-threshold rule"),
            "q1": Param(real(gt=0.0, lt=1.0), "Thm 4.5: bound q₁ on a non-MLE state's per-round rate"),
            "q2": Param(real(gt=0.0, lt=1.0), "Thm 4.5: bound q₂ on an MLE state's per-round rate"),
        }
    ),
    "hypothesis-testing": Schema(
        {
            **_COMMON,
            "n_centers": Param(integer(ge=2, le=50), "number of centres (hospitals) n, on a complete graph"),
            "split": Param(choice("round_robin", "random"), "how patients are assigned to centres"),
            "eps": Param(real(gt=0.0), "privacy budget ε of the private runs"),
            "alpha": Param(real(gt=0.0, lt=0.5), "level α of the tests; α = 1 − β of the private MLE runs"),
            "likelihood": Param(
                choice("paper", "as_published"),
                "likelihood and noise of the headline success rates and the cancer-cohort runs: the paper's "
                "or the authors' code's (Fig 14.1 shows both; the §4.2 tests use the paper's)",
            ),
            "replications": Param(
                integer(ge=20), "Monte Carlo replications per success rate", quick=200, full=1000
            ),
            "rho": Param(real(gt=0.0), "log-belief threshold ϱ_AM = ϱ_GM of the ACTG runs (Fig 14.1)"),
            "rho_cancer": Param(real(gt=0.0), "log-belief threshold ϱ of the cancer-cohort runs (Fig 14.4)"),
            "penalizer": Param(
                real(ge=0.0), "ridge penalty of the composite test's Cox fits (lifelines' convention)"
            ),
            "b_theta": Param(real(gt=0.0), "public bound B_θ on |θ| for the composite test's sensitivity"),
            "one_hospital_split": Param(
                integer(ge=2, le=100), "split whose centre 1 the 'one hospital' panels show"
            ),
            "eps_values": Param(eps_grid(allow_zero=False), "privacy budgets ε of the size and power curves"),
        }
    ),
    "treatment-identification": Schema(
        {
            **_COMMON,
            "n_centers": Param(integer(ge=2, le=20), "centres n of the best-treatment runs (complete graph)"),
            "split": Param(choice("round_robin", "random"), "how patients are assigned to centres"),
            "eps": Param(real(gt=0.0), "privacy budget ε of Figure 5's runs"),
            "alpha": Param(real(gt=0.0, lt=0.5), "α = 1 − β of Figure 5's runs"),
            "threshold": Param(real(gt=0.0, le=0.5), "belief threshold τ of AM, GM and the frequencies"),
            "penalizer": Param(
                real(ge=0.0), "ridge penalty of the centres' GLRT fits (lifelines' convention)"
            ),
            "b_theta": Param(real(gt=0.0), "public bound B_θ on |θ|: the GLRTs' sensitivity Δ = 2B_θ"),
            "replications": Param(
                integer(ge=20),
                "Monte Carlo replications per probability and per TVD point",
                quick=200,
                full=1000,
            ),
            "best_arm_eps": Param(eps_grid(allow_zero=False), "ε of the best-arm probability curve"),
            "reliable": Param(
                real(gt=0.0, lt=1.0), "probability of naming the best arm that counts as reliable"
            ),
            "published_eps": Param(real(gt=0.0), "ε of the as-published Figure 5 (the notebook's 0.1)"),
            "published_rounds": Param(
                integer(ge=1, le=1000), "K of the as-published Figure 5 (notebook: 10)"
            ),
            "published_iterations": Param(
                integer(ge=1, le=5000), "T of the as-published Figure 5 (notebook: 1000)"
            ),
            "fig6_n_values": Param(list_of(integer(ge=2, le=50)), "numbers of centres of Figure 6"),
            "fig6_eps": Param(eps_grid(allow_zero=False), "privacy budgets ε of Figure 6"),
            "fig6_alpha": Param(real(gt=0.0, lt=0.5), "α = 1 − β of Figure 6's K and T"),
            "fig6_rho": Param(real(gt=0.0), "ϱ of Figure 6's K and T"),
            "period_days": Param(real(gt=0.0), "online-learning period, in days (Figure 6's OL curve)"),
            "learning_rate": Param(real(gt=0.0, le=1.0), "learning rate η of the first-order baseline"),
            "runtime_dataset": Param(choice("cancer", "actg"), "cohort of the runtime study (Figure 14.2)"),
            "runtime_n_values": Param(
                list_of(integer(ge=2, le=500)), "numbers of centres of the runtime study"
            ),
            "runtime_rows": Param(
                list_of(integer(ge=100, le=200_000)), "sizes of the resampled cohorts of the runtime study"
            ),
            "runtime_repeats": Param(
                integer(ge=1, le=20), "timed repetitions per point (the median is reported)", quick=1, full=3
            ),
        },
        constraints=(_runtime_rows_fit,),
    ),
    "online-learning": Schema(
        {
            **_COMMON,
            "n_agents": Param(integer(ge=2, le=100), "agents n of the synthetic streams"),
            "n_states": Param(integer(ge=2, le=10), "states |Θ| of the synthetic streams (θ° is the first)"),
            "signal_shift": Param(
                real(gt=0.0, lt=0.5), "Bernoulli signals: p = 0.5 + shift at an agent's own state, else 0.5"
            ),
            "gaussian_shift": Param(real(gt=0.0, le=10.0), "Gaussian signals: mean shift, in units of σ"),
            "graph": Param(choice(*_OL_GRAPHS), "graph of the privacy sweep"),
            "graphs": Param(list_of(choice(*_OL_GRAPHS)), "graphs of the mixing comparison"),
            "arrival_rate": Param(real(gt=0.0, le=1.0), "chance ξ that an agent gets a signal in a period"),
            "arrival_rates": Param(list_of(real(gt=0.0, le=1.0)), "arrival chances ξ of the comparison"),
            "eps_values": Param(eps_grid(allow_zero=False), "privacy budgets ε of the synthetic sweep"),
            "eps_compare": Param(real(gt=0.0), "ε of the mixing and arrival-rate comparisons"),
            "eta": Param(real(gt=0.0, lt=0.5), "error probability η of Theorem 4.7's horizon"),
            "horizon": Param(
                integer(ge=10, le=200_000), "periods T of the synthetic sweeps", quick=2000, full=12000
            ),
            "limit_horizon": Param(
                integer(ge=100, le=200_000), "periods of the convergence check", quick=5000, full=20000
            ),
            "replications": Param(
                integer(ge=20), "Monte Carlo replications per curve and cohort", quick=100, full=200
            ),
            "n_centers": Param(integer(ge=2, le=50), "centres n of the clinical streams (complete graph)"),
            "eps": Param(real(gt=0.0), "privacy budget ε of the clinical streams (paper: 1)"),
            "period_days": Param(real(gt=0.0), "period of the ACTG 175 stream, in days (paper: 10)"),
            "period_months": Param(real(gt=0.0), "period of the cancer-cohort stream, in months (paper: 1)"),
        },
        constraints=(_aperiodic_graphs,),
    ),
    "distributed-estimation": Schema(
        {
            **_COMMON,
            "dataset": Param(_datasets(), "network(s) and signals: us_power_grid, german_households"),
            "eps_values": Param(eps_grid(allow_zero=False), "privacy budgets ε of Figure 7"),
            "horizon": Param(
                _paper_or_integer(ge=2, le=20_000),
                "rounds T ('paper': 100 on the US grid, 1096 on the German households)",
            ),
            "n_draws": Param(integer(ge=2, le=1000), "noise draws per point of Figure 7", quick=10, full=10),
            "calibration": Param(
                choice("paper", "authors_code"), "smooth-sensitivity calibration of Figures 3–6"
            ),
            "delta": Param(real(gt=0.0, lt=1.0), "δ of (ε, δ)-DP under smooth sensitivity (paper: 0.01)"),
            "data_seed": Param(integer(ge=0), "seed of the synthetic signals (authors: 0)"),
            "n_mc": Param(
                integer(ge=100, le=100_000), "runs of the exact-moment check", quick=1000, full=2000
            ),
        }
    ),
    "recommender-maxsense": Schema(
        {
            **_COMMON,
            "n_items": Param(
                list_of(integer(ge=20, le=2000), min_len=2),
                "item counts N of the scaling sweeps (E3, E4)",
                quick=[50, 100, 200],
                full=[50, 100, 200, 400],
            ),
            "ratings_per_user": Param(
                list_of(integer(ge=2, le=50), min_len=2), "ratings per user w of MaxSense's w sweep (N = 100)"
            ),
            "eps_values": Param(
                _budgets(),
                "privacy levels ε of the ε sweeps (E3, E4); 'inf' is non-private",
                quick=[0.25, 1.0, 4.0, "inf"],
                full=[0.25, 0.5, 1.0, 2.0, 4.0, "inf"],
            ),
            "theta": Param(
                real(gt=0.0, le=2.0), "MaxSense's sensing constant θ (probes θN/w items; paper: free)"
            ),
            "trials": Param(
                integer(ge=10, le=2000), "runs per point, MaxSense and Multi-MaxSense", quick=40, full=100
            ),
            "pp_trials": Param(
                integer(ge=5, le=500), "runs per point, Pairwise-Preference", quick=20, full=20
            ),
            "one_bit_trials": Param(
                integer(ge=50, le=100_000), "runs per N of the 1-bit schemes", quick=400, full=2000
            ),
            "exact_simulators": Param(
                choice(True, False), "also run the per-user simulators (E4c, E6)", quick=False, full=True
            ),
        }
    ),
    "functional-perturbation": Schema(
        {
            **_COMMON,
            "n_agents": Param(integer(ge=2, le=200), "agents n (companion choice: 10)"),
            "basis_order": Param(
                integer(ge=3, le=60), "basis functions K of the 1-D problems (companion: 20)"
            ),
            "degree_2d": Param(
                integer(ge=4, le=18), "total degree M of the 2-D basis (companion: 10, K = 66)"
            ),
            "q": Param(list_of(real(gt=1.0, le=8.0)), "adjacency exponents q (p = q/2)"),
            "eps_values": Param(eps_grid(allow_zero=False), "privacy levels ε of the trade-off (E3)"),
            "runs": Param(integer(ge=5, le=2000), "noise draws per (q, ε), 1-D", quick=20, full=100),
            "runs_2d": Param(integer(ge=2, le=500), "noise draws per ε, 2-D logistic", quick=5, full=20),
            "impossibility_runs": Param(
                integer(ge=100, le=20_000),
                "runs of the message-perturbation demo (E6c)",
                quick=1000,
                full=4000,
            ),
            "dgd_iterations": Param(
                integer(ge=100, le=50_000), "iterations of the distributed gradient method"
            ),
            "message_runs": Param(
                integer(ge=5, le=1000),
                "runs per schedule and ε of message perturbation (E6, E7)",
                quick=20,
                full=50,
            ),
            "data_seed": Param(integer(ge=0), "seed of the agents' data, kept apart from the noise"),
        }
    ),
    "reproducibility": Schema({**_COMMON}),
}


def schema(chapter_id: str) -> Schema:
    """The schema of a chapter, or an error listing the known chapter ids."""
    try:
        return SCHEMAS[chapter_id]
    except KeyError:
        known = ", ".join(sorted(SCHEMAS))
        raise ParameterError(f"unknown chapter id {chapter_id!r}; known chapters: {known}") from None


def resolve(chapter_id: str, values: Mapping[str, Any]) -> dict[str, Any]:
    """Validate a chapter's parameters and fill the mode defaults of those left at ``None``.

    Parameters
    ----------
    chapter_id
        The chapter, e.g. ``"power-tradeoff"``.
    values
        Every parameter of the chapter (the ``parameters`` cell with any overrides applied).

    Returns
    -------
    dict
        The normalised parameters, in schema order.
    """
    spec = schema(chapter_id)
    unknown = sorted(set(values) - set(spec.params))
    if unknown:
        allowed = ", ".join(spec.params)
        raise ParameterError(
            f"unknown parameter(s) {', '.join(unknown)} for chapter {chapter_id!r}; allowed: {allowed}"
        )
    missing = sorted(set(spec.params) - set(values))
    if missing:
        raise ParameterError(f"chapter {chapter_id!r} is missing parameter(s) {', '.join(missing)}")
    mode = spec.params["mode"].check("mode", values["mode"])
    out: dict[str, Any] = {}
    for name, param in spec.params.items():
        value = values[name]
        if value is None:
            value = getattr(param, mode)
            if value is None:
                raise ParameterError(f"{name} must be set: it has no default in {mode} mode ({param.help})")
        out[name] = param.check(name, value)
    for constraint in spec.constraints:
        constraint(out)
    return out
