"""The book's table slopes (chapter distributed-estimation): the fitted rates of paper Figures 3, 5 and 6
in one table, and its cost."""

from __future__ import annotations

from dpnet.chapters import distributed_estimation as chapter
from dpnet.chapters import resolve
from dpnet.chapters.distributed_estimation import slopes
from dpnet.params import Cost
from dpnet.results import RECORDED


def test_slopes_table_gathers_figures_3_5_and_6() -> None:
    """The German MVUE rate first, then the dataset's slopes of Figure 5 and of Figure 6."""
    P = resolve("distributed-estimation", {"dataset": "german_households", "horizon": 150})
    nets = chapter.networks(P)
    fig3, fig5 = chapter.mvue_signal(P, nets), chapter.online_signal(P, nets)
    fig6 = chapter.online_network(P, nets, fig3, fig5)
    table = chapter.slope_table(fig3, fig5, fig6)
    # Figure 5's German rows: the figure's path without and with DP, then the RMS over 30 data draws that
    # the early window's check fits
    assert list(table.table.algorithm) == ["MVUE", "OL-S", "OL-S", "OL-S", "OL-N", "OL-N"]
    assert list(table.table.window) == ["[75, 150]", *["[10, 100]"] * 3, "[15, 150]", "[15, 150]"]
    assert table.table.quantity.iloc[3] == "error without DP, RMS over 30 data draws"
    assert list(table.tables()) == ["slopes"] and len(table.metrics()["slopes"]) == 6
    assert all(hasattr(table, name) for name in RECORDED)
    assert table.checks == {} and table.deviations == () and table.paper_setting
    values = table.glue_values()
    assert list(values) == ["us_ol_s_slope", "us_ol_s_exact"] and all(v != v for v in values.values())  # nan


def test_slopes_cost_is_negligible() -> None:
    assert slopes.cost({}) == Cost()
