"""Chapter 2 (distributed-mle): parameter schema and the checks of paper 003 Table 1, paper 000 Table 2."""

from __future__ import annotations

import math

import pytest

from dpnet import book, networks, reference
from dpnet import inference as inf
from dpnet.errors import ParameterError
from dpnet.params import resolve


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


def table1_inputs() -> tuple:
    actg = reference.ACTG_SETTING
    prob = inf.ProblemConstants(
        n=actg["n"], n_states=actg["n_states"], n_mle=actg["n_mle"], gamma=actg["gamma"], gap=actg["gap"]
    )
    code = inf.schedule_authors_code(
        prob, a_star=actg["a_star"], delta=actg["delta"], eps=actg["eps"], alpha=actg["alpha"],
        beta=actg["beta"], rho=actg["rho"],
    )  # fmt: skip
    noise = tuple(
        float(inf.noise_scale(actg["delta"], actg["n_states"], actg["eps"], code.K, convention=c))
        for c in ("paper", "authors_code")
    )
    code_K = {
        eta: inf.rounds_authors_code(reference.CODE_ROUNDS_STATES, eta) for eta in reference.CODE_ROUNDS
    }
    k5 = networks.spectral_constants(networks.make_graph("complete", 5))
    slope = (1 / math.log(1 / k5.a_star), 1 / math.log(1 / k5.a_star))
    return code_K, (code.K, code.T), noise, (k5.b_star, k5.a_star), slope


def test_table1_checks_pass_on_library_values_and_catch_a_wrong_one() -> None:
    inputs = table1_inputs()
    checks = reference.table1_checks(*inputs)
    assert len(checks) == 5 and all(passed for _, passed, _ in checks), checks
    code_K, k_t, noise, constants, slope = inputs
    wrong = reference.table1_checks(code_K, (k_t[0], k_t[1] + 1), (noise[0], noise[0]), constants, slope)
    assert [passed for _, passed, _ in wrong] == [True, False, False, True, True]


def test_table2_checks_pass_on_library_values() -> None:
    k1, k2 = inf.rounds_thres(3, 1, 0.05, 0.95, 0.5, 0.5)
    rounds = {"am": inf.rounds_am(3, 1, 0.95), "gm": inf.rounds_gm(3, 1, 0.05),
              "unknown": inf.rounds_unknown_mle(3, 0.05, 0.95), "thres_1": k1, "thres_2": k2}  # fmt: skip
    spectral = {}
    for kind in reference.SPECTRAL_N5:
        c = networks.spectral_constants(networks.make_graph(kind, 5))  # type: ignore[arg-type]
        spectral[kind] = (c.b_star, c.a_star)
    delta = inf.bernoulli_sensitivity([0.3, 0.5, 0.7], 20)
    pilot = reference.SPEC000_PILOT
    pilot_KT = {}
    for name, K, constant in (("am", 6, inf.mixing_constant_am), ("gm", 4, inf.mixing_constant_gm)):
        V = inf.noise_std_sum(inf.noise_scale(delta, 3, pilot["eps"], K), 5)
        target = {"beta": 0.95} if name == "am" else {"alpha": 0.05}
        c = constant(n_states=3, n=5, K=K, gamma=pilot["gamma"], V=V, **target)
        T = inf.iterations_bound(c, pilot["rho"], n=5, gap=pilot["gap"], a_star=spectral["cycle"][1])
        pilot_KT[name] = (K, inf.to_int_ceil(T))
    checks = reference.table2_checks(
        rounds, {k: inf.to_int_ceil(v) for k, v in rounds.items()}, spectral,
        {m: inf.exact_recovery_boundaries(m) for m in reference.SPEC000_BOUNDARIES}, delta, pilot_KT,
    )  # fmt: skip
    assert len(checks) == 6 and all(passed for _, passed, _ in checks), checks
    off = reference.table2_checks(
        {**rounds, "unknown": 12.2836}, {k: inf.to_int_ceil(v) for k, v in rounds.items()}, spectral,
        {m: inf.exact_recovery_boundaries(m) for m in reference.SPEC000_BOUNDARIES}, delta, pilot_KT,
    )  # fmt: skip
    assert not off[0][1]
