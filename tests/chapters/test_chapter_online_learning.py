"""Chapter 5 (online-learning) as a whole: its parameters and random streams, its footprint, an identity
of the online dynamics that holds by construction (a unit test here, not a check of the report), and
its text against its experiments and notes."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest

from dpnet import book, networks
from dpnet import inference as inf
from dpnet.chapters import _items, resolve, schema
from dpnet.chapters import online_learning as chapter
from dpnet.chapters.online_learning import p003_fig14_1c, p003_fig14_6
from dpnet.errors import ParameterError
from dpnet.params import LONG_RUN_SECONDS, machine_memory
from dpnet.reference import catalogue

ROOT = Path(__file__).resolve().parents[2]
NOTES = ROOT / "book" / "notes" / "online_learning.md"
SOURCE = ROOT / "chapters" / "05_online_learning.md"


def defaults() -> dict:
    return book.read_defaults(book.get_chapter("online-learning"))


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


def _defaults(**over):
    values = {name: None for name in schema("online-learning").params}
    values.update(mode="quick", seed=1, n_agents=10, n_states=3, signal_shift=0.3, gaussian_shift=2.0,
                  graph="complete", graphs=["complete", "star"], arrival_rate=1.0, arrival_rates=[1.0, 0.5],
                  eps_values=[0.5, 1.0], eps_compare=1.0, eta=0.05, n_centers=5, eps=1.0, period_days=10,
                  period_months=1)  # fmt: skip
    values.update(over)
    return values


def test_schema_names_bad_graphs() -> None:
    assert resolve("online-learning", _defaults())["horizon"] == 2000
    with pytest.raises(ParameterError, match="even length"):
        resolve("online-learning", _defaults(graphs=["cycle"]))
    assert resolve("online-learning", _defaults(graphs=["cycle"], n_agents=11))["n_agents"] == 11
    with pytest.raises(ParameterError, match="n_agents must be at least"):
        resolve("online-learning", _defaults(n_agents=3, n_states=6))
    with pytest.raises(ParameterError, match="signal_shift"):
        resolve("online-learning", _defaults(signal_shift=0.5))


def test_footprint_accepts_the_modes_and_refuses_what_cannot_run() -> None:
    for mode in ("quick", "full"):
        need = chapter.SCHEMA.footprint(resolve("online-learning", {"mode": mode}))  # type: ignore[misc]
        assert need.seconds < LONG_RUN_SECONDS and need.memory < machine_memory() / 10
    slow = {"horizon": 200_000, "n_agents": 100, "n_states": 10, "replications": 1000}
    with pytest.raises(ParameterError, match=r"(horizon|n_agents|replications) = .*(memory|would run)"):
        resolve("online-learning", slow)
    longest = resolve("online-learning", {"mode": "full", "horizon": 200_000})  # long, but under an hour
    assert longest.horizon == 200_000


def test_footprint_adds_up_the_items_costs() -> None:
    """Eight modules, each with a cost term: the fixed seconds plus theirs; the memory of the largest."""
    modules = _items.item_modules("dpnet.chapters.online_learning")
    assert [m.__name__.rsplit(".", 1)[1] for m in modules] == [
        "clinical_streams", "p003_fig14_1c", "p003_fig14_6", "p003_sec4_3", "p003_sec4_3_convergence",
        "p003_sec4_3_mixing", "p003_sec4_3_signals", "p003_thm4_7",
    ]  # fmt: skip
    for values in ({"mode": "quick"}, {"mode": "full", "period_days": 1, "n_centers": 50}):
        P = dict(resolve("online-learning", values))
        costs = [m.cost(P) for m in modules]
        need = chapter.SCHEMA.footprint(P)  # type: ignore[misc]
        assert need.seconds == pytest.approx(chapter.FIXED_SECONDS + sum(c.seconds for c in costs), rel=1e-12)
        assert need.memory == max(c.peak for c in costs) and not any(c.kept for c in costs)
    # with one-day periods and fifty centres, the ACTG stream holds more than the privacy sweep
    assert max(costs, key=lambda c: c.peak) is costs[1]


def test_named_streams_keep_the_integer_keys_of_the_published_runs() -> None:
    P = resolve("online-learning", {})
    keys = {"convergence": (500, 0), "sample-paths": (500, 1), "p003-sec4-3": (500, 2), "mixing": (501,),
            "arrivals": (502,), "p003-fig14-1c": (503,), "p003-fig14-6": (504,)}  # fmt: skip
    assert {name: P.stream(name).key for name in keys} == keys
    assert P.stream("mixing").child(2).key == (501, 2)
    legacy = np.random.default_rng(np.random.SeedSequence([P.seed, 500, 2])).random(3)
    np.testing.assert_array_equal(P.rng("p003-sec4-3").random(3), legacy)


# --------------------------------------------------------------------------------------------------
# An identity of the online dynamics (it holds by construction)
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


# --------------------------------------------------------------------------------------------------
# The chapter's text against its experiments and notes
# --------------------------------------------------------------------------------------------------


#: The checks each item records, and of them the ones the chapter's prose binds as statements of the book's
#: own voice ({holds}); a paper's claims carry badges.
NAMES = {
    "p003-sec4-3": {"limit", "monotone", "private-limit"},
    "p003-thm4-7": {"promise", "below-promise", "epsilon-order", "lln-order", "steps-ample",
                    "mixing-not-multiplied", "arrivals-ample"},
    "p003-fig14-1c": {"identifies-treatment", "periods", "limit-as-published", "agreement-as-published",
                      "noise-dominates", "sensitivity"},
    "p003-fig14-6": {"dashed-line", "periods", "limit-as-published", "favours-null", "disagreement-not-rare"},
}  # fmt: skip
HOLDS = {
    ("p003-sec4-3", "limit"), ("p003-sec4-3", "monotone"), ("p003-thm4-7", "below-promise"),
    ("p003-thm4-7", "lln-order"), ("p003-thm4-7", "steps-ample"), ("p003-thm4-7", "mixing-not-multiplied"),
    ("p003-thm4-7", "arrivals-ample"), ("p003-fig14-1c", "periods"),
    ("p003-fig14-1c", "limit-as-published"), ("p003-fig14-6", "limit-as-published"),
    ("p003-fig14-1c", "agreement-as-published"), ("p003-fig14-1c", "noise-dominates"),
    ("p003-fig14-6", "periods"),
    ("p003-fig14-6", "favours-null"), ("p003-fig14-6", "disagreement-not-rare"),
}  # fmt: skip


def test_every_items_headline_is_a_recorded_check() -> None:
    items = [item for item in catalogue.CATALOGUE if item.chapter == "online-learning"]
    assert [item.key for item in items] == ["p003-sec4-3", "p003-thm4-7", "p003-fig14-1c", "p003-fig14-6"]
    for item in items:
        assert item.headline and item.check in NAMES[item.key]


def test_badges_notes_and_deviations_resolve() -> None:
    text = SOURCE.read_text()
    notes = NOTES.read_text()
    badges = re.findall(r"\{badge\}`([^`/]+)/([^`]+)`", text)
    holds = re.findall(r"\{holds\}`([^`/]+)/([^`]+)`", text)
    assert badges and all(name in NAMES[item] for item, name in badges)
    assert set(holds) == HOLDS and not HOLDS & set(badges)
    assert {item for item, _ in badges + holds} == set(NAMES)
    # every item's headline claim is read out with a badge in the chapter
    assert {(i.key, i.check) for i in catalogue.CATALOGUE if i.chapter == "online-learning"} <= set(badges)
    labels = set(re.findall(r"^\((note-ol-[a-z0-9-]+)\)=$", notes, flags=re.M))
    cited = set(re.findall(r"\{ref\}`(note-ol-[a-z0-9-]+)`", text + notes))
    assert cited <= labels
    assert {note for _, note in (*p003_fig14_1c.DEVIATIONS, *p003_fig14_6.DEVIATIONS)} <= labels
    for words in (text, notes):
        assert not re.search(r"\bspec\b|prototype", words, flags=re.I)
        # the printed horizon is the constant of the proof's last display, not of the proof's own steps
        assert not re.search(r"exact constant|constant (its|of the) proof (establishes|\(§11\.3\))", words)
        assert not re.search(r"(?<!not )surely", words)  # the latest period is plausible, not sure
