"""Chapter 2 (distributed-mle): its parameters, its experiments, the check of paper 003 Table 1, and the
identities behind Tables 1 and 2 that hold by construction (unit tests here, not checks of the report).

Every identity test also shows that it can fail: the same comparison rejects a value changed in the
last printed digit (or a slope off by twice its derived tolerance).
"""

from __future__ import annotations

import dataclasses
import math
import re
from pathlib import Path

import numpy as np
import pytest

from dpnet import book, networks, reference
from dpnet import inference as inf
from dpnet.chapters import distributed_mle as chapter
from dpnet.chapters import resolve
from dpnet.errors import ParameterError
from dpnet.params import Parameters

NOTES = Path(__file__).resolve().parents[1] / "book" / "notes" / "distributed_mle.md"


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


# --------------------------------------------------------------------------------------------------
# The one check of the report: the authors' code K and T against the notebook's published run
# --------------------------------------------------------------------------------------------------


def test_table1_check_passes_on_the_code_schedule_and_names_its_deviations() -> None:
    tables = chapter.complexity_checks()
    assert (tables.code.K, tables.code.T) == reference.ACTG_CODE_K_T
    [check] = tables.checks["p003-table1"]
    assert check.passed and check.name == "code-k-t" and tables.paper_setting
    assert "spec" not in check.claim.lower() and "spec" not in check.detail.lower()
    notes = NOTES.read_text()
    assert [item for item, _, _ in tables.deviations] == ["p003-table1", "p003-table1"]
    for _, title, note in tables.deviations:
        assert f"({note})=" in notes and "spec" not in title.lower()


@pytest.mark.parametrize(("K", "T"), [(8, 22), (9, 21), (8, 20)])
def test_table1_check_fails_on_another_schedule(K: int, T: int) -> None:
    [check] = reference.table1_checks(K, T)
    assert check.passed is False and f"K = {K}, T = {T}" in check.detail


# --------------------------------------------------------------------------------------------------
# Identities (they hold by construction): hand-worked values of the papers' formulas
# --------------------------------------------------------------------------------------------------


def code_rounds(n_states: int = reference.CODE_ROUNDS_STATES) -> dict[float, int]:
    return {eta: inf.rounds_authors_code(n_states, eta) for eta in reference.CODE_ROUNDS}


def test_authors_code_rounds_match_the_hand_computed_ones() -> None:
    assert code_rounds() == reference.CODE_ROUNDS
    assert code_rounds(3) != reference.CODE_ROUNDS  # the comparison can fail


def actg_noise(convention_code: inf.Convention = "authors_code") -> tuple[float, float]:
    s, (K, _) = reference.ACTG_SETTING, reference.ACTG_CODE_K_T
    return tuple(  # type: ignore[return-value]
        float(inf.noise_scale(s["delta"], s["n_states"], s["eps"], K, convention=c))
        for c in ("paper", convention_code)
    )


def noise_matches(scales: tuple[float, float]) -> bool:
    tol = reference.ACTG_NOISE_TOLERANCE
    return all(abs(b - want) <= tol for b, want in zip(scales, reference.ACTG_NOISE, strict=True))


def test_actg_noise_scales_are_the_paper_s_and_twice_it() -> None:
    assert noise_matches(actg_noise())
    assert not noise_matches(actg_noise("paper"))  # the comparison can fail: the code's scale is doubled


def three_state_rounds() -> dict[str, float]:
    ex = reference.THREE_STATE_EXAMPLE
    m, s, alpha, beta, pi = len(ex["thetas"]), ex["n_mle"], ex["alpha"], ex["beta"], ex["pi"]
    k1, k2 = inf.rounds_thres(m, s, alpha, beta, pi, pi)
    return {"am": inf.rounds_am(m, s, beta), "gm": inf.rounds_gm(m, s, alpha),
            "unknown": inf.rounds_unknown_mle(m, alpha, beta), "thres_1": k1, "thres_2": k2}  # fmt: skip


def rounds_match(rounds: dict[str, float]) -> bool:
    decimals = reference.THREE_STATE_ROUNDS_DECIMALS
    return all(round(rounds[k], decimals[k]) == v for k, v in reference.THREE_STATE_ROUNDS.items())


def test_paper000_rounds_match_the_hand_computed_ones_at_their_decimals() -> None:
    rounds = three_state_rounds()
    assert rounds_match(rounds)
    assert {k: inf.to_int_ceil(v) for k, v in rounds.items()} == reference.THREE_STATE_ROUNDS_CEIL
    assert not rounds_match({**rounds, "unknown": 12.2836})  # the fourth decimal counts


