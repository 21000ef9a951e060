"""Figure idioms shared by the chapters: one look across the book.

Every figure of the book is drawn in one style (:data:`STYLE`), put in force by the helpers that make
figures (:func:`panel_row`, :func:`panel_grid`), and sized for the width at which the book shows it
(:data:`RENDERED_WIDTH`): a figure wider than the book's column is shrunk to it, and its text with it.
:func:`check_legible` (called by :meth:`dpnet.results.Results.figure` before a figure is saved) refuses a
figure with text smaller than :data:`MIN_FONT_SIZE` points at that width.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.axis import Axis
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.collections import LineCollection
from matplotlib.container import ErrorbarContainer
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter, NullLocator
from matplotlib.transforms import Bbox
from numpy.typing import ArrayLike

from dpnet.formatting import formatted, number

__all__ = [
    "FIGURE_WIDTH",
    "MIN_FONT_SIZE",
    "RENDERED_WIDTH",
    "SMALL",
    "STYLE",
    "LegibilityError",
    "TextSize",
    "band_curves",
    "belief_bars",
    "check_legible",
    "critical_budget_heatmap",
    "dilemma_figure",
    "error_rate_axes",
    "fixed_ticks",
    "forest_plot",
    "grouped_bars",
    "guarantee_line",
    "km_curves",
    "legibility",
    "log_binned_density",
    "log_ticks",
    "network_drawing",
    "panel_grid",
    "panel_mosaic",
    "panel_row",
    "panel_rows",
    "plain_log",
    "plot_error_rates",
    "power_curves",
    "ratio_paths",
    "sample_paths",
    "use_style",
]

#: The width (inches, at the browser's 96 px per inch) at which the book shows a figure: the content
#: column of the book's HTML theme at its widest. sphinx-book-theme caps the page at 88rem (1,408 px),
#: gives the navigation sidebar 20 % of it and the page's table of contents 17rem (272 px), and pads
#: the article by 2rem on each side: 1,408 × 0.8 − 272 − 64 = 790 px. Images are capped at 100 % of
#: that column (``img {max-width: 100%}``), so a wider figure is shrunk, text and all. (A cell tagged
#: ``full-width`` is 136 % of the column, so the check is conservative there.)
RENDERED_WIDTH = 790 / 96
#: The smallest text the book prints, in points, at :data:`RENDERED_WIDTH`.
MIN_FONT_SIZE = 8.0
#: The book's smallest font (points), for dense legends and annotations of a figure at most
#: :data:`RENDERED_WIDTH` wide.
SMALL = 8.0
#: The book's rc settings: fonts, lines, legends, layout and resolution of every figure.
STYLE: dict[str, Any] = {
    "figure.dpi": 110,
    "figure.constrained_layout.use": True,
    "savefig.pad_inches": 0.05,
    "font.size": 9.0,
    "axes.titlesize": 9.5,
    "axes.labelsize": 9.0,
    "axes.titlepad": 4.0,
    "axes.linewidth": 0.8,
    "xtick.labelsize": 8.5,
    "ytick.labelsize": 8.5,
    "xtick.major.width": 0.8,
    "ytick.major.width": 0.8,
    "legend.fontsize": 8.5,
    "legend.title_fontsize": 8.5,
    "legend.framealpha": 0.85,
    "legend.edgecolor": "0.85",
    "legend.handlelength": 1.6,
    "legend.labelspacing": 0.35,
    "legend.columnspacing": 1.0,
    "legend.borderaxespad": 0.4,
    "figure.titlesize": 10.0,
    "figure.labelsize": 9.0,
    "lines.linewidth": 1.5,
    "lines.markersize": 5.0,
    "grid.linewidth": 0.6,
}
#: A figure's default width (inches): the rendered width less the padding ``bbox_inches="tight"`` adds,
#: so that a figure of this width is shown at its own size.
FIGURE_WIDTH = RENDERED_WIDTH - 2 * STYLE["savefig.pad_inches"]
GRID_ALPHA = 0.3


def use_style() -> None:
    """Put the book's :data:`STYLE` in force (in Matplotlib's global rc settings).

    The figure helpers call it, so the titles, legends, colour bars and annotations a chapter adds
    after making its axes are drawn in the book's style too.
    """
    mpl.rcParams.update(STYLE)


def _panel_style(axes: Iterable[Axes]) -> None:
    for ax in axes:
        ax.grid(True, alpha=GRID_ALPHA)
        ax.spines[["top", "right"]].set_visible(False)


def panel_grid(
    nrows: int,
    ncols: int,
    *,
    width: float | None = None,
    height: float = 2.8,
    row_titles: Sequence[str] | None = None,
    **subplots: Any,
) -> tuple[Figure, np.ndarray]:
    """A grid of panels in the book's style: an array of axes of shape ``(nrows, ncols)``.

    ``width`` is each panel's width (by default :data:`FIGURE_WIDTH` shared by the columns) and
    ``height`` each row's height, in inches. ``row_titles`` (one per row) title each row of panels
    above its panels' own titles. Other keyword arguments go to :meth:`~matplotlib.figure.Figure.subplots`
    (``sharex``, ``sharey``, ``gridspec_kw``, …).
    """
    panel = FIGURE_WIDTH / ncols if width is None else width
    if row_titles is not None:
        if len(row_titles) != nrows:
            raise ValueError(f"panel_grid: {len(row_titles)} row titles for {nrows} rows")
        fig, rows = panel_rows([ncols] * nrows, heights=[height] * nrows, titles=row_titles,
                               width=panel * ncols, **subplots)  # fmt: skip
        return fig, np.array(rows)
    use_style()
    fig = plt.figure(figsize=(panel * ncols, height * nrows), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False, **subplots)
    _panel_style(axes.flat)
    return fig, axes


def panel_rows(
    ncols: Sequence[int],
    *,
    heights: Sequence[float],
    titles: Sequence[str] | None = None,
    width: float = FIGURE_WIDTH,
    **subplots: Any,
) -> tuple[Figure, list[np.ndarray]]:
    """Rows of panels laid out independently (one sub-figure each): ``ncols[i]`` panels in row ``i``,
    ``heights[i]`` inches high, with an optional bold title above each row.

    Each row's panels share its width (``width`` inches in all), whatever the other rows hold: a
    row of two survival curves above a row holding one wide forest plot, say. Returns the figure and
    one array of axes per row. An empty title leaves its row untitled. Other keyword arguments go to
    :meth:`~matplotlib.figure.SubFigure.subplots`.
    """
    use_style()
    fig = plt.figure(figsize=(width, sum(heights)), layout="constrained")
    subs = fig.subfigures(len(ncols), 1, height_ratios=list(heights), squeeze=False)[:, 0]
    rows = [sub.subplots(1, n, squeeze=False, **subplots)[0] for sub, n in zip(subs, ncols, strict=True)]
    for sub, title in zip(subs, titles or (), strict=False):
        if title:
            sub.suptitle(title, fontsize=mpl.rcParams["axes.titlesize"], fontweight="bold")
    for row in rows:
        _panel_style(row)
    return fig, rows


def panel_mosaic(
    layout: Sequence[Sequence[str]], *, width: float | None = None, height: float = 2.8, **subplots: Any
) -> tuple[Figure, dict[str, Axes]]:
    """Panels laid out by name (:meth:`~matplotlib.figure.Figure.subplot_mosaic`) in the book's style.

    ``layout`` lists the rows, each a list of panel names; a name repeated spans several cells.
    ``width`` is the width of one column (by default :data:`FIGURE_WIDTH` shared by the columns) and
    ``height`` each row's height, in inches.
    """
    use_style()
    nrows, ncols = len(layout), len(layout[0])
    panel = FIGURE_WIDTH / ncols if width is None else width
    fig = plt.figure(figsize=(panel * ncols, height * nrows), layout="constrained")
    axes = fig.subplot_mosaic([list(row) for row in layout], **subplots)
    _panel_style(axes.values())
    return fig, axes


def panel_row(ncols: int, *, width: float | None = None, height: float = 3.0) -> tuple[Figure, np.ndarray]:
    """A row of ``ncols`` panels in the book's style (``width`` per panel: see :func:`panel_grid`)."""
    fig, axes = panel_grid(1, ncols, width=width, height=height)
    return fig, axes[0]


