"""Smoke tests of the shared figure helpers (drawn on an Agg figure)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
from matplotlib.container import ErrorbarContainer
from matplotlib.figure import Figure

from dpnet.plotting import (
    error_rate_axes,
    fixed_ticks,
    guarantee_line,
    log_ticks,
    plain_log,
    plot_error_rates,
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
