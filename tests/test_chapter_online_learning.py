"""Chapter 5 (online-learning): its parameters and random streams, its experiments against exact formulas
and independent computations on small sizes, and the identities of the online dynamics, which hold by
construction (unit tests here, not checks of the report)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import special

from dpnet import book, networks
from dpnet import inference as inf
from dpnet import survival as sv
from dpnet.chapters import online_learning as chapter
from dpnet.chapters import resolve
from dpnet.errors import ParameterError
from dpnet.params import LONG_RUN_SECONDS, Parameters, machine_memory

ROOT = Path(__file__).resolve().parents[1]
NOTES = ROOT / "book" / "notes" / "online_learning.md"
SOURCE = ROOT / "chapters" / "05_online_learning.md"


def defaults() -> dict:
    return book.read_defaults(book.get_chapter("online-learning"))


def small(**overrides: object) -> Parameters:
    values = {"n_agents": 4, "horizon": 60, "limit_horizon": 200, "replications": 20,
              "eps_values": [0.5, 5.0], "graphs": ["complete", "path"], "arrival_rates": [1.0, 0.5],
              **overrides}  # fmt: skip
    return resolve("online-learning", values)


def kl_bernoulli(q: float, p: float) -> float:
    """D_KL(Ber(q) ‖ Ber(p)), written out."""
    return q * math.log(q / p) + (1 - q) * math.log((1 - q) / (1 - p))


# --------------------------------------------------------------------------------------------------
# Parameters
# --------------------------------------------------------------------------------------------------


def test_defaults_come_from_the_schema_with_mode_sizes() -> None:
    assert defaults() == {"mode": "quick"}
    quick = resolve("online-learning", defaults())
    assert (quick.horizon, quick.limit_horizon, quick.replications) == (2000, 5000, 100)
    assert (quick.n_agents, quick.n_states, quick.graph, quick.seed) == (10, 3, "complete", 20250301)
    full = resolve("online-learning", {"mode": "full"})
    assert (full.horizon, full.limit_horizon, full.replications) == (12000, 20000, 200)
    assert quick.is_paper() and quick.is_paper("n_centers", "eps", "period_days", "period_months")
    assert not resolve("online-learning", {"period_days": 1}).is_paper("period_days")


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("n_agents", 2, r"n_agents must be an integer ≥ 3 and ≤ 100 \(got 2\)"),
        ("n_states", 11, r"n_states must be an integer ≥ 2 and ≤ 10"),
        ("signal_shift", 0.5, r"signal_shift must be a real number in the open interval \(0, 0.5\)"),
        ("graph", "torus", r"graph must be one of 'complete', 'star', 'path', 'cycle'"),
        ("eps_values", [1.0, 0.5], r"eps_values must be a strictly increasing list"),
        ("period_days", 0.5, r"period_days must be a real number ≥ 1 and ≤ 365"),
        ("period_months", 30, r"period_months must be a real number ≥ 1 and ≤ 24"),
        ("replications", 10**6, r"replications = 10⁶ (needs about|would run)"),
    ],
)
def test_bad_parameters_name_the_parameter(name: str, value: object, message: str) -> None:
    with pytest.raises(ParameterError, match=message):
        resolve("online-learning", {**defaults(), name: value})


def test_two_agents_never_mix_so_the_schema_refuses_them() -> None:
    """With two agents, Metropolis–Hastings weights swap the beliefs every period: b* = 1 and Theorem 4.7
    has no horizon. The schema refuses n_agents = 2 by name rather than fail in the kernel."""
    for kind in ("complete", "star", "path"):
        A = networks.metropolis_hastings(networks.make_graph(kind, 2)).toarray()
        np.testing.assert_allclose(A, [[0.0, 1.0], [1.0, 0.0]])
        assert networks.spectral_constants(A).b_star == pytest.approx(1.0)
    sig = chapter.signals(resolve("online-learning", {"n_agents": 3}))
    assert sig.b_star < 1 and math.isfinite(sig.horizon(1.0))
    with pytest.raises(ParameterError, match="n_agents must be"):
        resolve("online-learning", {"n_agents": 2})


def test_constraints_name_the_parameters() -> None:
    with pytest.raises(ParameterError, match="cycle of even length n_agents = 10"):
        resolve("online-learning", {"graphs": ["cycle"]})
    assert resolve("online-learning", {"graphs": ["cycle"], "n_agents": 11}).n_agents == 11
    with pytest.raises(ParameterError, match=r"n_agents must be at least n_states − 1 = 5"):
        resolve("online-learning", {"n_agents": 4, "n_states": 6})


def test_footprint_accepts_the_modes_and_refuses_what_cannot_run() -> None:
    for mode in ("quick", "full"):
        need = chapter.SCHEMA.footprint(resolve("online-learning", {"mode": mode}))  # type: ignore[misc]
        assert need.seconds < LONG_RUN_SECONDS and need.memory < machine_memory() / 10
    slow = {"horizon": 200_000, "n_agents": 100, "n_states": 10, "replications": 1000}
    with pytest.raises(ParameterError, match=r"(horizon|n_agents|replications) = .*(memory|would run)"):
        resolve("online-learning", slow)
    longest = resolve("online-learning", {"mode": "full", "horizon": 200_000})  # long, but under an hour
    assert longest.horizon == 200_000


def test_named_streams_keep_the_integer_keys_of_the_published_runs() -> None:
    P = resolve("online-learning", {})
    keys = {"convergence": (500, 0), "sample-paths": (500, 1), "p003-sec4-3": (500, 2), "mixing": (501,),
            "arrivals": (502,), "p003-fig14-1c": (503,), "p003-fig14-6": (504,)}  # fmt: skip
    assert {name: P.stream(name).key for name in keys} == keys
    assert P.stream("mixing").child(2).key == (501, 2)
    legacy = np.random.default_rng(np.random.SeedSequence([P.seed, 500, 2])).random(3)
    np.testing.assert_array_equal(P.rng("p003-sec4-3").random(3), legacy)


# --------------------------------------------------------------------------------------------------
# Experiments on small parameters, against exact formulas and independent computations
# --------------------------------------------------------------------------------------------------


def test_signals_closed_forms() -> None:
    sig = chapter.signals(small(signal_shift=0.3))
    assert sig.delta == pytest.approx(special.logit(0.8), rel=1e-14)
    # the LLR of a signal takes two values logit(0.8) − logit(0.5) apart, with probabilities 1/2
    assert sig.spread == pytest.approx(special.logit(0.8) / 2, rel=1e-14)
    assert sig.table["tells apart"].tolist() == ["θ1", "θ2", "θ1", "θ2"]
    assert sig.scale(None) == 0.0 and sig.scale(2.0) == pytest.approx(sig.delta * 3 / 2.0)
    b = np.sort(np.abs(np.linalg.eigvalsh(sig.weights)))[-2]  # second largest modulus
    assert sig.b_star == pytest.approx(b, abs=1e-12)


def test_convergence_limit_is_the_closed_form_and_its_gap_recomputes() -> None:
    P = small(gaussian_shift=2.0)
    sig = chapter.signals(P)
    conv = chapter.convergence(P, sig)
    # two of four agents see θ1 (and two θ2), each with KL = shift²/2 = 2 for unit variance
    np.testing.assert_allclose(conv.limit_gaussian, [0.0, -1.0, -1.0], rtol=1e-14)
    l1 = 2 * kl_bernoulli(0.5, 0.8)
    np.testing.assert_allclose(conv.limit_bernoulli, [0.0, -l1 / 4, -l1 / 4], rtol=1e-12)
    # the gap, from the same stream with plain numpy
    psi = inf.simulate_online(P.rng("convergence"), sig.gaussian, sig.weights, xi=1.0, T=P.limit_horizon,
                              n_reps=P.replications, times=[P.limit_horizon])[0, :, 0]  # fmt: skip
    mean = ((psi - psi[..., :1]) / P.limit_horizon).mean(axis=0)[:, 1:]
    assert conv.gap == pytest.approx(np.max(np.abs(mean / -1.0 - 1)), rel=1e-12)
    assert conv.paths.shape == (3, len(conv.times), 4, 3) and conv.times[-1] == P.horizon


def test_privacy_sweep_horizons_are_eq_ol_horizon_and_rates_recompute() -> None:
    P = small()
    sig = chapter.signals(P)
    sweep = chapter.privacy_sweep(P, sig, chapter.convergence(P, sig))
    n, m, eta = 4, 3, P.eta
    Q, gap = special.logit(0.8) / 2, 2 * kl_bernoulli(0.5, 0.8)
    for e, h in zip(sweep.eps, sweep.horizons, strict=True):
        V = n * math.sqrt(2) * (0.0 if e is None else special.logit(0.8) * m / e)
        v_prime = math.sqrt(2) / n * (n * Q + V) * 1.0  # ξ = 1, Ξ = 0
        assert h == pytest.approx((math.log(m) + m * v_prime / (2 * eta * (1 - sig.b_star))) / (gap / n))
    assert sweep.slope == pytest.approx(math.log(sweep.horizons[1] / sweep.horizons[2]) / math.log(10))
    # the identification rate, by hand from the same stream: strict argmax θ°, mean over agents then runs
    scales = [sig.scale(e) for e in sweep.eps]
    psi = inf.simulate_online(P.rng("p003-sec4-3"), sig.bernoulli, sig.weights, xi=1.0, T=P.horizon,
                              n_reps=P.replications, noise_scales=scales, times=sweep.times)  # fmt: skip
    hits = (psi[..., 0] > psi[..., 1:].max(axis=-1)).mean(axis=-1)  # (ε, runs, times)
    np.testing.assert_allclose(sweep.probability, hits.mean(axis=1), rtol=1e-14)
    np.testing.assert_allclose(sweep.se, hits.std(axis=1, ddof=1) / math.sqrt(P.replications), rtol=1e-12)
    inside = sweep.table.dropna(subset=["P at that T"])
    for _, row in inside.iterrows():
        s, j = sweep.labels.index(row["ε"]), list(sweep.times).index(row["T of Thm 4.7"])
        assert row["P at that T"] == sweep.probability[s, j]
    assert [c.name for c in sweep.checks["p003-sec4-3"]] == ["limit", "monotone", "theorem-4-7"]


def test_lowest_at_horizon_is_undefined_without_a_horizon_inside() -> None:
    P = small(horizon=10)
    sig = chapter.signals(P)
    sweep = chapter.privacy_sweep(P, sig, chapter.convergence(P, sig))
    run, p = sweep.lowest_at_horizon
    assert run is None and math.isnan(p)
    assert sweep.checks["p003-sec4-3"][2].detail == "no horizon inside T"


def test_mixing_and_arrivals_against_the_spectra_and_the_gap() -> None:
    P = small()
    sig = chapter.signals(P)
    comp = chapter.mixing_and_arrivals(P, sig)
    for _, row in comp.mixing.iterrows():
        A = networks.metropolis_hastings(networks.make_graph(row["graph"], 4)).toarray()
        assert row["b*"] == pytest.approx(np.sort(np.abs(np.linalg.eigvalsh(A)))[-2], abs=1e-12)
    l1 = 2 * kl_bernoulli(0.5, 0.8)
    np.testing.assert_allclose(comp.arrivals["l"], [l1, l1 / 2], rtol=1e-12)  # l scales with ξ
    h = comp.mixing["T of Thm 4.7"]
    assert comp.horizon_ratio == h.max() / h.min()
    assert set(comp.mixing_curves["graph"].str.split().str[0]) == {"complete", "path"}


def test_actg_stream_against_its_formulas(actg: pd.DataFrame) -> None:
    P = small(replications=20)
    study = chapter.actg_stream(P)
    assert study.periods == 1231 // 10 + 1 == 124
    b = 2 * math.log(2) * 2 / 1.0  # Δ|Θ|/ε with Δ = 2 log 2
    assert study.runs["treatment/paper"].noise_scale == pytest.approx(b)
    assert study.extra["noise_sd"] == pytest.approx(2 * b / math.sqrt(5 * 124))
    assert study.limit("treatment/paper") == pytest.approx(-0.011548, abs=5e-6)
    runs = study.runs["treatment/as_published"]
    ratios = (runs.final[..., 1] - runs.final[..., 0]) / 124
    assert study.agreement("treatment/as_published") == pytest.approx(np.mean(ratios > 0))  # limit 0.44 > 0
    checks = study.checks["p003-fig14-1c"]
    assert [c.name for c in checks] == ["periods", "limit-as-published", "agreement-as-published"]
    assert study.paper_setting and all(c.passed is not None for c in checks)
    assert [d[2] for d in study.deviations] == ["note-ol-likelihood", "note-ol-belief", "note-ol-periods"]


def test_off_the_paper_setting_only_the_published_values_are_undefined(actg: pd.DataFrame) -> None:
    study = chapter.actg_stream(small(n_centers=3))
    assert not study.paper_setting
    passed = {c.name: c.passed for c in study.checks["p003-fig14-1c"]}
    assert passed["periods"] is None and passed["limit-as-published"] is None
    assert passed["agreement-as-published"] is not None  # a claim, decided for any parameters


def test_cancer_stream_sensitivities_checks_and_claims(samstein: pd.DataFrame) -> None:
    study = chapter.cancer_stream(small(replications=20))
    raw = sv.tmb_cohort(samstein, "raw")
    assert study.deltas["raw/paper"] == pytest.approx(2 * abs(math.log(0.15)) * raw.x.max())
    assert study.deltas["top10/paper"] == pytest.approx(2 * abs(math.log(0.15)))
    assert study.periods == 81 and study.limit("raw/as_published") == pytest.approx(-16.962, abs=1e-3)
    checks = study.checks["p003-fig14-6"]
    assert [c.name for c in checks] == [
        "periods",
        "limit-as-published",
        "paper-claim",
        "disagreement-not-rare",
    ]
    assert all("spec" not in c.claim and "spec" not in c.detail for c in checks)
    summary = chapter.stream_summary(study).metrics()
    assert list(summary["ol_agreement"]) == [
        "cancer-raw/as_published",
        "cancer-raw/paper",
        "cancer-top10/paper",
    ]


# --------------------------------------------------------------------------------------------------
# Identities of the online dynamics (they hold by construction)
# --------------------------------------------------------------------------------------------------


def test_the_network_average_is_the_running_sum_of_the_inputs() -> None:
    """A is doubly stochastic, so the agents' mean of ψ_t is the sum over periods of the agents' mean of ζ:
    the reason the time average's limit, and its noise, are those of the network average."""
    rng = np.random.default_rng(4)
    zeta = rng.normal(size=(30, 5, 2))
    A = networks.metropolis_hastings(networks.make_graph("path", 5)).toarray()
    psi = inf.online_log_ratios(zeta, A)
    np.testing.assert_allclose(psi.mean(axis=1), np.cumsum(zeta.mean(axis=1), axis=0), atol=1e-12)
    psi[3, 0, 0] += 1e-6  # the comparison can fail
    assert not np.allclose(psi.mean(axis=1), np.cumsum(zeta.mean(axis=1), axis=0), atol=1e-12, rtol=0)