# --- legibility ----------------------------------------------------------------------------------


class LegibilityError(ValueError):
    """A figure has text smaller than :data:`MIN_FONT_SIZE` at the book's :data:`RENDERED_WIDTH`."""


@dataclass(frozen=True)
class TextSize:
    """One piece of text a figure draws: what it says, where it is, and its size in points.

    ``size`` is the font size the figure was drawn with; ``rendered`` the size a reader sees once the
    figure (saved with ``bbox_inches="tight"``) is shrunk to the book's width.
    """

    text: str
    role: str
    size: float
    rendered: float


class _TextRecorder(RendererAgg):
    """An Agg renderer that notes every string drawn, with its font size and its artist."""

    def __init__(self, width: float, height: float, dpi: float) -> None:
        super().__init__(width, height, dpi)
        self.drawn: list[tuple[str, float, Any]] = []

    def draw_text(self, gc: Any, x: float, y: float, s: str, prop: Any, angle: float,
                  ismath: Any = False, mtext: Any = None) -> None:  # fmt: skip
        if s.strip():
            self.drawn.append((s, float(prop.get_size_in_points()), mtext))
        super().draw_text(gc, x, y, s, prop, angle, ismath=ismath, mtext=mtext)


def _roles(fig: Any) -> dict[int, str]:
    """What each text artist of ``fig`` is (``"title"``, ``"x label"``, ``"tick label"``, …), by id."""
    roles: dict[int, str] = {}

    def legend(leg: Any) -> None:
        if leg is not None:
            roles.update({id(t): "legend" for t in leg.get_texts()})
            roles[id(leg.get_title())] = "legend title"

    def axes(ax: Axes) -> None:
        for title in (ax.title, ax._left_title, ax._right_title):
            roles[id(title)] = "title"
        for name, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            roles[id(axis.label)] = f"{name} label"
            roles[id(axis.get_offset_text())] = f"{name} offset"
            for tick in [*axis.majorTicks, *axis.minorTicks]:
                roles[id(tick.label1)] = roles[id(tick.label2)] = f"{name} tick label"
        legend(ax.get_legend())
        for child in ax.child_axes:  # secondary axes
            axes(child)

    def figure(f: Any, top: bool) -> None:
        for ax in f.get_axes():
            axes(ax)
        for leg in f.legends:
            legend(leg)
        for attr in ("_suptitle", "_supxlabel", "_supylabel"):
            if getattr(f, attr, None) is not None:
                title = "figure title" if top else "row title"
                roles[id(getattr(f, attr))] = title if attr == "_suptitle" else "figure label"
        for sub in f.subfigs:
            figure(sub, False)

    figure(fig, True)
    return roles


