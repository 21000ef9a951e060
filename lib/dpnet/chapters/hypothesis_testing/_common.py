"""What the items of chapter ``hypothesis-testing`` share: the alternatives, the two likelihoods, the
authors' number of rounds, and the small helpers of their tables and figures."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Protocol

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from dpnet import survival as sv

__all__ = ["LABEL", "NOISE", "THETA1", "THETA_TMB", "VARIANTS", "code_rounds", "fit_row", "forest", "titled"]

#: The simple alternative of the ACTG runs: hazard ratio 1/2.
THETA1 = -math.log(2.0)
#: The cancer cohort's alternative: hazard ratio 0.15.
THETA_TMB = math.log(0.15)
#: The two likelihoods: the paper's eq. (3), and the authors' notebook's.
VARIANTS = ("paper", "as_published")
LABEL = {"paper": "paper's likelihood", "as_published": "as published (authors' code)"}
#: The noise convention that goes with each likelihood (the notebook's is twice the paper's scale).
NOISE = {"paper": "paper", "as_published": "authors_code"}


def code_rounds(values: Mapping[str, Any]) -> int:
    """The authors' rounds ``K = ⌈2 log(2/α)⌉`` of a private run at level ``alpha`` (``|Θ| = 2``, η = α),
    as the cost terms model them."""
    return math.ceil(2 * math.log(2 / values["alpha"]))


def fit_row(model: sv.LifelinesCox, /, **labels: Any) -> dict[str, Any]:
    """A table row of a lifelines fit: its labels, log hazard ratio, 95 % interval and Wald p."""
    return {**labels, "coef": model.coef, "ci_low": model.ci_low, "ci_high": model.ci_high, "p": model.p}


def forest(fit: sv.LifelinesCox, label: str, color: str = "C0") -> dict[str, Any]:
    """A row of :func:`dpnet.plotting.forest_plot` from a lifelines fit."""
    return {"label": label, "color": color, **vars(fit)}


class Setting(Protocol):
    """The setting of a private run, as its figures' titles state it."""

    @property
    def n_centers(self) -> int: ...
    @property
    def eps(self) -> float: ...
    @property
    def alpha(self) -> float: ...
    @property
    def rho(self) -> float: ...


def titled(fig: Figure, ax: Axes, run: Setting, *extra: str) -> None:
    """Title a private run's figure with its setting, and put the centres' legend (from ``ax``) below.

    The centres are named by the authors' labels ``0 … n − 1`` (patient ``j`` goes to centre ``j mod n``),
    as the chapter's tables and Figure 3's "centre 1" name them.
    """
    title = f"n = {run.n_centers} centres, ε = {run.eps:g}, α = 1 − β = {run.alpha:g}, ϱ = {run.rho:g}"
    fig.suptitle(", ".join((title, *extra)))
    handles = ax.get_legend_handles_labels()[0]
    labels = [f"centre {i}" for i in range(len(handles))]
    fig.legend(handles, labels, loc="outside lower center", ncol=min(run.n_centers, 5))
