"""Smoke tests of the shared figure helpers (drawn on an Agg figure)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
from matplotlib.container import ErrorbarContainer
from matplotlib.figure import Figure

from dpnet.plotting import (
    critical_budget_heatmap,
    dilemma_figure,
    error_rate_axes,
    fixed_ticks,
    guarantee_line,
    log_ticks,
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