def _measured(fig: Figure, rendered_width: float, dpi: float | None = None) -> tuple[Bbox, list[TextSize]]:
    """Draw ``fig`` once at ``dpi`` (its own by default): its saved extent at that resolution (inches)
    and every text it draws, at the size shown."""
    own = fig.dpi
    fig.set_dpi(own if dpi is None else dpi)  # as savefig(dpi=…) does while it draws
    try:
        renderer = _TextRecorder(fig.bbox.width, fig.bbox.height, fig.dpi)
        fig.draw(renderer)  # runs the figure's layout engine, as savefig does
        extent = fig.get_tightbbox(renderer).padded(mpl.rcParams["savefig.pad_inches"])
    finally:
        fig.set_dpi(own)
    scale = min(1.0, rendered_width / extent.width)
    roles = _roles(fig)
    texts = [
        TextSize(text, roles.get(id(artist), "text"), size, size * scale)
        for text, size, artist in renderer.drawn
    ]
    return extent, texts


def legibility(fig: Figure, rendered_width: float = RENDERED_WIDTH) -> tuple[float, list[TextSize]]:
    """Every text ``fig`` draws, at the size a reader sees it, and the figure's saved width.

    The figure is drawn once (its layout engine included); its saved width is that of its tight
    bounding box plus the padding ``savefig`` adds (``bbox_inches="tight"``). A figure wider than
    ``rendered_width`` is shrunk to it, so each text's rendered size is
    ``size × min(1, rendered_width / saved width)``.

    Returns ``(saved width in inches, texts)``.
    """
    extent, texts = _measured(fig, rendered_width)
    return extent.width, texts


