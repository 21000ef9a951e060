"""Paper 001, Figure 2 (chapter distributed-estimation): the two networks, their graph facts and cost,
and the checks of ``dpnet.reference.estimation.graph_checks``."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import pytest
from check_cases import all_pass as _all
from check_cases import named as _named
from check_cases import verdicts as _verdicts
from small import GERMAN, US

from dpnet import reference as ref
from dpnet.chapters import distributed_estimation as chapter
from dpnet.chapters import resolve
from dpnet.chapters.distributed_estimation import p001_fig2


def test_graph_checks_pass_on_the_published_values_and_fail_off_them():
    checks = _named(ref.estimation.graph_checks({"us_power_grid": US, "german_households": GERMAN}))
    assert _all(checks)
    assert set(_verdicts(checks)) == {
        "us-size", "us-beta-star", "us-lambda-n", "us-a-max",
        "german-size", "german-beta-star", "german-a-max",
    }  # fmt: skip
    assert not _all(ref.estimation.graph_checks({"us_power_grid": {**US, "beta_star": 0.99980}}))
    assert not _all(ref.estimation.graph_checks({"german_households": {**GERMAN, "m": 13235}}))
    assert not _all(ref.estimation.graph_checks({"german_households": {**GERMAN, "connected": False}}))
    absent = ref.estimation.graph_checks({"us_power_grid": None, "german_households": GERMAN})
    assert {n: p for n, p in _verdicts(absent).items() if n.startswith("us")} == dict.fromkeys(
        ("us-size", "us-beta-star", "us-lambda-n", "us-a-max")
    )


def test_p001_fig2_networks_on_the_german_households_alone() -> None:
    """The German network passes its checks, the US grid's are undefined; its facts fill the table, the
    metrics and the figure's two German panels, and the US values are nan."""
    P = resolve("distributed-estimation", {"dataset": "german_households", "horizon": 30})
    nets = chapter.networks(P)
    assert nets.names == ("german_households",) and nets.paper_setting
    verdicts = _verdicts(nets.checks["p001-fig2"])
    assert all(verdicts[n] for n in ("german-size", "german-beta-star", "german-a-max"))
    assert all(v is None for n, v in verdicts.items() if n.startswith("us-"))
    assert list(nets.tables()) == ["graph_facts"] and len(nets.table) == 1
    assert nets.metrics()["graph_facts"]["german_households"]["n"] == 969
    assert [t for t, _, _ in nets.deviations] == ["p001-fig2"]
    assert all(math.isnan(v) for v in nets.spectrum("us_power_grid").values())
    beta = nets.facts["german_households"].beta_star
    assert nets.spectrum("german_households")["beta_T"] == pytest.approx(beta**30)
    fits = nets.lognormal_fits()
    assert math.isnan(fits["us_degree_mu"]) and fits["german_fit_mu_all"] == pytest.approx(1.67, abs=0.01)
    figure = nets.figure(P.rng("p001-fig2-layout"))
    titles = [ax.get_title() for ax in figure.axes[:4]]
    assert titles[1].startswith("(b) geometric graph, n = 969") and titles[2:] == ["", ""]
    plt.close(figure)


def test_p001_fig2_cost_is_the_largest_dense_spectrum() -> None:
    both = p001_fig2.cost({"dataset": ["us_power_grid", "german_households"], "horizon": "paper"})
    assert both.seconds == pytest.approx(30.3) and both.peak == 16.0 * 4941**2 and both.kept == 0.0
    german = p001_fig2.cost({"dataset": "german_households", "horizon": 50})
    assert german.seconds == pytest.approx(0.3) and german.peak == 16.0 * 969**2
