"""Chapter parameter validation: every bad value stops with the parameter's name and range."""

from __future__ import annotations

import pytest

from dpnet.chapters import resolve
from dpnet.errors import ParameterError
from dpnet.params import integer

GOOD = {
    "mode": "quick",
    "seed": 1,
    "n_values": [25, 50],
    "p_values": [0.6, 0.7],
    "alpha": 0.05,
    "eps_grid": {"start": 0.0, "stop": 5.0, "num": 100},
    "mc_samples": None,
    "mc_repeats": None,
    "n_panel": 50,
    "p_panel": 0.7,
}


def test_defaults_resolve_and_fill_mode_defaults() -> None:
    quick = resolve("power-tradeoff", GOOD)
    assert quick["mc_samples"] == 5000  # the chapter is fast: both modes use the paper's size
    assert len(quick["eps_grid"]) == 100 and quick["eps_grid"][0] == 0.0 and quick["eps_grid"][-1] == 5.0
    full = resolve("power-tradeoff", {**GOOD, "mode": "full"})
    assert full["mc_samples"] == 5000


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("alpha", 0.0, r"alpha must be a real number in the open interval \(0, 1\)"),
        ("p_values", [0.5, 0.7], r"p_values must be a list .* in the open interval \(0.5, 1\)"),
        ("p_values", [0.7, 1.2], r"p_values"),
        ("n_values", [0, 10], r"n_values must be .* integer ≥ 1"),
        ("eps_grid", [0.5, -1.0], r"eps_grid must be .* ≥ 0"),
        ("eps_grid", [1.0, 0.5], r"eps_grid .*strictly increasing"),
        ("eps_grid", {"start": 0, "stop": 5}, r"eps_grid"),
        ("mode", "fast", r"mode must be one of 'quick', 'full'"),
        ("mc_samples", 1, r"mc_samples must be an integer ≥ 2"),
        ("seed", -3, r"seed must be an integer ≥ 0"),
        ("n_panel", 75, r"n_panel must be one of n_values"),
    ],
)
def test_bad_values_name_parameter_and_range(name: str, value: object, message: str) -> None:
    with pytest.raises(ParameterError, match=message):
        resolve("power-tradeoff", {**GOOD, name: value})


def test_unknown_parameter_and_chapter() -> None:
    with pytest.raises(ParameterError, match=r"unknown parameter\(s\) 'epsilon' .* allowed: mode, allow_l"):
        resolve("power-tradeoff", {**GOOD, "epsilon": 1})
    with pytest.raises(ParameterError, match=r"unknown chapter id 'nope'; known chapters: .*power-tradeoff"):
        resolve("nope", GOOD)


def test_booleans_are_not_numbers() -> None:
    from dpnet.params import integer, real

    with pytest.raises(ParameterError, match="K must be an integer"):
        integer(ge=0)("K", True)
    with pytest.raises(ParameterError, match="eps must be a real number"):
        real(gt=0)("eps", True)


def test_graph_choices_are_the_network_kinds() -> None:
    from dpnet.chapters import schema
    from dpnet.networks import GRAPH_KINDS

    check = schema("distributed-mle").params["graph"].check
    assert [kind for kind in GRAPH_KINDS if check.convert(kind) == kind] == list(GRAPH_KINDS)
    assert check.describe == "one of " + ", ".join(repr(kind) for kind in GRAPH_KINDS)
    with pytest.raises(ParameterError, match="graph must be one of 'complete'"):
        check("graph", "torus")


def test_schema_fills_defaults_and_derives_the_panels() -> None:
    P = resolve("power-tradeoff", {"mode": "full"})
    assert P.mc_repeats == 10 and P.n_panel == 100 and P.p_panel == 0.7 and P.seed == 20250301
    assert P.is_paper() and P.is_paper("n_values", "alpha")
    other = resolve("power-tradeoff", {"n_values": [30, 120], "p_values": [0.65, 0.95]})
    assert (other.n_panel, other.p_panel) == (120, 0.65)  # the largest n; the p nearest the paper's 0.7
    assert not other.is_paper("n_values") and other.is_paper("alpha")
    with pytest.raises(ParameterError, match="does not fix 'mc_repeats'"):
        other.is_paper("mc_repeats")
    table = P.table()
    assert table.loc["mc_repeats", "default"] == "quick 3, full 10"
    assert table.loc["n_panel", "default"] == "the largest of n_values"
    assert table.loc["alpha", "paper"] == "0.05" and table.loc["mc_repeats", "paper"] == "—"


def test_the_parameters_table_writes_numbers_for_people() -> None:
    """Counts get thousands separators, small reals a power of ten, long grids their two ends."""
    from dpnet.params import _show

    table = resolve("functional-perturbation", {"mode": "full"}).table()
    assert table.loc["dgd_iterations", "value"] == "5,000"
    assert [_show(v) for v in (50_000, 1e-5, 0.25, 2.0, True, "ring", None)] == [
        "50,000", "10⁻⁵", "0.25", "2", "True", "ring", "none",
    ]  # fmt: skip
    assert _show([1000, 1500]) == "[1,000, 1,500]"
    assert _show(20230801, "seed") == _show(20230801, "data_seed") == "20230801"  # a name, not a count
    assert table.loc["seed", "default"] == "20160706"
    assert _show([0.01 * k for k in range(1, 11)]) == "10 values from 0.01 to 0.1"