def check_legible(
    fig: Figure, name: str, *, minimum: float = MIN_FONT_SIZE, dpi: float | None = None
) -> Bbox:
    """Raise :class:`LegibilityError` naming the figure and its texts smaller than ``minimum`` points
    at the book's width (:func:`legibility`).

    Returns the figure's extent in inches as ``savefig(dpi=dpi, bbox_inches="tight")`` crops it (text
    extents depend a little on the resolution, through font hinting), so that the figure can be saved
    at ``dpi`` with ``bbox_inches=extent`` without being drawn once more to find it. ``dpi`` is the
    figure's own by default.
    """
    saved, texts = _measured(fig, RENDERED_WIDTH, dpi)
    small = [t for t in texts if t.rendered < minimum - 1e-6]
    if not small:
        return saved
    groups: dict[tuple[str, float, float], list[str]] = {}  # (role, size, shown size) → the texts
    for t in small:
        texts_of = groups.setdefault((t.role, t.size, t.rendered), [])
        if t.text not in texts_of:
            texts_of.append(t.text)
    ordered = sorted(groups.items(), key=lambda g: (g[0][2], g[0][0]))

    def said(role: str, size: float, shown: float, words: list[str]) -> str:
        quoted = ", ".join(repr(w) for w in words[:3]) + (", …" if len(words) > 3 else "")
        return f"{role} {quoted}: {size:g} pt drawn, {shown:.1f} pt shown"

    listed = "; ".join(said(*key, words) for key, words in ordered[:6])
    more = f" (and {len(ordered) - 6} more kinds of text)" if len(ordered) > 6 else ""
    shrink = (
        f"the figure is {saved.width:.2f} in wide and is shown {RENDERED_WIDTH:.2f} in wide"
        if saved.width > RENDERED_WIDTH
        else "the figure is shown at its own size"
    )
    raise LegibilityError(
        f"figure {name!r} has text smaller than {minimum:g} pt as the book shows it ({shrink}): "
        f"{listed}{more}. Use fewer panels per row, a narrower figure or larger fonts "
        f"(dpnet.plotting.STYLE; at most {FIGURE_WIDTH:.2f} in wide, nothing below {minimum:g} pt)."
    )


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
    colorbar: bool = True,
) -> Any:
    """Annotated heat map of ε* (rows n, columns p), viridis as in the paper; returns the image.

    ``colorbar=False`` leaves out the panel's colour bar, for panels that share one
    (``fig.colorbar(image, ax=axes)``).
    """
    data = np.asarray(table, dtype=float)
    image = ax.imshow(
        data, cmap="viridis", vmin=0, vmax=vmax if vmax is not None else np.nanmax(data), aspect="auto"
    )
    for i in range(data.shape[0]):
        for j in range(data.shape[1]):
            value = data[i, j]
            text = "—" if not np.isfinite(value) else fmt.format(value)
            shade = "white" if not np.isfinite(value) or value < 0.6 * (vmax or np.nanmax(data)) else "black"
            ax.text(j, i, text, ha="center", va="center", color=shade)
    ax.set_xticks(range(len(p_values)), [f"{p:g}" for p in p_values])
    ax.set_yticks(range(len(n_values)), [str(n) for n in n_values])
    ax.set_xlabel("signal accuracy $p$")
    ax.set_ylabel("agents $n$")
    ax.grid(False)
    ax.set_title(title)
    if colorbar:
        ax.figure.colorbar(image, ax=ax, label=r"$\varepsilon^*$")
    return image


