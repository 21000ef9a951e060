"""Paper 003, Figure 14.5: the two-threshold rule's frequencies per centre on the cancer cohort.

The runs, the check and the deviation are Figure 14.4's
(:func:`~dpnet.chapters.hypothesis_testing.p003_fig14_4.cancer_estimation` records both items); this
module draws the figure from them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from matplotlib.figure import Figure

from dpnet import plotting
from dpnet.chapters.hypothesis_testing._common import LABEL, titled
from dpnet.chapters.hypothesis_testing.p003_fig14_4 import CancerEstimation
from dpnet.params import Cost
from dpnet.reference import clinical

__all__ = ["cost", "two_threshold_figure"]


def cost(values: Mapping[str, Any]) -> Cost:
    """Nothing of its own: its runs are Figure 14.4's, counted there
    (:func:`dpnet.chapters.hypothesis_testing.p003_fig14_4.cost`)."""
    return Cost()


def two_threshold_figure(run: CancerEstimation) -> Figure:
    """Figure 14.5: the two-threshold rule's frequencies per centre (panels: covariates)."""
    states = ["θ = 0", "θ = log 0.15"]
    fig, axes = plotting.panel_row(2, height=3.4)
    for ax, (cov, st) in zip(axes, run.studies.items(), strict=True):
        plotting.belief_bars(ax, st.counts, states, title=f"two-threshold, {cov} TMB",
                             threshold=clinical.FIG145_FREQ, ylabel="fraction of rounds won")  # fmt: skip
    titled(fig, axes[0], run, LABEL[run.main])
    return fig
