"""Chapter 2 (distributed-mle) as a whole: its parameters, its named streams, its footprint, and what every
result it records states."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from dpnet import book
from dpnet.chapters import distributed_mle as chapter
from dpnet.chapters import resolve
from dpnet.chapters._items import item_modules
from dpnet.errors import ParameterError
from dpnet.params import Cost, total
from dpnet.reference.catalogue import CATALOGUE
from dpnet.results import RECORDED


def defaults() -> dict:
    return book.read_defaults(book.get_chapter("distributed-mle"))


def test_defaults_come_from_the_schema_with_mode_replications() -> None:
    assert defaults() == {"mode": "quick"}
    quick = resolve("distributed-mle", defaults())
    assert quick["replications"] == 400 and quick["graph"] == "complete" and quick["seed"] == 20250302
    assert resolve("distributed-mle", {**defaults(), "mode": "full"})["replications"] == 2000
    assert quick.is_paper("n_agents", "graph", "alpha", "beta", "eps_demo")
    assert not resolve("distributed-mle", {"graph": "cycle"}).is_paper("graph")


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("n_states", 1, r"n_states must be an integer ≥ 2"),
        ("n_agents", 2, r"n_agents must be an integer ≥ 3"),
        ("graph", "torus", r"graph must be one of 'complete', 'cycle'"),
        ("eps_values", [1.0, 0.0], r"eps_values must be"),
        ("beta", 1.0, r"beta must be a real number in the open interval \(0, 1\)"),
        ("K_values", [0, 3], r"K_values must be .*integer ≥ 1"),
        ("gap_values", [1.0], r"gap_values must be a list of at least 2"),
    ],
)
def test_bad_parameters_name_the_parameter(name: str, value: object, message: str) -> None:
    with pytest.raises(ParameterError, match=message):
        resolve("distributed-mle", {**defaults(), name: value})


def test_named_streams_keep_the_integer_keys_of_the_published_runs() -> None:
    P = resolve("distributed-mle", {})
    assert P.stream("data").key == (100, 1) and P.stream("trajectories").key == (100, 2)
    assert P.stream("eps-sweep").child(3, 1).key == (0, 3, 1)
    data = np.random.default_rng(np.random.SeedSequence([P.seed, 100, 1])).binomial(
        100, np.linspace(0.3, 0.9, 5)
    )
    assert np.array_equal(chapter.instance(P).successes, data)


def test_erdos_renyi_edge_probability_below_connectivity_is_refused_up_front() -> None:
    """G(n, p) below ln(n)/n is almost never connected: refused by name, not after 1000 failed draws."""
    with pytest.raises(ParameterError, match=r"^edge_prob must be at least ln\(n\)/n = 0.322"):
        resolve("distributed-mle", {"graph": "erdos_renyi", "edge_prob": 0.01})
    assert resolve("distributed-mle", {"edge_prob": 0.01})["edge_prob"] == 0.01  # unused: complete
    P = resolve("distributed-mle", {"graph": "erdos_renyi", "edge_prob": 0.33})
    assert chapter.instance(P).n == 5


def test_the_footprint_adds_up_the_item_modules_costs() -> None:
    modules = item_modules(chapter.__name__)
    names = [m.__name__.rsplit(".", 1)[1] for m in modules]
    assert names[:2] == ["cor44_feasibility", "error_rates"] and {"p003_table1", "p000_table2"} <= set(names)
    values = dict(resolve("distributed-mle", {}))
    costs = [m.cost(values) for m in modules]
    assert all(isinstance(c, Cost) for c in costs)
    sweeps = {"mle_errors_vs_eps", "mle_errors_vs_k", "mle_errors_vs_gap", "mle_win_probability",
              "mle_gm_every_round"}  # fmt: skip
    assert {n for n, c in zip(names, costs, strict=True) if c != Cost()} == sweeps
    assert chapter.SCHEMA.footprint is not None
    assert chapter.SCHEMA.footprint(values) == total(costs, seconds=20.0)


def test_every_recorded_result_states_all_five_members() -> None:
    for result in (chapter.Instance, chapter.Ties, chapter.EpsSweep, chapter.GapSweep, chapter.WinFloor,
                   chapter.Summary, chapter.ExactRecovery, chapter.Schedules, chapter.Scaling,
                   chapter.LowerBound, chapter.Constants, chapter.EveryRound):  # fmt: skip
        assert all(hasattr(result, name) for name in RECORDED), result.__name__
        assert result.checks == {} and result.deviations == () and result.paper_setting is True
    for result in (chapter.Verdict, chapter.Paper000, chapter.Complexity):  # they check the papers' items
        members = {f.name for f in dataclasses.fields(result)} | set(dir(result))
        assert set(RECORDED) <= members, result.__name__


def test_one_module_per_item_each_with_its_headline_check() -> None:
    items = [item for item in CATALOGUE if item.chapter == "distributed-mle"]
    names = {m.__name__.rsplit(".", 1)[1] for m in item_modules(chapter.__name__)}
    assert {item.key.replace("-", "_") for item in items} <= names
    keys = {"p003-thm4-1", "p003-thm4-2", "p003-thm4-3", "p003-cor4-4", "p000-thm3-1", "p000-thm3-3",
            "p003-table1", "p000-table2"}  # fmt: skip
    assert {item.key for item in items} == keys
    assert all(item.headline and item.check for item in items)


def test_ex_mle_floor_rerun_with_six_states_misses_theta_star_as_the_solution_says() -> None:
    """The exercise ex-mle-floor re-runs the chapter with n_states = 6: at zero gap the paper's K misses θ*
    with a rate that agrees with (1 − 1/6)^K within its interval, an interval above the target 1 − β."""
    P = resolve("distributed-mle", {"n_states": 6})
    inst = chapter.instance(P)
    K = chapter.gap_sweep(resolve("distributed-mle", {"n_states": 6, "gap_values": [0.0, 1.0]}), inst).rounds
    floor = chapter.win_floor(P, inst, K)
    record, exact = floor.at(K["AM, paper"]), chapter.rounds_exercise(P).paper_miss
    assert K["AM, paper"] == chapter.rounds_exercise(P).rounded("paper") == 15
    assert record["type2_lo"] <= exact <= record["type2_hi"] and record["type2_lo"] > 1 - P.beta