def dilemma_figure(
    eps: ArrayLike,
    power: ArrayLike,
    beta_ind: Sequence[float],
    critical_budget: ArrayLike,
    n_values: Sequence[int],
    p_values: Sequence[float],
    *,
    n_panel: int,
    p_panel: float,
    errors: ArrayLike | None = None,
    steps: bool = False,
    heatmap_title: str = "",
    title: str = "",
) -> Figure:
    """The three panels of paper 003's Figures 1 and 2 for one mechanism.

    Left: power against ε for every ``n`` at ``p = p_panel``; middle: for every ``p`` at
    ``n = n_panel`` (:func:`power_curves`, each with its ``β_IND`` dashed); right: the heat map of
    ``critical_budget`` (:func:`critical_budget_heatmap`). ``power`` and ``errors`` (standard errors,
    optional) have shape ``(len(n_values), len(p_values), len(eps))``, ``beta_ind`` one value per
    ``p`` and ``critical_budget`` shape ``(len(n_values), len(p_values))``.
    """
    n_list, p_list = list(n_values), list(p_values)
    i, j = n_list.index(n_panel), p_list.index(p_panel)
    pw = np.asarray(power, dtype=float)
    se = None if errors is None else np.asarray(errors, dtype=float)
    fig, ax = panel_row(3, height=3.2)
    over_n = {f"n = {n}": k for k, n in enumerate(n_list)}
    power_curves(
        ax[0], eps, {label: pw[k, j] for label, k in over_n.items()},
        {label: beta_ind[j] for label in over_n},
        errors=None if se is None else {label: se[k, j] for label, k in over_n.items()},
        title=f"p = {p_panel:g}", steps=steps,
    )  # fmt: skip
    over_p = {f"p = {p:g}": k for k, p in enumerate(p_list)}
    power_curves(
        ax[1], eps, {label: pw[i, k] for label, k in over_p.items()},
        {label: beta_ind[k] for label, k in over_p.items()},
        errors=None if se is None else {label: se[i, k] for label, k in over_p.items()},
        title=f"n = {n_panel}", steps=steps,
    )  # fmt: skip
    critical_budget_heatmap(ax[2], critical_budget, n_list, p_list, title=heatmap_title)
    fig.suptitle(title)
    return fig


def _plain(value: float, _pos: Any = None) -> str:
    return formatted(value, "g")


def fixed_ticks(axis: Axis, values: Iterable[float]) -> None:
    """Major ticks at exactly ``values`` with plain labels (``f"{v:g}"``, powers of ten as ``10⁶``, no
    mathtext), no minor ticks."""
    axis.set_major_locator(FixedLocator(list(values)))
    axis.set_major_formatter(FuncFormatter(_plain))
    axis.set_minor_locator(NullLocator())


def plain_log(axis: Axis) -> None:
    """Plain labels (``f"{v:g}"``) on a log axis, and no minor-tick labels."""
    axis.set_major_formatter(FuncFormatter(_plain))
    axis.set_minor_formatter(NullFormatter())


def log_ticks(axis: Axis, values: ArrayLike) -> None:
    """Ticks at ``1, 2, 5 × 10^k`` (``k = −4..6``) within the range of ``values``, with plain labels.

    Falls back to the two ends of the range when fewer than two such ticks fit.
    """
    lo, hi = float(np.min(values)), float(np.max(values))
    ticks = [m * 10.0**e for e in range(-4, 7) for m in (1, 2, 5) if lo <= m * 10.0**e <= hi]
    fixed_ticks(axis, ticks if len(ticks) >= 2 else [lo, hi])


ERROR_LABELS = {
    "type1": "Type I error P[Θ̂ ⊄ Θ*]",
    "type2": "Type II error P[Θ* ⊄ Θ̂]",
    "exact": "error",
}


