"""Chapter 6 (distributed-estimation) as a whole: its parameters, its named streams, its footprint, and the
checks every item records under fixed names, even without a dataset."""

from __future__ import annotations

import dataclasses

import pytest
from small import FIG4_US, US, small

from dpnet import reference
from dpnet.chapters import distributed_estimation as chapter
from dpnet.chapters import resolve
from dpnet.chapters._items import item_modules
from dpnet.estimation import DATASETS
from dpnet.params import Cost, total
from dpnet.results import RECORDED
from dpnet.sweep import Stream

#: The checks each item records in every run, under fixed names: the chapter's badges point at them.
CHECK_NAMES = {
    "p001-fig2": {f"{d}-{k}" for d in ("us", "german") for k in ("size", "beta-star", "a-max")}
    | {"us-lambda-n"},
    "p001-table1": {f"alg{k}-{q}" for k in (3, 4, 5) for q in ("cop", "cod")} | {"bounds"},
    "p001-fig3": {"convergence-time", "us-noise-invisible", "german-rate", "german-huge-cost",
                  "german-huge-cost-eps1", "german-low-consumers"},
    "p001-fig4": {"us-cost-of-privacy", "us-total-error", "us-network-costlier", "us-noise-from-weights",
                  "us-privacy-dominates", "german-noise-from-sensitivity", "german-privacy-dominates",
                  "german-high-cost"},
    "p001-fig5": {"us-noise-invisible", "us-without-dp-early", "german-without-dp-early",
                  "german-without-dp-late", "german-with-dp-late"},
    "p001-fig6": {f"{d}-{q}-last-decade" for d in ("us", "german") for q in ("without-dp", "with-dp")}
    | {"us-noticeable-cost", "us-ol-s-without-dp", "us-ol-n-without-dp", "us-mvue-without-dp", "us-ordering"},
    "p001-fig7": {"us-network-costlier", "us-signal-negligible-code", "us-signal-negligible-paper",
                  "us-ol-n-values", "us-mvue-n-values", "us-mvue-s-first", "us-ol-s-first",
                  "us-network-factor", "german-ol-s-value", "german-ol-n-value"},
    "p001-sec5-2": {"us-paths", "us-fig7", "german-paths", "german-fig7", "domain", "guarantee"},
}  # fmt: skip


def test_chapter_defaults_are_the_paper_setting_and_the_published_streams() -> None:
    """Every default is the paper's (or the published figure's) value, and the named streams keep the
    integer keys that seeded the published runs, so naming them changed no draw."""
    P = resolve("distributed-estimation", {})
    assert P.is_paper() and P.seed == 20230801 and P.data_seed == 0 and P.n_mc == 1000
    assert P.dataset == list(DATASETS) and P.eps_values == list(reference.estimation.FIG7_EPS)
    assert resolve("distributed-estimation", {"mode": "full"}).n_mc == 2000
    keys = {"p001-fig2-layout": (700, 0), "p001-table1": (701, 0), "p001-fig3": (702, 0),
            "p001-fig4": (702, 1), "p001-fig5": (702, 2), "p001-fig6": (702, 3), "naive-noise": (703, 0),
            "p001-fig7": (704,)}  # fmt: skip
    for name, key in keys.items():
        assert P.stream(name) == Stream(20230801, key, name)
    assert chapter.signal_stream(P, "us_power_grid") == Stream(0, (1,), "signals/us_power_grid")
    assert chapter.signal_stream(P, "german_households").key == (2,)
    assert not resolve("distributed-estimation", {"horizon": 50}).is_paper("horizon")


def test_the_footprint_adds_up_the_item_modules_costs() -> None:
    """One module per published item and per experiment of the book's own, each with its cost; the
    footprint is their total over 20 s of kernel, imports and figures."""
    modules = item_modules(chapter.__name__)
    names = [m.__name__.rsplit(".", 1)[1] for m in modules]
    assert names == ["est_naive_noise", "est_optimal_noise", "p001_fig2", "p001_fig3", "p001_fig4",
                     "p001_fig5", "p001_fig6", "p001_fig7", "p001_sec5_2", "p001_table1",
                     "slopes"]  # fmt: skip
    values = dict(resolve("distributed-estimation", {}))
    costs = [m.cost(values) for m in modules]
    assert all(isinstance(c, Cost) for c in costs)
    assert {n for n, c in zip(names, costs, strict=True) if c == Cost()} == {"est_optimal_noise", "slopes"}
    assert chapter.SCHEMA.footprint is not None
    assert chapter.SCHEMA.footprint(values) == total(costs, seconds=20.0)


