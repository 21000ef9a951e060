"""Paper 003, Table 1 (chapter distributed-mle): its headline check (whether any number of rounds brings
the AM/GM row to the target error), the authors' code's K and T against the notebook's run
(``dpnet.reference.complexity.table1_checks``), and the identities behind Table 1 that hold by
construction (unit tests here, not checks of the report).

Every identity test also shows that it can fail: the same comparison rejects a value changed in the
last printed digit.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from small import small

from dpnet import inference as inf
from dpnet import networks, reference
from dpnet.chapters import distributed_mle as chapter
from dpnet.chapters.distributed_mle import p003_table1
from dpnet.params import Cost
from dpnet.results import RECORDED

NOTES = Path(__file__).resolve().parents[2] / "book" / "notes" / "distributed_mle.md"


@pytest.fixture(scope="module")
def k_sweep() -> chapter.KSweep:
    P = small("distributed-mle", replications=200, K_values=[1, 2, 4])
    inst = chapter.instance(P)
    return chapter.k_sweep(P, inst, chapter.eps_sweep(small("distributed-mle"), inst).freq43)


def test_table1_check_passes_on_the_code_schedule_and_names_its_deviations(k_sweep) -> None:
    tables = chapter.complexity_checks(k_sweep, 0.05, 0.95)
    assert (tables.code.K, tables.code.T) == reference.complexity.ACTG_CODE_K_T
    row, check = tables.checks["p003-table1"]
    assert row.name == "amgm-row" and row.against == "paper"
    assert check.passed and check.name == "code-k-t" and tables.paper_setting
    assert "spec" not in check.claim.lower() and "spec" not in check.detail.lower()
    notes = NOTES.read_text()
    assert [item for item, _, _ in tables.deviations] == ["p003-table1", "p003-table1"]
    for _, title, note in tables.deviations:
        assert f"({note})=" in notes and "spec" not in title.lower()


@pytest.mark.parametrize(("K", "T"), [(8, 22), (9, 21), (8, 20)])
def test_table1_check_fails_on_another_schedule(K: int, T: int) -> None:
    [check] = reference.complexity.table1_checks(K, T)
    assert check.passed is False and f"K = {K}, T = {T}" in check.detail


def test_the_amgm_row_fails_when_no_k_brings_gm_within_alpha_and_holds_otherwise(k_sweep) -> None:
    """The headline, constant-free: at ε = 1 GM's Type I error stays above α at every K (T → ∞)."""
    row = p003_table1.amgm_row_check(k_sweep, 0.05, 0.95)
    assert row.passed is False and row.against == "paper" and "above α beyond Monte Carlo error" in row.detail
    assert "at K = 1" in row.detail  # the smallest GM error is at one round
    fine = p003_table1.amgm_row_check(k_sweep, 0.45, 0.55)  # targets 0.45: GM is within them at K = 1
    assert fine.passed is True and "GM within α at K = 1" in fine.detail
    high = {**k_sweep.records, "am": [{**r, "type2_lo": 0.95} for r in k_sweep.records["am"]]}
    assert p003_table1.amgm_row_check(dataclasses.replace(k_sweep, records=high), 0.45, 0.55).passed is False


def test_the_amgm_row_is_undecided_without_a_k(k_sweep) -> None:
    empty = dataclasses.replace(k_sweep, records={**k_sweep.records, "gm": [], "am": []})
    row = p003_table1.amgm_row_check(empty, 0.05, 0.95)
    assert row.passed is None and "undecided" in row.detail


def test_gm_s_exact_type1_error_at_eps_one_is_smallest_at_one_round(k_sweep) -> None:
    """What the prose quotes beside the check: exactly, over every K from 1 to 64, GM's Type I error at
    ε = 1 is smallest at K = 1, above α."""
    K, value = k_sweep.gm_exact_best
    assert K == 1 and value == pytest.approx(0.0910, abs=5e-4) and value > 0.05
    assert set(range(1, 65)) <= set(k_sweep.exact)


def test_p003_table1_result_is_recordable(k_sweep) -> None:
    tables = chapter.complexity_checks(k_sweep, 0.05, 0.95)
    assert all(hasattr(tables, name) for name in RECORDED)
    assert list(tables.checks) == ["p003-table1"] and tables.tables() == {}
    assert tables.metrics() == {"table1_code_schedule": {"K": tables.code.K, "T": tables.code.T}}
    assert p003_table1.cost({}) == Cost()


# --------------------------------------------------------------------------------------------------
# Identities (they hold by construction): hand-worked values of the papers' formulas
# --------------------------------------------------------------------------------------------------


def code_rounds(n_states: int = reference.complexity.CODE_ROUNDS_STATES) -> dict[float, int]:
    return {eta: inf.rounds_authors_code(n_states, eta) for eta in reference.complexity.CODE_ROUNDS}


def test_authors_code_rounds_match_the_hand_computed_ones() -> None:
    assert code_rounds() == reference.complexity.CODE_ROUNDS
    assert code_rounds(3) != reference.complexity.CODE_ROUNDS  # the comparison can fail


def actg_noise(convention_code: inf.Convention = "authors_code") -> tuple[float, float]:
    s, (K, _) = reference.complexity.ACTG_SETTING, reference.complexity.ACTG_CODE_K_T
    return tuple(  # type: ignore[return-value]
        float(inf.noise_scale(s["delta"], s["n_states"], s["eps"], K, convention=c))
        for c in ("paper", convention_code)
    )


def noise_matches(scales: tuple[float, float]) -> bool:
    tol = reference.complexity.ACTG_NOISE_TOLERANCE
    return all(abs(b - want) <= tol for b, want in zip(scales, reference.complexity.ACTG_NOISE, strict=True))


def test_actg_noise_scales_are_the_paper_s_and_twice_it() -> None:
    assert noise_matches(actg_noise())
    assert not noise_matches(actg_noise("paper"))  # the comparison can fail: the code's scale is doubled


def spectral_n5() -> dict[str, tuple[float, float]]:
    out = {}
    for kind in reference.complexity.SPECTRAL_N5:
        c = networks.spectral_constants(networks.make_graph(kind, 5))  # type: ignore[arg-type]
        out[kind] = (c.b_star, c.a_star)
    return out


def spectral_matches(values: dict[str, tuple[float, float]]) -> bool:
    return all(
        np.allclose(values[g], want, rtol=0, atol=reference.complexity.SPECTRAL_TOLERANCE)
        for g, want in reference.complexity.SPECTRAL_N5.items()
    )


def test_metropolis_hastings_constants_of_five_node_graphs() -> None:
    values = spectral_n5()
    assert spectral_matches(values)
    assert not spectral_matches({**values, "complete": (0.25, 0.376)})