def plot_error_rates(
    ax: Axes,
    x: ArrayLike,
    records: Sequence[Mapping[str, float]],
    kind: str,
    *,
    label: str,
    color: str,
    marker: str = "o",
    ls: str = "-",
    shift: float = 1.0,
    faint: bool = False,
) -> ErrorbarContainer:
    """Error rates ``records[j][kind]`` against ``x`` with their confidence intervals as error bars.

    Each record holds the rate under ``kind`` and its interval (e.g. 95 % Clopper–Pearson) under
    ``kind + "_lo"`` and ``kind + "_hi"`` (the flat records of
    :func:`~dpnet.inference.rates.error_rate_task`). ``shift`` multiplies ``x``, to spread overlapping
    markers on a log axis; ``faint`` draws a thin, translucent curve (an uncontrolled error).
    """
    y = np.array([r[kind] for r in records], dtype=float)
    lo = np.array([r[kind + "_lo"] for r in records], dtype=float)
    hi = np.array([r[kind + "_hi"] for r in records], dtype=float)
    return ax.errorbar(
        np.asarray(x, dtype=float) * shift,
        y,
        yerr=[y - lo, hi - y],
        label=label,
        color=color,
        marker=marker,
        ms=4,
        lw=1.0 if faint else 1.4,
        ls=ls,
        capsize=2,
        alpha=0.45 if faint else 1,
    )


def guarantee_line(ax: Axes, value: float, label: str, ls: str = "--") -> Line2D:
    """A horizontal dark-grey line at a guaranteed error level (``α``, ``1 − β``, …)."""
    return ax.axhline(value, color="0.15", ls=ls, lw=1.0, label=label)


def error_rate_axes(ax: Axes, kind: str, top: float = 1.0) -> None:
    """Error-rate y axis from 0 to ``1.02 top`` on a square-root scale, labelled for ``kind``.

    The square root keeps small rates (the guarantees) readable next to 1. ``kind`` is ``"type1"``,
    ``"type2"`` or ``"exact"`` (labelled "error"); ticks are plain, at 0, 0.01, 0.05, 0.1, … (with
    0.02 too when ``top ≤ 0.3``).
    """
    ax.set_yscale("function", functions=(lambda v: np.sqrt(np.maximum(v, 0)), np.square))
    ax.set_ylim(0, 1.02 * top)
    ticks = (0, 0.01, 0.02, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0)
    if top > 0.3:
        ticks = tuple(v for v in ticks if v != 0.02)
    fixed_ticks(ax.yaxis, [v for v in ticks if v <= top])
    ax.set_ylabel(ERROR_LABELS[kind])


def km_curves(
    ax: Axes, fitters: Mapping[str, Any], *, title: str, xlabel: str, xmax: float | None = None
) -> None:
    """Kaplan–Meier curves (lifelines fitters by label) with censoring ticks and no bands."""
    for label, fitter in fitters.items():
        fitter.plot_survival_function(ax=ax, ci_show=False, show_censors=True, label=label,
                                      censor_styles={"ms": 4, "marker": "|"})  # fmt: skip
    ax.set(title=title, xlabel=xlabel, ylabel="survival (event-free)", ylim=(0, 1.02))
    if xmax is not None:
        ax.set_xlim(0, xmax)
    ax.grid(alpha=GRID_ALPHA)
    ax.legend(loc="lower left")


def forest_plot(ax: Axes, rows: Sequence[Mapping[str, Any]], *, xlabel: str = "log hazard ratio") -> None:
    """Estimates with 95 % intervals, one row per record, top to bottom.

    Each record holds ``label``, ``coef``, ``ci_low``, ``ci_high`` and optionally ``color`` and ``p``
    (printed at the right of the interval).
    """
    for k, row in enumerate(rows):
        y = len(rows) - 1 - k
        color = row.get("color", "C0")
        ax.errorbar(row["coef"], y, xerr=[[row["coef"] - row["ci_low"]], [row["ci_high"] - row["coef"]]],
                    fmt="o", color=color, capsize=3, ms=5)  # fmt: skip
        if "p" in row:
            ax.annotate(f"p = {number(row['p'], 2)}", (row["ci_high"], y), xytext=(4, 0),
                        textcoords="offset points", va="center", fontsize=SMALL)  # fmt: skip
    ax.axvline(0, color="0.3", lw=0.8, ls=":")
    ax.set_yticks(range(len(rows)), [r["label"] for r in rows][::-1])
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.set_xlabel(xlabel)
    ax.grid(alpha=GRID_ALPHA, axis="x")