def spectral_n5() -> dict[str, tuple[float, float]]:
    out = {}
    for kind in reference.SPECTRAL_N5:
        c = networks.spectral_constants(networks.make_graph(kind, 5))  # type: ignore[arg-type]
        out[kind] = (c.b_star, c.a_star)
    return out


def spectral_matches(values: dict[str, tuple[float, float]]) -> bool:
    return all(
        np.allclose(values[g], want, rtol=0, atol=reference.SPECTRAL_TOLERANCE)
        for g, want in reference.SPECTRAL_N5.items()
    )


def test_metropolis_hastings_constants_of_five_node_graphs() -> None:
    values = spectral_n5()
    assert spectral_matches(values)
    assert not spectral_matches({**values, "complete": (0.25, 0.376)})


def test_exact_recovery_boundaries_and_feasibility_agree() -> None:
    tol = reference.SPECTRAL_TOLERANCE
    for m, (lo, hi) in reference.EXACT_RECOVERY_BOUNDARIES.items():
        assert np.allclose(inf.exact_recovery_boundaries(m), (lo, hi), rtol=0, atol=tol)
        assert not np.allclose(inf.exact_recovery_boundaries(m), (lo + 1e-4, hi), rtol=0, atol=tol)
        # an independent route: the feasibility test p₂ > p₁ changes exactly at the boundaries
        feasible = [inf.exact_recovery_feasible(m, s) for s in range(1, m)]
        assert feasible == [not lo < s / m < hi for s in range(1, m)]


def test_bernoulli_sensitivity_of_the_three_state_example() -> None:
    ex = reference.THREE_STATE_EXAMPLE
    delta = float(inf.bernoulli_sensitivity(ex["thetas"], ex["n_signals"]))
    assert abs(delta - reference.THREE_STATE_SENSITIVITY) <= 1e-6
    assert abs(16.9460 - reference.THREE_STATE_SENSITIVITY) > 1e-6  # the comparison can fail


def thm32_pilot() -> dict[str, tuple[int, int]]:
    ex, p = reference.THREE_STATE_EXAMPLE, reference.THM32_PILOT
    m, alpha, beta = len(ex["thetas"]), ex["alpha"], ex["beta"]
    delta = inf.bernoulli_sensitivity(ex["thetas"], ex["n_signals"])
    a_star = networks.spectral_constants(networks.make_graph(p["graph"], p["n"])).a_star
    ceil = {k: inf.to_int_ceil(v) for k, v in three_state_rounds().items()}
    out = {}
    for name, constant, target in (("am", inf.mixing_constant_am, {"beta": beta}),
                                   ("gm", inf.mixing_constant_gm, {"alpha": alpha})):  # fmt: skip
        K = ceil[name]
        V = inf.noise_std_sum(inf.noise_scale(delta, m, p["eps"], K), p["n"])
        c = constant(n_states=m, n=p["n"], K=K, gamma=p["gamma"], V=V, **target)
        T = inf.iterations_bound(c, p["rho"], n=p["n"], gap=p["gap"], a_star=a_star)
        out[name] = (K, inf.to_int_ceil(T))
    return out


def test_thm32_on_the_pilot_instance() -> None:
    pilot = thm32_pilot()
    assert [pilot[k] for k in ("am", "gm")] == [reference.THM32_PILOT["am"], reference.THM32_PILOT["gm"]]
    assert pilot["gm"] != (5, 26)  # the comparison can fail


def slope_matches(s: inf.EpsSlope) -> bool:
    """Table 1's ε column: T grows by 1/log(1/a*) per unit of log(1/ε), within the derived tolerance."""
    return s.mixing_limited and abs(s.measured - s.predicted) <= s.tolerance * s.predicted


def test_table1_eps_slope_holds_on_the_chapter_instance_and_fails_off_it() -> None:
    P = resolve("distributed-mle", {})
    scale = chapter.scaling(P, chapter.instance(P))
    fixed, optimal = scale.slope_fixed, scale.slope_optimal
    assert slope_matches(fixed) and fixed.predicted == pytest.approx(1 / math.log(1 / 0.375))
    assert not slope_matches(dataclasses.replace(fixed, measured=fixed.predicted * (1 - 2 * fixed.tolerance)))
    assert not slope_matches(dataclasses.replace(fixed, mixing_limited=False))
    # with the optimal ϱ* the prose compares against 1/log(2/a*)
    assert slope_matches(optimal) and optimal.predicted == pytest.approx(1 / math.log(2 / 0.375))


# --------------------------------------------------------------------------------------------------
# The experiments on small and unusual parameters
# --------------------------------------------------------------------------------------------------