def test_a_parameter_without_default_must_be_set() -> None:
    from dpnet.params import COMMON, Param, Schema
    from dpnet.params import resolve as resolve_schema

    schema = Schema({**COMMON, "k": Param(integer(ge=1), "a count")})
    with pytest.raises(ParameterError, match="k must be set for chapter 'x': it has no default"):
        resolve_schema(schema, {}, "x")
    assert resolve_schema(schema, {"k": 3})["k"] == 3


def test_named_streams_keep_the_published_keys() -> None:
    """A stream the schema lists draws what its integer key drew before it had a name."""
    import numpy as np

    from dpnet.sweep import name_key

    P = resolve("power-tradeoff", {})
    assert P.stream("p003-fig2").key == () and P.stream("p003-fig2").seed == 20250301
    assert P.stream("unlisted").key == name_key("unlisted")
    legacy = np.random.default_rng(np.random.SeedSequence([20250301, 0, 25, 600000])).random(2)
    assert np.array_equal(P.stream("p003-fig2").child(0, 25, 600000).rng().random(2), legacy)


@pytest.mark.parametrize("spelling", ["inf", "Infinity", float("inf")])
def test_budgets_accept_the_non_private_limit(spelling: object) -> None:
    import math

    from dpnet.params import budgets

    assert budgets()("eps_values", [0.5, 1.0, spelling]) == [0.5, 1.0, math.inf]


@pytest.mark.parametrize(
    "raw", ['[0.25, 1.0, "inf"]', "[0.25, 1.0, inf]", "[0.25, 1.0, .inf]", "[0.25, 1, Infinity]"]
)
def test_the_non_private_budget_from_the_command_line(raw: str) -> None:
    """Every spelling of ε = ∞ that a user types reaches the recommender chapter as infinity."""
    import math

    from dpnet import book

    overrides = book._parse_overrides([("eps_values", raw)])
    _, resolved = book.resolve_parameters(book.get_chapter("recommender-maxsense"), None, overrides)
    assert resolved["eps_values"] == [0.25, 1.0, math.inf]


# ------------------------------------------------------------------------------------------------
# footprints: a run is refused up front when it cannot fit the machine or would run over an hour
# ------------------------------------------------------------------------------------------------

_GIB = 2**30


def _toy_schema(footprint: object = "default") -> object:
    """A schema whose run needs ``reps`` MiB and ``reps`` seconds (``width`` multiplies both)."""
    from dpnet.params import COMMON, Footprint, Param, Schema

    def need(values: object) -> Footprint:
        size = values["reps"] * values["width"]  # type: ignore[index]
        return Footprint(memory=size * 2**20, seconds=float(size))

    return Schema(
        {
            **COMMON,
            "reps": Param(integer(ge=1), "replications", quick=100, full=1000),
            "width": Param(integer(ge=1), "width", default=1),
        },
        footprint=need if footprint == "default" else footprint,  # type: ignore[arg-type]
    )


@pytest.fixture
def eight_gib(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("dpnet.params.machine_memory", lambda: 8 * _GIB)


def test_footprint_over_memory_is_refused_with_estimate_limit_and_bound(eight_gib: None) -> None:
    from dpnet.params import resolve as resolve_schema

    with pytest.raises(ParameterError) as info:
        resolve_schema(_toy_schema(), {"reps": 10**5, "allow_large": True}, "toy")
    message = str(info.value)
    assert "reps = 100,000 needs about 97.7 GiB of memory for chapter 'toy'" in message
    assert "this machine has 8 GiB" in message
    assert "reps at most 8," in message  # 8 GiB / 1 MiB a replication = 8192, to within 1 %
    top = int(message.rsplit("at most ", 1)[1].replace(",", ""))
    assert 8100 <= top <= 8192
    resolve_schema(_toy_schema(), {"reps": top, "allow_large": True}, "toy")  # the bound offered fits


def test_footprint_over_an_hour_needs_allow_large(eight_gib: None) -> None:
    from dpnet.params import resolve as resolve_schema

    with pytest.raises(ParameterError, match=r"reps = 5,000 would run for about 83.3 minutes .*"
                       r"reps at most 3,5\d\d to stay under an hour; .*--allow-large"):  # fmt: skip
        resolve_schema(_toy_schema(), {"reps": 5000}, "toy")
    P = resolve_schema(_toy_schema(), {"reps": 5000, "allow_large": True}, "toy")
    assert P["reps"] == 5000 and P["allow_large"] is True


def test_footprint_names_only_the_parameters_that_grew(eight_gib: None) -> None:
    from dpnet.params import resolve as resolve_schema

    with pytest.raises(ParameterError) as info:
        resolve_schema(_toy_schema(), {"width": 10**4, "allow_large": True}, "toy")
    assert str(info.value).startswith("width = 10,000 needs about")
    assert "reps" not in str(info.value) and "width at most 8" in str(info.value)


def test_unchanged_defaults_are_never_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """The defaults of every mode fit, and a schema without a footprint is not estimated at all."""
    from dpnet.params import resolve as resolve_schema

    monkeypatch.setattr("dpnet.params.machine_memory", lambda: 2 * _GIB)
    for mode in ("quick", "full"):
        assert resolve_schema(_toy_schema(), {"mode": mode}, "toy")["mode"] == mode
    assert resolve_schema(_toy_schema(None), {"reps": 10**12}, "toy")["reps"] == 10**12
