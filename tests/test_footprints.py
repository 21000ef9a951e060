"""The chapters' footprints: every size a chapter accepts fits the machine, or is refused up front.

Every chapter estimates a run's peak memory and wall time from its parameters
(``SCHEMA.footprint``). The defaults fit with a wide margin; the sizes of the issue "Robust under bad
input" are refused, naming the parameter and the largest value that fits, and that value does fit; a
run over an hour needs ``allow_large``. The machine is fixed at 23 GiB, the one the issue ran on.
"""

from __future__ import annotations

import re

import pytest

from dpnet import chapters
from dpnet.errors import ParameterError
from dpnet.params import LONG_RUN_SECONDS

GIB = 2**30
#: The report only reads the chapters' results.
WITHOUT_FOOTPRINT = ("reproducibility",)
CHAPTERS = tuple(c for c in chapters.CHAPTER_IDS if c not in WITHOUT_FOOTPRINT)


def test_every_other_chapter_has_a_footprint() -> None:
    assert [c for c in chapters.CHAPTER_IDS if chapters.schema(c).footprint is None] == list(
        WITHOUT_FOOTPRINT
    )


@pytest.fixture(autouse=True)
def machine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("dpnet.params.machine_memory", lambda: 23 * GIB)


def _need(cid: str, values: dict[str, object]) -> object:
    schema = chapters.schema(cid)
    assert schema.footprint is not None, f"{cid} has no footprint"
    return schema.footprint(dict(chapters.resolve(cid, {**values, "allow_large": True})))


_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")


def _count(text: str) -> int:
    """The integer of a message: ``202,377``, ``10⁹`` or ``6.8·10⁶``."""
    text = text.replace(",", "")
    if "10" in text and text.translate(_SUPERSCRIPT) != text:
        mantissa, _, power = text.rpartition("10")
        return round(float(mantissa.rstrip("·") or 1) * 10 ** int(power.translate(_SUPERSCRIPT)))
    return int(text)


@pytest.mark.parametrize("mode", ["quick", "full"])
@pytest.mark.parametrize("cid", CHAPTERS)
def test_defaults_fit_with_a_wide_margin(cid: str, mode: str) -> None:
    need = _need(cid, {"mode": mode})
    assert need.memory < 4 * GIB, f"{cid} {mode}: {need.memory / GIB:.2f} GiB"
    assert need.seconds < LONG_RUN_SECONDS / 2, f"{cid} {mode}: {need.seconds:.0f} s"
    chapters.resolve(cid, {"mode": mode})  # and they are not refused


#: The sizes of the issue (and one per chapter that takes replications), and the parameter to name.
TOO_BIG = [
    ("power-tradeoff", {"mc_samples": 10**9}, "mc_samples"),
    ("power-tradeoff", {"n_values": [25, 10**9], "n_panel": 10**9}, "n_values"),
    ("hypothesis-testing", {"replications": 10**9}, "replications"),
    ("distributed-mle", {"replications": 10**9}, "replications"),
    ("treatment-identification", {"replications": 10**9}, "replications"),
    ("online-learning", {"replications": 10**9}, "replications"),
]


@pytest.mark.parametrize("allow_large", [False, True])
@pytest.mark.parametrize(("cid", "values", "name"), TOO_BIG, ids=[f"{c}-{n}" for c, _, n in TOO_BIG])
def test_issue_sizes_are_refused_with_the_largest_that_fits(
    cid: str, values: dict[str, object], name: str, allow_large: bool
) -> None:
    with pytest.raises(ParameterError) as info:
        chapters.resolve(cid, {**values, "allow_large": allow_large})
    message = str(info.value)
    assert message.startswith(f"{name} = "), message
    assert re.search(r"needs about [\d.,]+ GiB of memory .*; this machine has 23 GiB", message), message
    found = re.search(rf"{name} at most (\S+)$", message)
    assert found, message
    top = _count(found.group(1))
    # the bound offered fits the machine (it may still need allow_large)
    fitted = {k: ([min(x, top) for x in v] if isinstance(v, list) else top) for k, v in values.items()}
    assert _need(cid, fitted).memory <= 23 * GIB
    chapters.resolve(cid, {**fitted, "allow_large": True})


