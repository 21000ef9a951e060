"""Smoke tests of the shared figure helpers (drawn on an Agg figure)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
from matplotlib.container import ErrorbarContainer
from matplotlib.figure import Figure

from dpnet.plotting import (
    FIGURE_WIDTH,
    MIN_FONT_SIZE,
    RENDERED_WIDTH,
    STYLE,
    LegibilityError,
    check_legible,
    critical_budget_heatmap,
    dilemma_figure,
    error_rate_axes,
    fixed_ticks,
    forest_plot,
    guarantee_line,
    legibility,
    log_ticks,
    panel_grid,
    panel_row,
    panel_rows,
    plain_log,
    plot_error_rates,
    power_curves,
)

RECORDS = [
    {"type1": 0.02, "type1_lo": 0.01, "type1_hi": 0.04},
    {"type1": 0.10, "type1_lo": 0.07, "type1_hi": 0.14},
    {"type1": 0.30, "type1_lo": 0.25, "type1_hi": 0.35},
]


def _axes():  # type: ignore[no-untyped-def]
    fig = Figure()
    return fig, fig.add_subplot()


def test_plot_error_rates_draws_clopper_pearson_bars() -> None:
    fig, ax = _axes()
    bars = plot_error_rates(
        ax, [1.0, 2.0, 5.0], RECORDS, "type1", label="GM", color="C0", shift=2.0, faint=True
    )
    assert isinstance(bars, ErrorbarContainer) and bars.get_label() == "GM"
    line = bars.lines[0]
    np.testing.assert_allclose(line.get_xdata(), [2.0, 4.0, 10.0])
    np.testing.assert_allclose(line.get_ydata(), [0.02, 0.10, 0.30])
    assert line.get_alpha() == pytest.approx(0.45) and line.get_linewidth() == pytest.approx(1.0)
    segments = bars.lines[2][0].get_segments()  # vertical bars from _lo to _hi
    np.testing.assert_allclose([seg[:, 1] for seg in segments], [[0.01, 0.04], [0.07, 0.14], [0.25, 0.35]])
    fig.canvas.draw()


def test_guarantee_line_and_error_axes() -> None:
    fig, ax = _axes()
    line = guarantee_line(ax, 0.05, "α", ls=":")
    assert line.get_ydata()[0] == 0.05 and line.get_label() == "α" and line.get_linestyle() == ":"
    error_rate_axes(ax, "type2", top=0.25)
    assert ax.get_ylim() == pytest.approx((0.0, 0.255))
    assert list(ax.get_yticks()) == [0, 0.01, 0.02, 0.05, 0.1, 0.2]
    assert ax.get_ylabel().startswith("Type II")
    error_rate_axes(ax, "exact")
    assert (
        list(ax.get_yticks()) == [0, 0.01, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0] and ax.get_ylabel() == "error"
    )
    fig.canvas.draw()
    assert [t.get_text() for t in ax.get_yticklabels()][:3] == ["0", "0.01", "0.05"]


def test_tick_helpers() -> None:
    fig, ax = _axes()
    ax.plot([0.3, 700.0], [1.0, 2.0])
    ax.set_xscale("log")
    log_ticks(ax.xaxis, [0.3, 700.0])
    assert list(ax.get_xticks()) == pytest.approx([0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500])
    log_ticks(ax.xaxis, [3.0, 4.0])  # no 1-2-5 tick inside: the two ends
    assert list(ax.get_xticks()) == [3.0, 4.0]
    fixed_ticks(ax.yaxis, [1.0, 1.5, 2.0])
    plain_log(ax.xaxis)
    fig.canvas.draw()
    assert [t.get_text() for t in ax.get_yticklabels()] == ["1", "1.5", "2"]
    assert ax.yaxis.get_minor_locator().tick_values(1, 2) == []


def test_power_curves_draw_one_line_per_curve_and_each_reference() -> None:
    fig, ax = _axes()
    eps = np.linspace(0, 2, 5)
    curves = {"a": eps / 2, "b": eps / 3}
    power_curves(ax, eps, curves, {"a": 0.1, "b": 0.2}, errors={"a": eps * 0, "b": eps * 0}, steps=True)
    assert [line.get_label() for line in ax.lines[::2]] == ["a", "b"]  # each curve, then its β_IND
    assert [line.get_drawstyle() for line in ax.lines[::2]] == ["steps-post"] * 2
    assert [line.get_ydata()[0] for line in ax.lines[1::2]] == [0.1, 0.2]
    assert len(ax.collections) == 2  # one ±2 s.e. band per curve
    _, shared = _axes()
    power_curves(shared, eps, curves, {"a": 0.1, "b": 0.1})  # equal β_IND: one grey line, labelled
    assert len(shared.lines) == 3 and shared.lines[-1].get_label().endswith("= 0.100")
    assert not shared.collections
    fig.canvas.draw()


def test_critical_budget_heatmap_annotates_every_cell() -> None:
    fig, ax = _axes()
    table = np.array([[0.2, np.nan, 0.4], [0.15, 0.3, 0.5]])
    critical_budget_heatmap(ax, table, [25, 100], [0.6, 0.7, 0.9], title="ε*")
    np.testing.assert_array_equal(ax.images[0].get_array().filled(np.nan), table)
    assert [t.get_text() for t in ax.texts] == ["0.20", "—", "0.40", "0.15", "0.30", "0.50"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0.6", "0.7", "0.9"]
    assert len(fig.axes) == 2  # and a colour bar
    fig.canvas.draw()


def test_dilemma_figure_has_the_three_panels_of_figures_1_and_2() -> None:
    n_values, p_values, eps = [25, 50, 100], [0.6, 0.7], np.linspace(0, 5, 11)
    power = np.random.default_rng(0).random((3, 2, 11))
    star = np.arange(6.0).reshape(3, 2) / 10
    fig = dilemma_figure(eps, power, [0.075, 0.1167], star, n_values, p_values, n_panel=50, p_panel=0.7,
                         errors=power / 10, heatmap_title="ε*", title="Figure")  # fmt: skip
    over_n, over_p, heat = fig.axes[:3]
    # left: one curve per n at p = 0.7, one shared β_IND line
    assert [line.get_label() for line in over_n.lines[:-1]] == ["n = 25", "n = 50", "n = 100"]
    np.testing.assert_array_equal(over_n.lines[2].get_ydata(), power[2, 1])
    assert over_n.lines[-1].get_ydata()[0] == 0.1167 and over_n.get_title() == "p = 0.7"
    # middle: one curve and one β_IND line per p at n = 50
    np.testing.assert_array_equal(over_p.lines[0].get_ydata(), power[1, 0])
    assert [over_p.lines[k].get_ydata()[0] for k in (1, 3)] == [0.075, 0.1167]
    assert over_p.get_title() == "n = 50" and len(over_p.collections) == 2
    np.testing.assert_array_equal(heat.images[0].get_array(), star)
    assert heat.get_title() == "ε*" and fig.get_suptitle() == "Figure"
    fig.canvas.draw()


# --- one style, legible at the book's width ---------------------------------------------------------


def test_the_rendered_width_is_the_themes_content_column() -> None:
    # 88rem page, 20 % navigation, 17rem page contents, 2 × 2rem padding, at 96 px per inch
    assert RENDERED_WIDTH * 96 == pytest.approx(1408 * 0.8 - 272 - 64, abs=0.5)
    assert FIGURE_WIDTH < RENDERED_WIDTH and MIN_FONT_SIZE == 8


def test_a_six_point_label_on_a_wide_figure_is_refused() -> None:
    fig = Figure(figsize=(16, 4))
    ax = fig.add_subplot()
    ax.plot([0, 1], [0, 1], label="centre 1")
    ax.set_xlabel("iteration t", fontsize=6)
    with pytest.raises(LegibilityError) as error:
        check_legible(fig, "p003-fig9")
    message = str(error.value)
    saved, _ = legibility(fig)
    assert message.startswith(
        f"figure 'p003-fig9' has text smaller than 8 pt as the book shows it (the figure is {saved:.2f} in "
        "wide and is shown 8.23 in wide): x label 'iteration t': 6 pt drawn, "
        f"{6 * RENDERED_WIDTH / saved:.1f} pt shown; "
    )
    assert "legend" not in message  # no legend was drawn


def test_text_that_is_large_enough_drawn_but_shrunk_below_8_pt_is_refused() -> None:
    with matplotlib.rc_context(STYLE):  # the book's tick labels (8.5 pt), whatever ran before
        fig = Figure(figsize=(2 * RENDERED_WIDTH, 3), layout="constrained")
        ax = fig.add_subplot()
        ax.set_title("twice too wide", fontsize=12)  # 12 pt drawn, about 6 pt shown
        saved, texts = legibility(fig)
        assert saved == pytest.approx(2 * RENDERED_WIDTH, rel=0.03)
        title = next(t for t in texts if t.role == "title")
        assert title.size == 12 and title.rendered == pytest.approx(12 * RENDERED_WIDTH / saved)
        with pytest.raises(LegibilityError) as error:
            check_legible(fig, "wide")
    assert f"title 'twice too wide': 12 pt drawn, {title.rendered:.1f} pt shown" in str(error.value)
    assert "x tick label '0.0', '0.2', '0.4', …: 8.5 pt drawn" in str(error.value)


def test_a_figure_of_the_book_passes_and_every_text_is_counted() -> None:
    fig, axes = panel_row(2)
    axes[0].plot([1, 2], [3, 4], label="GM")
    axes[0].legend()
    axes[0].set(title="a", xlabel="ε", ylabel="power")
    forest_plot(axes[1], [{"label": "pooled", "coef": -0.5, "ci_low": -0.8, "ci_high": -0.2, "p": 4.9e-6}])
    fig.suptitle("one figure")
    check_legible(fig, "fine")
    saved, texts = legibility(fig)
    assert saved <= RENDERED_WIDTH
    roles = {t.role for t in texts}
    assert {"title", "x label", "y label", "x tick label", "legend", "figure title", "text"} <= roles
    assert min(t.rendered for t in texts) >= MIN_FONT_SIZE
    assert "p = 4.9×10⁻⁶" in {t.text for t in texts}  # the annotation, without an e


def test_panel_helpers_fit_the_column_and_apply_the_style() -> None:
    fig, axes = panel_grid(2, 3)
    assert axes.shape == (2, 3) and fig.get_size_inches()[0] == pytest.approx(FIGURE_WIDTH)
    axes[0, 0].plot([0, 1], label="x")
    axes[0, 0].legend()
    assert axes[0, 0].get_legend().get_texts()[0].get_fontsize() == matplotlib.rcParams["legend.fontsize"]
    assert matplotlib.rcParams["legend.fontsize"] >= MIN_FONT_SIZE
    fig, rows = panel_rows([2, 1], heights=[2.5, 1.5], titles=["top", ""])
    assert [len(row) for row in rows] == [2, 1] and fig.get_size_inches()[1] == pytest.approx(4.0)
    check_legible(fig, "rows")
    fig, axes = panel_grid(1, 2, row_titles=["a row"])
    assert axes.shape == (1, 2)
    check_legible(fig, "titled")