@pytest.mark.parametrize(
    ("mode", "memory", "seconds"),
    [("quick", 590_556_048.0, 140.36699226), ("full", 590_556_048.0, 206.92616726)],
)
def test_the_footprint_at_the_defaults(mode: str, memory: float, seconds: float) -> None:
    """The US grid's dense spectrum (the largest peak) plus the sample paths kept; 20 s of kernel and
    figures plus the spectra, the moment check, the sample paths and their drawing, the naive-noise runs,
    Figure 7 (three noises) and the guarantee's measurement."""
    need = chapter.SCHEMA.footprint(dict(resolve("distributed-estimation", {"mode": mode})))
    assert need.memory == pytest.approx(memory, rel=1e-9) and need.seconds == pytest.approx(seconds, rel=1e-9)


def test_every_recorded_result_states_all_five_members() -> None:
    """Each result class declares the five members :meth:`dpnet.results.Results.record` reads, as fields,
    properties or methods."""
    results = (chapter.Networks, chapter.MomentStudy, chapter.NoiseComparison, chapter.SamplePaths,
               chapter.NaiveNoise, chapter.Slopes, chapter.BudgetSweep, chapter.SmoothGuarantee)  # fmt: skip
    for result in results:
        fields = {f.name for f in dataclasses.fields(result)}
        assert all(name in fields or hasattr(result, name) for name in RECORDED), result.__name__


@pytest.fixture(scope="module")
def german_run():
    """The chapter's experiments on the German households alone, 30 rounds, a small ε grid."""
    P = small("distributed-estimation")
    nets = chapter.networks(P)
    fig3 = chapter.mvue_signal(P, nets)
    fig5 = chapter.online_signal(P, nets)
    return {
        "P": P, "nets": nets, "p001-table1": chapter.moment_study(P), "p001-fig3": fig3,
        "p001-fig4": chapter.mvue_network(P, nets, fig3), "p001-fig5": fig5,
        "p001-fig6": chapter.online_network(P, nets, fig3, chapter.online_signal(P, nets)),
        "p001-fig7": chapter.error_vs_budget(P, nets), "p001-sec5-2": chapter.smooth_guarantee(P, nets),
    }  # fmt: skip


def test_every_badged_check_is_recorded_even_without_a_dataset(german_run) -> None:
    """Without the US grid every check is still recorded under its name (undefined for the US); off the
    paper's horizon the items are not on the paper's setting, and no published value is compared."""
    outcomes = {
        "p001-fig2": german_run["nets"],
        **{k: v for k, v in german_run.items() if k.startswith("p001")},
    }
    for item, names in CHECK_NAMES.items():
        checks = outcomes[item].checks[item]
        assert {c.name for c in checks} == names, item
        assert len(checks) == len(names), item
        for c in checks:
            if c.name.startswith("us-") or "-us-" in c.name:
                assert c.passed is None and c.detail.startswith("undefined"), (item, c)
    for item in ("p001-fig3", "p001-fig4", "p001-fig5", "p001-fig6", "p001-fig7", "p001-sec5-2"):
        assert outcomes[item].paper_setting is False
    verdicts = {c.name: c.passed for c in outcomes["p001-fig5"].checks["p001-fig5"]}
    assert verdicts["german-without-dp-late"] is None  # 30 rounds do not reach t = 1000
    assert verdicts["german-without-dp-early"] is not None
    assert {c.name: c.passed for c in outcomes["p001-fig7"].checks["p001-fig7"]}["german-ol-s-value"] is None


@pytest.mark.parametrize("text", ["spec", "prototype"])
def test_claims_never_cite_material_readers_lack(text: str):
    """The report shows every claim and detail: none may cite the reproduction spec."""
    checks = (
        reference.estimation.graph_checks({"us_power_grid": US, "german_households": None})
        + reference.estimation.mvue_network_checks(FIG4_US, None, published=True)
        + reference.estimation.us_nonprivate_checks(reference.estimation.US_NONPRIVATE, published=True)
        + reference.estimation.us_figure7_checks(None, None, published=True)
        + reference.estimation.german_ol_checks(None)
        + reference.estimation.guarantee_checks({"us_power_grid": {"paths": [(1.0, 0.0)], "fig7": []}})
        + reference.estimation.bound_checks([{"case": "Algorithm 3 (MVUE)", "error": 1.0, "bound": 2.0}])
        + reference.estimation.convergence_time_check(None)
        + reference.estimation.noise_invisible_check("us-noise-invisible", "US", [1.0])
        + reference.estimation.privacy_cost_check("german-huge-cost", "German", 5.0, 1.0)
        + reference.estimation.low_consumers_check(0.7)
        + reference.estimation.noticeable_cost_check(0.3, 0.0)
    )
    for check in checks:
        assert text not in (check.claim + check.detail).lower(), check


def test_every_item_names_a_headline_check_that_the_chapter_records() -> None:
    """Each catalogue item of the chapter has a headline claim and names a check its experiment records."""
    from dpnet.reference.catalogue import CATALOGUE

    items = {item.key: item for item in CATALOGUE if item.chapter == "distributed-estimation"}
    assert set(items) == set(CHECK_NAMES)
    for key, item in items.items():
        assert item.headline and item.check in CHECK_NAMES[key], key