def test_issue_messages_read_as_the_issue_asks() -> None:
    with pytest.raises(ParameterError) as info:
        chapters.resolve("hypothesis-testing", {"replications": 10**9})
    assert re.fullmatch(
        r"replications = 10⁹ needs about [\d.,]+ GiB of memory for chapter 'hypothesis-testing'; "
        r"this machine has 23 GiB; replications at most \S+",
        str(info.value),
    ), str(info.value)


#: Runs that fit in memory but take more than an hour.
TOO_LONG = [
    ("power-tradeoff", {"mc_repeats": 3000}, "mc_repeats"),
    ("power-tradeoff", {"n_values": [25, 300_000], "n_panel": 300_000}, "n_values"),
    ("distributed-mle", {"replications": 10**6}, "replications"),
    ("hypothesis-testing", {"eps_values": {"start": 0.1, "stop": 100.0, "num": 30_000}}, "eps_values"),
    ("treatment-identification", {"fig6_eps": {"start": 0.1, "stop": 2.0, "num": 2000}}, "fig6_eps"),
    ("distributed-estimation", {"n_draws": 1000}, "n_draws"),
    ("functional-perturbation", {"n_agents": 200, "runs": 2000}, "n_agents"),
    ("recommender-maxsense", {"n_items": [1000, 1500, 2000], "pp_trials": 500}, "n_items"),
]


@pytest.mark.parametrize(("cid", "values", "name"), TOO_LONG, ids=[f"{c}-{n}" for c, _, n in TOO_LONG])
def test_runs_over_an_hour_need_allow_large(cid: str, values: dict[str, object], name: str) -> None:
    need = _need(cid, values)
    assert need.memory <= 23 * GIB and need.seconds > LONG_RUN_SECONDS
    with pytest.raises(ParameterError, match=rf"^{name} = .* would run for about .*--allow-large"):
        chapters.resolve(cid, values)
    assert chapters.resolve(cid, {**values, "allow_large": True})["allow_large"] is True


def test_time_refusal_offers_the_largest_size_under_an_hour() -> None:
    with pytest.raises(ParameterError) as info:
        chapters.resolve("distributed-mle", {"replications": 10**6})
    found = re.search(r"replications at most (\S+) to stay under an hour", str(info.value))
    assert found, str(info.value)
    top = _count(found.group(1))
    assert 400 < top < 10**6
    assert _need("distributed-mle", {"replications": top}).seconds <= LONG_RUN_SECONDS
    chapters.resolve("distributed-mle", {"replications": top})


#: Counts that split a fixed data set rather than size the work: more centres are smaller centres, and the
#: exhaustive neighbour sweeps over one centre (quadratic in its patients) shrink.
PARTITIONS = {("treatment-identification", "n_centers")}


@pytest.mark.parametrize("cid", CHAPTERS)
def test_footprint_grows_with_every_unbounded_size(cid: str) -> None:
    """Doubling a size never shrinks the estimate, and the replications, draws and lists all count."""
    base = _need(cid, {})
    P = chapters.resolve(cid, {})
    grown = 0
    for name, value in P.items():
        if name in ("seed", "data_seed", "mode", "allow_large") or isinstance(value, (bool, str, float)):
            continue
        if (cid, name) in PARTITIONS:
            continue
        if isinstance(value, int):
            bigger: object = value * 2
        elif isinstance(value, list) and all(isinstance(v, float) for v in value):
            bigger = sorted({*value, *(v * 1.01 + 1e-3 for v in value)})
        else:
            continue
        try:
            need = _need(cid, {name: bigger})
        except ParameterError:
            continue  # out of its range, or against a constraint
        assert need.memory >= base.memory and need.seconds >= base.seconds, name
        grown += need.seconds > base.seconds or need.memory > base.memory
    assert grown >= 1