def test_the_non_private_limit_does_not_depend_on_the_graph(actg: pd.DataFrame) -> None:
    ddi = sv.arm_cohort(actg, "ddI")
    centres = sv.cohort_centres(ddi.index.to_numpy(), 5)
    stream = sv.period_loglik(ddi.x, ddi.time, ddi.event, centres, np.array([0.0, chapter.THETA1]),
                              period_length=10)  # fmt: skip
    limits = [
        inf.time_averaged_ratios(inf.online_log_ratios(stream, networks.metropolis_hastings(
            networks.make_graph(kind, 5)).toarray()))[-1, :, 1]
        for kind in ("complete", "path")
    ]  # fmt: skip
    assert limits[0].mean() == pytest.approx(limits[1].mean(), abs=1e-15)
    assert not np.allclose(limits[0], limits[1], rtol=0, atol=1e-6)  # the centres' own values differ


# --------------------------------------------------------------------------------------------------
# The chapter's text against its experiments and notes
# --------------------------------------------------------------------------------------------------


def test_badges_notes_and_deviations_resolve() -> None:
    text = SOURCE.read_text()
    notes = NOTES.read_text()
    names = {
        "p003-sec4-3": {"limit", "monotone", "theorem-4-7"},
        "p003-fig14-1c": {"periods", "limit-as-published", "agreement-as-published"},
        "p003-fig14-6": {"periods", "limit-as-published", "paper-claim", "disagreement-not-rare"},
    }
    badges = re.findall(r"\{badge\}`([^`/]+)/([^`]+)`", text)
    assert badges and all(name in names[item] for item, name in badges)
    assert {item for item, _ in badges} == set(names)
    labels = set(re.findall(r"^\((note-ol-[a-z0-9-]+)\)=$", notes, flags=re.M))
    cited = set(re.findall(r"\{ref\}`(note-ol-[a-z0-9-]+)`", text + notes))
    assert cited <= labels
    assert {note for entries in chapter.DEVIATIONS.values() for _, note in entries} <= labels
    for words in (text, notes):
        assert not re.search(r"\bspec\b|prototype", words, flags=re.I)
