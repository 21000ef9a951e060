"""Paper 000, Table 2 (chapter distributed-mle): its headline check (the AM/GM row with ϱ constant, paper
000's Theorem 3.2), how its constants differ from paper 003's (the experiment and its cost), and the
identities behind Table 2 that hold by construction (unit tests here, not checks of the report).

Every identity test also shows that it can fail: the same comparison rejects a value changed in the
last printed digit.
"""

from __future__ import annotations

import numpy as np
from small import SMALL, small

from dpnet import inference as inf
from dpnet import networks, reference
from dpnet.chapters import distributed_mle as chapter
from dpnet.chapters import resolve
from dpnet.chapters.distributed_mle import p000_table2
from dpnet.params import Cost


def test_table2_check_reads_the_runs_that_meet_theorem_3_2_s_bound_and_can_fail() -> None:
    P = small("distributed-mle", iterations=60)
    inst = chapter.instance(P)
    eps = chapter.eps_sweep(P, inst)
    check = p000_table2.table2_check(P, inst, eps)
    assert check.name == "amgm-row" and check.passed is False and "GM: 1 of 2 cases above 0.1" in check.detail
    loose = resolve("distributed-mle", {**SMALL["distributed-mle"], "iterations": 60, "alpha": 0.45,
                                        "beta": 0.55})  # fmt: skip
    assert p000_table2.table2_check(loose, inst, eps).passed is True  # targets 0.9: no rate above them


def test_table2_check_is_undecided_when_t_is_below_the_bound_at_every_budget() -> None:
    P = small("distributed-mle", iterations=1)
    inst = chapter.instance(P)
    check = p000_table2.table2_check(P, inst, chapter.eps_sweep(P, inst))
    assert check.passed is None and "below Theorem 3.2's bound at every budget" in check.detail
    assert "left out (T below the bound): ε = 0.5, 5" in check.detail


def test_p000_table2_thresholds_and_network_sensitivities_on_the_instance() -> None:
    P = small("distributed-mle")
    inst = chapter.instance(P)
    p000 = chapter.paper000(P, inst, chapter.eps_sweep(P, inst))
    assert list(p000.checks) == ["p000-table2"] and p000.metrics() == {} and p000.tables() == {}
    assert p000.eps == P.eps_demo and p000.signal_delta == inst.delta
    assert p000.rho_ratio >= 1 and p000.network_delta.shape == (inst.n,)
    assert np.all(p000.network_delta >= inst.delta)  # Δ_i = max{Δ^signal_i, 1 + max_j a_ij}
    assert "–" not in p000.network_range  # every agent of the complete graph needs the same Δ_i
    assert p000_table2.cost({}) == Cost()


def three_state_rounds() -> dict[str, float]:
    ex = reference.complexity.THREE_STATE_EXAMPLE
    m, s, alpha, beta, pi = len(ex["thetas"]), ex["n_mle"], ex["alpha"], ex["beta"], ex["pi"]
    k1, k2 = inf.rounds_thres(m, s, alpha, beta, pi, pi)
    return {"am": inf.rounds_am(m, s, beta), "gm": inf.rounds_gm(m, s, alpha),
            "unknown": inf.rounds_unknown_mle(m, alpha, beta), "thres_1": k1, "thres_2": k2}  # fmt: skip


def rounds_match(rounds: dict[str, float]) -> bool:
    decimals = reference.complexity.THREE_STATE_ROUNDS_DECIMALS
    return all(round(rounds[k], decimals[k]) == v for k, v in reference.complexity.THREE_STATE_ROUNDS.items())


def test_paper000_rounds_match_the_hand_computed_ones_at_their_decimals() -> None:
    rounds = three_state_rounds()
    assert rounds_match(rounds)
    assert {k: inf.to_int_ceil(v) for k, v in rounds.items()} == reference.complexity.THREE_STATE_ROUNDS_CEIL
    assert not rounds_match({**rounds, "unknown": 12.2836})  # the fourth decimal counts


def test_bernoulli_sensitivity_of_the_three_state_example() -> None:
    ex = reference.complexity.THREE_STATE_EXAMPLE
    delta = float(inf.bernoulli_sensitivity(ex["thetas"], ex["n_signals"]))
    assert abs(delta - reference.complexity.THREE_STATE_SENSITIVITY) <= 1e-6
    assert abs(16.9460 - reference.complexity.THREE_STATE_SENSITIVITY) > 1e-6  # the comparison can fail


def thm32_pilot() -> dict[str, tuple[int, int]]:
    ex, p = reference.complexity.THREE_STATE_EXAMPLE, reference.complexity.THM32_PILOT
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
    assert [pilot[k] for k in ("am", "gm")] == [
        reference.complexity.THM32_PILOT["am"],
        reference.complexity.THM32_PILOT["gm"],
    ]
    assert pilot["gm"] != (5, 26)  # the comparison can fail