def belief_bars(
    ax: Axes,
    beliefs: ArrayLike,
    states: Sequence[str],
    *,
    title: str,
    threshold: float | None = None,
    ylabel: str = "belief",
) -> None:
    """Grouped bars of each agent's belief (rows of ``beliefs``, shape ``(n, |Θ|)``) over the states,
    with an optional dashed threshold."""
    arr = np.asarray(beliefs, dtype=float)
    n, m = arr.shape
    width = 0.8 / n
    for i in range(n):
        color = plt.cm.viridis(i / max(n - 1, 1))
        ax.bar(np.arange(m) + (i - (n - 1) / 2) * width, arr[i], width, color=color, label=f"centre {i + 1}")
    if threshold is not None:
        ax.axhline(threshold, color="0.15", ls="--", lw=1.0)
    ax.set_xticks(range(m), list(states))
    ax.set(title=title, ylabel=ylabel, ylim=(0, 1.05))
    ax.grid(alpha=GRID_ALPHA, axis="y")


def band_curves(
    ax: Axes,
    frame: Any,
    *,
    x: str,
    group: str,
    floor: float | None = None,
    z: float = 1.96,
) -> None:
    """One line per value of ``group`` with a band of ``±z`` standard errors.

    ``frame`` (a pandas DataFrame) holds the columns ``x``, ``group``, ``"mean"`` and ``"se"``; with
    ``floor``, the line and band are clipped below at ``floor`` (for a log axis that must show zeros).
    """
    for k, (key, part) in enumerate(frame.sort_values(x, kind="stable").groupby(group, sort=False)):
        xs = part[x].to_numpy(float)
        mean, se = part["mean"].to_numpy(float), part["se"].to_numpy(float)
        lo, hi = mean - z * se, mean + z * se
        if floor is not None:
            mean, lo, hi = (np.maximum(v, floor) for v in (mean, lo, hi))
        ax.plot(xs, mean, color=f"C{k}", marker="o", ms=3.5, label=f"{group} = {key}")
        ax.fill_between(xs, lo, hi, color=f"C{k}", alpha=0.18, lw=0)


def grouped_bars(
    ax: Axes,
    values: Mapping[str, Sequence[float]],
    categories: Sequence[Any],
    *,
    colors: Mapping[str, Any] | None = None,
    hatches: Mapping[str, str] | None = None,
) -> None:
    """Bars of several series side by side over ``categories`` (e.g. numbers of centres)."""
    width = 0.8 / max(len(values), 1)
    for k, (label, heights) in enumerate(values.items()):
        offset = (k - (len(values) - 1) / 2) * width
        ax.bar(np.arange(len(categories)) + offset, heights, width, label=label,
               color=(colors or {}).get(label, f"C{k}"), hatch=(hatches or {}).get(label),
               edgecolor="white", lw=0.5)  # fmt: skip
    ax.set_xticks(range(len(categories)), [str(c) for c in categories])
    ax.grid(alpha=GRID_ALPHA, axis="y")


