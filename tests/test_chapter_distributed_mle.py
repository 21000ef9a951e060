"""Chapter 2 (distributed-mle): parameter schema and the checks of paper 003 Table 1, paper 000 Table 2."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from dpnet import book, networks, reference
from dpnet import inference as inf
from dpnet.chapters import resolve
from dpnet.errors import ParameterError


def defaults() -> dict:
    return book.read_defaults(book.get_chapter("distributed-mle"))


def test_defaults_resolve_with_mode_replications() -> None:
    quick = resolve("distributed-mle", defaults())
    assert quick["replications"] == 400 and quick["graph"] == "complete"
    assert resolve("distributed-mle", {**defaults(), "mode": "full"})["replications"] == 2000
    assert reference.is_table1_setting(quick["n_agents"], quick["graph"], quick["alpha"], quick["beta"])


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


def test_table_checks_pass_on_the_library_values() -> None:
    inputs = reference.table_inputs()
    table1, table2 = reference.table1_checks(inputs), reference.table2_checks(inputs)
    assert len(table1) == 3 and all(passed for _, passed, _ in table1), table1
    assert len(table2) == 6 and all(passed for _, passed, _ in table2), table2
    # the pilot's K come from the rounds (K_AM, K_GM rounded up), not from the reference values
    assert [inputs.pilot[k][0] for k in ("am", "gm")] == [inputs.rounds_ceil["am"], inputs.rounds_ceil["gm"]]


@pytest.mark.parametrize(
    ("change", "table", "failing"),
    [
        ({"code_rounds": {0.05: 8, 0.025: 9, 0.1: 7}}, 1, 0),
        ({"actg_k_t": (8, 22)}, 1, 1),
        ({"actg_noise": (22.18, 22.18)}, 1, 2),
        ({"rounds_ceil": {"am": 6, "gm": 4, "unknown": 13, "thres_1": 8, "thres_2": 7}}, 2, 1),
        ({"spectral": {**reference.SPECTRAL_N5, "complete": (0.25, 0.376)}}, 2, 2),
        ({"boundaries": {5: (0.2764, 0.7236), 10: (0.112702, 0.887298), 20: (0.052786, 0.947214)}}, 2, 3),
        ({"sensitivity": 16.9460}, 2, 4),
        ({"pilot": {"am": (6, 23), "gm": (5, 26)}}, 2, 5),
    ],
)
def test_table_checks_catch_a_wrong_value(change: dict, table: int, failing: int) -> None:
    wrong = dataclasses.replace(reference.table_inputs(), **change)
    checks = reference.table1_checks(wrong) if table == 1 else reference.table2_checks(wrong)
    assert [passed for _, passed, _ in checks] == [i != failing for i in range(len(checks))]


def test_table2_rounds_check_catches_the_fourth_decimal() -> None:
    inputs = reference.table_inputs()
    off = dataclasses.replace(inputs, rounds={**inputs.rounds, "unknown": 12.2836})
    assert [passed for _, passed, _ in reference.table2_checks(off)] == [False] + [True] * 5


def chapter_instance() -> tuple[inf.ProblemConstants, float, float]:
    """An instance of the default chapter's kind (its |Θ|, n, graph and signals; a draw of its own)."""
    P = resolve("distributed-mle", defaults())
    thetas = np.linspace(0.2, 0.8, P["n_states"])
    rng = np.random.default_rng(P["seed"])
    successes = rng.binomial(P["n_signals"], np.linspace(0.3, 0.9, P["n_agents"]))
    loglik = inf.bernoulli_loglik(successes, P["n_signals"], thetas)
    a_star = networks.spectral_constants(networks.make_graph(P["graph"], P["n_agents"])).a_star
    return inf.problem_constants(loglik), a_star, float(inf.bernoulli_sensitivity(thetas, 1))


def test_eps_slope_check_passes_on_the_chapter_slope_and_fails_off_it() -> None:
    prob, a_star, delta = chapter_instance()
    slope = inf.iterations_eps_slope(
        prob, a_star=a_star, delta=delta, alpha=0.05, beta=0.95, rho=reference.ACTG_SETTING["rho"]
    )
    inputs = reference.table_inputs()
    checks = reference.table1_checks(inputs, slope)
    assert len(checks) == 4 and checks[-1][1], checks[-1]
    # a slope off by twice the derived tolerance, or measured outside the mixing regime, fails
    off = dataclasses.replace(slope, measured=slope.predicted * (1 - 2 * slope.tolerance))
    assert not reference.table1_checks(inputs, off)[-1][1]
    assert not reference.table1_checks(inputs, dataclasses.replace(slope, mixing_limited=False))[-1][1]
    # with the optimal ϱ* the chapter's prose compares against 1/log(2/a*)
    optimal = inf.iterations_eps_slope(prob, a_star=a_star, delta=delta, alpha=0.05, beta=0.95)
    assert abs(optimal.measured / optimal.predicted - 1) <= optimal.tolerance