def small(**overrides: object) -> Parameters:
    values = {"replications": 20, "eps_values": [0.5, 5.0], "K_values": [1, 4], "gap_values": [0.0, 3.0],
              "iterations": 20, **overrides}  # fmt: skip
    return resolve("distributed-mle", values)


def test_named_streams_keep_the_integer_keys_of_the_published_runs() -> None:
    P = resolve("distributed-mle", {})
    assert P.stream("data").key == (100, 1) and P.stream("trajectories").key == (100, 2)
    assert P.stream("eps-sweep").child(3, 1).key == (0, 3, 1)
    data = np.random.default_rng(np.random.SeedSequence([P.seed, 100, 1])).binomial(
        100, np.linspace(0.3, 0.9, 5)
    )
    assert np.array_equal(chapter.instance(P).successes, data)


def test_every_experiment_runs_on_small_parameters_and_keeps_its_record_order() -> None:
    P = small(n_agents=3, n_states=2, graph="path")
    inst = chapter.instance(P)
    eps = chapter.eps_sweep(P, inst)
    ks = chapter.k_sweep(P, inst, eps.freq43)
    gap = chapter.gap_sweep(P, inst)
    floor = chapter.win_floor(P, inst, gap.rounds)
    rows = chapter.summary(eps, ks, gap, floor).rows
    assert len(rows) == 10 * 2 + 4 * 2 + 7 * 2 + len(floor.Ks)
    assert [r["sweep"] for r in rows[:20]] == ["epsilon"] * 20 and rows[-1]["sweep"] == "floor"
    assert {r["algorithm"] for r in eps.records["am-T"]} == {"AM (T = 20)"}
    assert all(math.isfinite(r["miss_exact"]) for r in gap.records["cor44"])
    verdicts = gap.verdicts["within target from gap"]
    assert all(v == "none tested" or re.fullmatch(r"[0-9.e+-]+", v) for v in verdicts)
    assert set(eps.agreement["estimator"]) == {"AM", "GM", "two-threshold Θ̂¹", "two-threshold Θ̂²"}
    assert floor.states == (2, 3, 4, 5, 6) and floor.win_at(2)[0] == pytest.approx(0.5, abs=0.1)


def test_met_from_is_nan_when_the_largest_gap_fails_and_the_table_says_so() -> None:
    P = small()
    gap = chapter.gap_sweep(P, chapter.instance(P))
    failing = {**gap.records, "thres1": [{**r, "type1_lo": 1.0} for r in gap.records["thres1"]]}
    broken = dataclasses.replace(gap, records=failing)
    assert math.isnan(broken.met_from("thres1", "type1", P.alpha)) and math.isnan(broken.p_win_at(math.nan))
    assert broken.verdicts.set_index("rule").loc["two-threshold Θ̂¹ (Thm 4.3)", "within target from gap"] == (
        "none tested"
    )


def test_ties_are_kept_exactly_where_lambda_2_is_negative() -> None:
    for n, kept in ((5, "complete"), (3, "complete, cycle")):
        tie = chapter.ties(resolve("distributed-mle", {"n_agents": n}))
        assert tie.kept == kept
        negative = tie.table[tie.table["λ₂(A)"] < 0]["graph"]
        assert ", ".join(negative) == kept


def test_lower_bound_is_zero_as_printed_and_positive_with_the_proof_s_numerator() -> None:
    P = resolve("distributed-mle", {})
    lb = chapter.lower_bound(P, chapter.instance(P))
    assert np.all(lb.column("printed") == 0) and math.isnan(lb.remark_ratio)
    assert np.all(lb.column("proof") > 0) and lb.proof_growth > 1
    off = chapter.lower_bound(resolve("distributed-mle", {"beta": 0.9}), chapter.instance(P))
    assert off.remark_ratio == pytest.approx(4.0)  # the remark is four times the theorem, as printed


def test_erdos_renyi_edge_probability_below_connectivity_is_refused_up_front() -> None:
    """G(n, p) below ln(n)/n is almost never connected: refused by name, not after 1000 failed draws."""
    with pytest.raises(ParameterError, match=r"^edge_prob must be at least ln\(n\)/n = 0.322"):
        resolve("distributed-mle", {"graph": "erdos_renyi", "edge_prob": 0.01})
    assert resolve("distributed-mle", {"edge_prob": 0.01})["edge_prob"] == 0.01  # unused: complete
    P = resolve("distributed-mle", {"graph": "erdos_renyi", "edge_prob": 0.33})
    assert chapter.instance(P).n == 5