def ratio_paths(
    ax: Axes,
    ratios: ArrayLike,
    *,
    t: ArrayLike | None = None,
    limit: float | None = None,
    limit_label: str = "non-private limit",
    name: str | None = "centre",
) -> None:
    """Each agent's time-averaged log-belief ratio against the period (``ratios`` of shape ``(len(t), n)``;
    ``t`` defaults to ``1..T``) on a log axis, with an optional dashed limit. The lines are labelled
    ``"<name> i"`` for a legend, or not at all with ``name=None``."""
    arr = np.asarray(ratios, dtype=float)
    periods = np.arange(1, arr.shape[0] + 1) if t is None else np.asarray(t)
    for i in range(arr.shape[1]):
        color = plt.cm.viridis(i / max(arr.shape[1] - 1, 1))
        ax.plot(periods, arr[:, i], color=color, lw=1.0, label=None if name is None else f"{name} {i + 1}")
    if limit is not None:
        ax.axhline(limit, color="0.1", ls="--", lw=1.2, label=limit_label)
    ax.axhline(0.0, color="0.6", lw=0.6)
    ax.set_xscale("log")
    ax.set_xlabel("period t")
    ax.grid(alpha=GRID_ALPHA)


def distance_paths(ax: Axes, distances: Mapping[str, ArrayLike], *, title: str, floor: float = 1e-3) -> None:
    """Distances to a reference (``label → values at t = 1, 2, …``) on log–log axes, floored at ``floor``.

    Colours follow the order of ``distances`` (C0, C1, …), so the same label keeps its colour across
    panels that list the same curves.
    """
    for k, (label, values) in enumerate(distances.items()):
        values = np.asarray(values, dtype=float)
        ax.plot(np.arange(1, values.size + 1), np.maximum(values, floor), color=f"C{k}", label=label)
    ax.set(xscale="log", yscale="log", ylim=(0.8 * floor, 1.2), xlabel="iteration t",
           ylabel="TVD to non-private", title=title)  # fmt: skip
    ax.legend()
    ax.grid(alpha=GRID_ALPHA)


def sample_paths(ax: Axes, t: ArrayLike, paths: ArrayLike, *, color: str = "C0", alpha: float = 0.15) -> None:
    """Every agent's path (``paths`` of shape ``(len(t), n)``) as one rasterised line collection.

    Thousands of agents draw in well under a second, and the vector output stays small.
    """
    x = np.asarray(t, dtype=float)
    y = np.asarray(paths, dtype=float)
    segments = np.stack([np.broadcast_to(x[:, None], y.shape), y], axis=-1).transpose(1, 0, 2)
    ax.add_collection(LineCollection(segments, colors=color, linewidths=0.5, alpha=alpha, rasterized=True))
    lo, hi = np.nanmin(y), np.nanmax(y)
    pad = 0.05 * (hi - lo or 1.0)
    ax.set_xlim(x.min(), x.max())
    ax.set_ylim(lo - pad, hi + pad)
    ax.grid(alpha=GRID_ALPHA)


def network_drawing(
    ax: Axes, positions: ArrayLike, edges: ArrayLike, values: ArrayLike, *, cmap: str = "Reds_r"
) -> None:
    """A network at its node positions: grey edges (alpha 0.4), nodes of size 5 coloured by ``values``."""
    pos = np.asarray(positions, dtype=float)
    links = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    ax.add_collection(LineCollection(pos[links], colors="0.4", linewidths=0.3, alpha=0.4, rasterized=True))
    ax.scatter(pos[:, 0], pos[:, 1], s=5, c=values, cmap=cmap, linewidths=0, rasterized=True)
    ax.set_aspect("equal")
    ax.set_axis_off()


def log_binned_density(values: ArrayLike, n_bins: int = 40) -> tuple[np.ndarray, np.ndarray]:
    """Empirical density of positive values on logarithmic bins: (geometric bin centres, density).

    Empty bins are dropped, so the result plots directly on log–log axes.
    """
    x = np.asarray(values, dtype=float).ravel()
    x = x[np.isfinite(x) & (x > 0)]
    if x.size < 2 or x.min() == x.max():
        raise ValueError("log_binned_density needs at least two distinct positive values")
    edges = np.geomspace(x.min(), x.max() * (1 + 1e-12), n_bins + 1)
    density, _ = np.histogram(x, bins=edges, density=True)
    centres = np.sqrt(edges[:-1] * edges[1:])
    keep = density > 0
    return centres[keep], density[keep]
