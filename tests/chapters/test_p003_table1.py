"""Paper 003, Table 1 (chapter distributed-mle): the authors' code's K and T against the notebook's run
(the one check of the report, ``dpnet.reference.complexity.table1_checks``), and the identities behind
Table 1 that hold by construction (unit tests here, not checks of the report).

Every identity test also shows that it can fail: the same comparison rejects a value changed in the
last printed digit.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dpnet import inference as inf
from dpnet import networks, reference
from dpnet.chapters import distributed_mle as chapter
from dpnet.chapters.distributed_mle import p003_table1
from dpnet.params import Cost
from dpnet.results import RECORDED

NOTES = Path(__file__).resolve().parents[2] / "book" / "notes" / "distributed_mle.md"


def test_table1_check_passes_on_the_code_schedule_and_names_its_deviations() -> None:
    tables = chapter.complexity_checks()
    assert (tables.code.K, tables.code.T) == reference.complexity.ACTG_CODE_K_T
    [check] = tables.checks["p003-table1"]
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


def test_p003_table1_result_is_recordable_and_records_table2_with_nothing_to_compare() -> None:
    tables = chapter.complexity_checks()
    assert all(hasattr(tables, name) for name in RECORDED)
    assert tables.checks["p000-table2"] == [] and tables.tables() == {}
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
