"""Figure idioms shared by the chapters: one look across the book."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

__all__ = ["critical_budget_heatmap", "panel_row", "power_curves"]

STYLE = {
    "figure.dpi": 110,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "font.size": 10,
    "legend.fontsize": 8,
    "legend.frameon": False,
}


def panel_row(ncols: int, *, width: float = 4.2, height: float = 3.4) -> tuple[Figure, np.ndarray]:
    """A row of ``ncols`` panels in the book's style."""
    with plt.rc_context(STYLE):
        fig, axes = plt.subplots(1, ncols, figsize=(width * ncols, height), layout="constrained")
    for ax in np.atleast_1d(axes):
        ax.grid(True, alpha=STYLE["grid.alpha"])
        ax.spines[["top", "right"]].set_visible(False)
    return fig, np.atleast_1d(axes)


def power_curves(
    ax: Axes,
    eps: ArrayLike,
    curves: Mapping[str, ArrayLike],
    reference: Mapping[str, float],
    *,
    errors: Mapping[str, ArrayLike] | None = None,
    title: str = "",
    steps: bool = False,
) -> None:
    """Power against ε, one curve per label, with its individual-test power ``β_IND`` dashed.

    ``reference`` maps each label to its β_IND (equal values are drawn once, in grey). ``errors``
    (standard errors) are drawn as ±2 s.e. bands. ``steps`` draws piecewise-constant curves, for
    exact powers that jump between grid points.
    """
    eps_arr = np.asarray(eps, dtype=float)
    shared = len(set(np.round(list(reference.values()), 12))) == 1
    for k, (label, power) in enumerate(curves.items()):
        colour = f"C{k}"
        ax.plot(
            eps_arr, power, color=colour, lw=1.6, label=label, drawstyle="steps-post" if steps else "default"
        )
        if errors is not None:
            se = np.asarray(errors[label])
            ax.fill_between(
                eps_arr, np.asarray(power) - 2 * se, np.asarray(power) + 2 * se, color=colour, alpha=0.2, lw=0
            )
        if not shared:
            ax.axhline(reference[label], color=colour, ls="--", lw=1)
    if shared:
        value = next(iter(reference.values()))
        ax.axhline(value, color="0.3", ls="--", lw=1, label=r"$\beta_{\mathrm{IND}}$" + f" = {value:.3f}")
    ax.set_xlabel(r"privacy budget $\varepsilon$")
    ax.set_ylabel(r"power $\beta$")
    ax.set_ylim(0, 1.02)
    ax.set_xlim(eps_arr[0], eps_arr[-1])
    ax.set_title(title)
    ax.legend(loc="lower right", frameon=False)


def critical_budget_heatmap(
    ax: Axes,
    table: ArrayLike,
    n_values: Sequence[int],
    p_values: Sequence[float],
    *,
    title: str = "",
    vmax: float | None = None,
    fmt: str = "{:.2f}",
) -> None:
    """Annotated heat map of ε* (rows n, columns p), viridis as in the paper."""
    data = np.asarray(table, dtype=float)
    image = ax.imshow(
        data, cmap="viridis", vmin=0, vmax=vmax if vmax is not None else np.nanmax(data), aspect="auto"
    )
    for i in range(data.shape[0]):
        for j in range(data.shape[1]):
            value = data[i, j]
            text = "—" if not np.isfinite(value) else fmt.format(value)
            shade = "white" if not np.isfinite(value) or value < 0.6 * (vmax or np.nanmax(data)) else "black"
            ax.text(j, i, text, ha="center", va="center", color=shade, fontsize=9)
    ax.set_xticks(range(len(p_values)), [f"{p:g}" for p in p_values])
    ax.set_yticks(range(len(n_values)), [str(n) for n in n_values])
    ax.set_xlabel("signal accuracy $p$")
    ax.set_ylabel("agents $n$")
    ax.grid(False)
    ax.set_title(title)
    ax.figure.colorbar(image, ax=ax, label=r"$\varepsilon^*$")
