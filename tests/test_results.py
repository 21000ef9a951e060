"""The results contract: metrics.json, figures as PNG + SVG, tables as CSV, reproduction status."""

from __future__ import annotations

import json
from pathlib import Path
from typing import ClassVar

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from dpnet.errors import ParameterError
from dpnet.results import Check, Results, to_json


@pytest.fixture
def results(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Results:
    monkeypatch.setenv("DPNET_RESULTS_DIR", str(tmp_path))
    return Results("demo", {"seed": np.int64(3), "eps": np.array([0.5, 1.0])})


def test_to_json_converts_numpy_and_non_finite() -> None:
    assert to_json({"a": np.float64(np.nan), 1: (np.int32(2), np.inf), "b": np.bool_(True)}) == {
        "a": None, "1": [2, None], "b": True,
    }  # fmt: skip
    with pytest.raises(TypeError, match="cannot store object"):
        to_json(object())


def test_metrics_written_at_top_level_with_parameters(results: Results, tmp_path: Path) -> None:
    results.metric("beta", np.array([[1.0, 2.0]]))
    data = json.loads((tmp_path / "metrics.json").read_text())
    assert data["beta"] == [[1.0, 2.0]]
    assert data["parameters"] == {"seed": 3, "eps": [0.5, 1.0]}
    assert data["chapter"] == "demo"
    with pytest.raises(ParameterError, match="reserved"):
        results.metric("parameters", 1)


def test_glue_passes_numpy_scalars_as_python_numbers(
    results: Results, monkeypatch: pytest.MonkeyPatch
) -> None:
    import myst_nb

    glued = {}
    monkeypatch.setattr(myst_nb, "glue", lambda name, value, display: glued.update({name: value}))
    results.glue("rate", np.float64(0.25))
    results.glue("count", np.int64(7))
    assert glued == {"rate": 0.25, "count": 7}
    assert type(glued["rate"]) is float and type(glued["count"]) is int
    assert f"{glued['rate']:.2f}" == "0.25"  # what {glue:text}`rate:.2f` needs


def test_glue_writes_numbers_for_people(results: Results, monkeypatch: pytest.MonkeyPatch) -> None:
    import myst_nb

    glued = {}
    monkeypatch.setattr(myst_nb, "glue", lambda name, value, display: glued.update({name: value}))
    results.glue("tol", 1e-10, ".0e")
    results.glue("error", 2.5e-16, ".1e")
    results.glue("p", 4.9e-06, ".2g")
    results.glue("big", 1e7, "g")
    results.glue("slope", 1e-05)  # no spec: its repr would be 1e-05
    results.glue("count", np.int64(12721))
    results.glue("small", 7)
    results.glue("rate", 0.25, ".1%")
    assert glued == {"tol": "10⁻¹⁰", "error": "2.5×10⁻¹⁶", "p": "4.9×10⁻⁶", "big": "10⁷", "slope": "10⁻⁵",
                     "count": "12,721", "small": 7, "rate": "25.0%"}  # fmt: skip
    data = json.loads((results.directory / "metrics.json").read_text())
    assert data["tol"] == 1e-10 and data["count"] == 12721  # the metrics keep the numbers


def test_show_table_formats_for_people_and_writes_what_it_shows(results: Results, tmp_path: Path) -> None:
    frame = pd.DataFrame({"n": [1000, 25], "rate": [0.5, np.nan]})
    html = results.show_table(frame, "rates", undefined="not run").to_html()
    assert ">1,000<" in html and ">0.500<" in html and ">—<" in html and "— not run" in html
    assert "nan" not in html
    assert (tmp_path / "tables" / "rates.csv").read_text() == "n,rate\n1000,0.5\n25,\n"


def test_a_shown_table_is_one_table_under_one_name(results: Results, tmp_path: Path) -> None:
    """Showing a table already recorded under its name writes it again; another table under the same
    name is refused; a pivot keeps its row labels."""
    frame = pd.DataFrame({"x": [1, 2]})
    results.table(frame, "xs")
    results.show_table(frame.copy(), "xs")
    with pytest.raises(ParameterError, match="'xs' was already written with other contents"):
        results.show_table(pd.DataFrame({"x": [1, 3]}), "xs")
    pivot = pd.DataFrame({"ε": [1.0, 1.0, 2.0], "N": [10, 20, 10], "U": [5, 6, 7]}).pivot(
        index="ε", columns="N"
    )
    results.show_table(pivot["U"], "pivot")
    assert (tmp_path / "tables" / "pivot.csv").read_text() == "ε,10,20\n1.0,5.0,6.0\n2.0,7.0,\n"


def test_an_illegible_figure_is_refused_and_not_saved(results: Results, tmp_path: Path) -> None:
    from dpnet.plotting import LegibilityError

    fig, ax = plt.subplots(figsize=(20, 4))
    ax.plot([0, 1])
    ax.legend(["a line"], fontsize=7)
    with pytest.raises(LegibilityError, match=r"figure 'wide' has text smaller than 8 pt.*legend 'a line'"):
        results.figure(fig, "wide")
    assert not (tmp_path / "figures" / "wide.png").exists()
    assert not plt.fignum_exists(fig.number)  # closed, not left for the notebook to show


def test_figures_and_tables(results: Results, tmp_path: Path) -> None:
    fig, ax = plt.subplots()
    ax.plot([0, 1])
    results.figure(fig, "line")
    png = tmp_path / "figures" / "line.png"
    assert png.exists() and png.with_suffix(".svg").exists()
    assert png.read_bytes()[:4] == b"\x89PNG"
    results.table(pd.DataFrame({"x": [1, 2]}), "xs")
    assert pd.read_csv(tmp_path / "tables" / "xs.csv")["x"].tolist() == [1, 2]
    with pytest.raises(ParameterError, match="file name"):
        results.table(pd.DataFrame(), "../escape")


def test_a_figure_is_drawn_four_times_and_shown_from_its_png(
    results: Results, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The legibility check and the PNG draw the figure once each (besides savefig's layout pass), the
    SVG twice; the PNG is the one ``bbox_inches="tight"`` gives, and the chapter shows it at
    ``figure.dpi``'s size."""
    import io

    import IPython
    import IPython.display
    from matplotlib.figure import Figure

    draws: list[str] = []
    draw = Figure.draw
    monkeypatch.setattr(
        Figure, "draw", lambda self, renderer: draws.append(type(renderer).__name__) or draw(self, renderer)
    )

    fig, ax = plt.subplots(figsize=(4, 2.5), dpi=110, layout="constrained")  # as the book's style makes them
    ax.plot([0, 1], label="a line")
    ax.set_title("a title far wider than the axes it sits over, so that the tight box is not the figure")
    ax.legend()
    tight = io.BytesIO()
    fig.savefig(tight, dpi=150, bbox_inches="tight", metadata={"Software": None})
    draws.clear()
    shown: list = []
    monkeypatch.setattr(IPython, "get_ipython", lambda: object())  # as in a kernel
    monkeypatch.setattr(IPython.display, "display", shown.append)
    results.figure(fig, "line")
    # savefig first lays a figure with a layout engine out, in a pass that draws nothing
    assert draws == ["_TextRecorder", "RendererAgg", "RendererAgg", "MixedModeRenderer", "MixedModeRenderer"]
    png = tmp_path / "figures" / "line.png"
    assert png.read_bytes() == tight.getvalue()
    (image,) = shown
    assert image.data == png.read_bytes() and image.width == round(image.width)
    assert abs(image.width - 110 * 150**-1 * _png_width(png)) <= 1


def _png_width(png: Path) -> int:
    return int.from_bytes(png.read_bytes()[16:20], "big")  # the IHDR chunk's width


@pytest.fixture
def headlined(monkeypatch: pytest.MonkeyPatch) -> object:
    """The catalogue's first item, with a headline tested by the check named ``headline``."""
    import dataclasses

    from dpnet import report

    item = dataclasses.replace(report.CATALOGUE[0], headline="The claim the item supports.", check="headline")
    monkeypatch.setattr(report, "CATALOGUE", (item, *report.CATALOGUE[1:]))
    return item


def test_report_status_from_checks_and_deviations(
    results: Results, tmp_path: Path, headlined: object
) -> None:
    """An item is reproduced only when its headline check passes; a failing check, headline or not,
    makes it not reproduced; the headline undecided leaves it undecided, however many checks pass."""
    from dpnet import report

    item = headlined
    results.chapter_id = item.chapter

    def status(*checks: Check, deviation: bool = False) -> str:
        run = Results(item.chapter, {}, headlines={item.key: item.check})
        run.checks(item.key, checks)
        if deviation:
            run.deviation(item.key, "noise", "why")
        (tmp_path / item.chapter).mkdir(exist_ok=True)
        (tmp_path / item.chapter / "metrics.json").write_text((run.directory / "metrics.json").read_text())
        table = report.status_table(tmp_path).set_index("key")
        return table.loc[item.key, "status"]

    headline, other = (
        Check("the claim", True, name="headline"),
        Check("a consistency check", True, name="other"),
    )
    assert status(headline, other) == "reproduced"
    assert status(headline, other, deviation=True) == "reproduced with documented deviation"
    assert status(headline._replace(passed=False), other) == "not reproduced"
    assert status(headline, other._replace(passed=False)) == "not reproduced"
    assert status(headline._replace(passed=None), other) == "headline not decided"
    assert status(other) == "headline not decided"  # the headline was never tested
    entry = json.loads((tmp_path / item.chapter / "metrics.json").read_text())["reproduction"][item.key]
    assert entry["headline"] == "headline"
    text = report.items_markdown(tmp_path)
    assert "Headline claim: The claim the item supports. (– `headline`, not recorded)." in text
    status(headline, other)
    text = report.items_markdown(tmp_path)
    assert (
        f"Headline claim: The claim the item supports. (✓ {{ref}}`headline <check-{item.key}-headline>`)."
        in text
    )
    other_items = report.status_table(tmp_path)
    assert set(other_items.loc[other_items["chapter"].ne(item.chapter), "status"]) <= {
        "not yet",
        "not checked in this run",
    }


@pytest.fixture
def glued(monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    import myst_nb

    store: dict[str, object] = {}
    monkeypatch.setattr(myst_nb, "glue", lambda name, value, display: store.update({name: value}))
    return store


def test_glue_formats_and_refuses_nan_without_a_reason(results: Results, glued: dict[str, object]) -> None:
    results.glue("big", 12345.678, ",.1f")
    results.glue("none", float("nan"), ".2f", undefined="undefined (no crossing)")
    assert glued == {"big": "12,345.7", "none": "undefined (no crossing)"}
    assert results.metrics["big"] == 12345.678 and results.metrics["none"] is None  # the raw value
    with pytest.raises(ValueError, match="say why it is undefined"):
        results.glue("bad", np.float64(np.nan), ".2f")


def test_named_checks_glue_badges_and_feed_the_report(
    results: Results, glued: dict[str, object], tmp_path: Path
) -> None:
    from dpnet import report

    item = report.CATALOGUE[0]
    results.chapter_id = item.chapter
    results.checks(
        item.key,
        [
            Check("holds", True, "d1", "one"),
            Check("fails", False, "", "two"),
            Check("n/a", None, "why", "three"),
        ],
    )
    assert glued == {
        f"badge-{item.key}-one": "✓",
        f"badge-{item.key}-two": "✗",
        f"badge-{item.key}-three": "–",
    }
    with pytest.raises(ParameterError, match="must be new"):
        results.checks(item.key, [Check("again", True, "", "one")])
    (tmp_path / item.chapter).mkdir()
    (tmp_path / item.chapter / "metrics.json").write_text((tmp_path / "metrics.json").read_text())
    text = report.items_markdown(tmp_path)
    assert f"(report-{item.key})=" in text and f"<{item.key}>`" in text
    assert f"(check-{item.key}-one)=\n✓ holds: d1" in text and "– n/a: why" in text
    table = report.status_table(tmp_path).set_index("key")
    assert table.loc[item.key, "status"] == "not reproduced" and table.loc[item.key, "checks passed"] == "1/2"


def test_checks_store_what_they_compare_with(
    results: Results, glued: dict[str, object], tmp_path: Path
) -> None:

    results.checks(
        "p003-fig1",
        [
            Check("a published number", True, "d", "published"),
            Check("an exact formula", False, "d", "exact", against="reference"),
        ],
    )
    stored = json.loads((tmp_path / "metrics.json").read_text())["reproduction"]["p003-fig1"]["checks"]
    assert [(c["name"], c["against"]) for c in stored] == [("published", "paper"), ("exact", "reference")]
    with pytest.raises(ParameterError, match="against must be one of"):
        results.checks("p003-fig1", [Check("a typo", True, "d", "typo", against="refrence")])  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match=r"must be a dpnet\.results\.Check"):
        results.checks("p003-fig1", [("a bare tuple", True, "d", "tuple")])  # type: ignore[list-item]
    with pytest.raises(ParameterError, match="'an unnamed claim' of p003-fig1: its name '' must be new"):
        results.checks("p003-fig1", [Check("an unnamed claim", True, "d")])
    assert not {"badge-p003-fig1-typo", "badge-p003-fig1-tuple", "badge-p003-fig1-"} & set(glued)
    stored = json.loads((tmp_path / "metrics.json").read_text())["reproduction"]["p003-fig1"]["checks"]
    assert [c["name"] for c in stored] == ["published", "exact"]


def test_a_badge_finds_its_claim_by_name_in_any_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, glued: dict[str, object]
) -> None:
    """Reordering an item's checks (as a reference function that lists its claims in another order
    would) changes neither which claim a badge shows nor the badge's verdict."""
    checks = [Check("first claim", True, "", "first"), Check("second claim", False, "", "second"),
              Check("third claim", None, "why", "third")]  # fmt: skip

    def recorded(order: list[Check], where: str) -> tuple[dict[str, object], dict[str, tuple[str, object]]]:
        monkeypatch.setenv("DPNET_RESULTS_DIR", str(tmp_path / where))
        glued.clear()
        Results("demo", {}).checks("p003-fig1", order)
        entry = json.loads((tmp_path / where / "metrics.json").read_text())["reproduction"]["p003-fig1"]
        return dict(glued), {c["name"]: (c["claim"], c["passed"]) for c in entry["checks"]}

    assert recorded(checks, "forward") == recorded(checks[::-1], "reversed")
    badges, claims = recorded(checks[::-1], "reversed")
    assert badges["badge-p003-fig1-second"] == "✗" and claims["second"] == ("second claim", False)


def test_off_the_paper_setting_an_item_is_not_checked(results: Results, tmp_path: Path) -> None:
    from dpnet import report

    item = report.CATALOGUE[0]
    results.chapter_id = item.chapter
    results.checks(item.key, [Check("general claim", True, "", "general")], paper_setting=False)
    (tmp_path / item.chapter).mkdir()
    (tmp_path / item.chapter / "metrics.json").write_text((tmp_path / "metrics.json").read_text())
    assert report.status_table(tmp_path).set_index("key").loc[item.key, "status"] == "not checked in this run"


def test_keys_must_be_the_chapters_catalogue_items(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DPNET_RESULTS_DIR", str(tmp_path))
    results = Results("power-tradeoff", {}, items=["p003-fig1", "p003-fig2"])
    results.table(pd.DataFrame({"x": [1]}), "p003-fig2-as-published")  # a variant of an item
    results.table(pd.DataFrame({"x": [1]}), "book-own-table")  # the book's own: not an item key
    with pytest.raises(ParameterError, match="names no catalogue item"):
        results.table(pd.DataFrame({"x": [1]}), "p003-fig5")
    with pytest.raises(ParameterError, match="not a catalogue item of chapter 'power-tradeoff'"):
        results.checks("p003-fig5", [Check("claim", True, name="claim")])


def test_report_text_is_escaped_for_myst() -> None:
    from dpnet.report import _text

    assert _text("ε*_RR < 1 [a] `x` $y$") == "ε\\*\\_RR \\< 1 \\[a\\] \\`x\\` \\$y\\$"


class _Outcome:
    """A result with every member :meth:`Results.record` reads."""

    checks: ClassVar = {"p003-fig1": [Check("a claim", True, "", "a-claim")]}
    deviations = (("p003-fig1", "a deviation", "note-x"),)
    paper_setting = True

    def metrics(self) -> dict[str, object]:
        return {"value": 1.5}

    def tables(self) -> dict[str, pd.DataFrame]:
        return {"values": pd.DataFrame({"x": [1]})}


def test_record_reads_every_member_of_a_result(results: Results, tmp_path: Path) -> None:
    outcome = _Outcome()
    assert results.record(outcome) is outcome
    data = json.loads((tmp_path / "metrics.json").read_text())
    assert data["value"] == 1.5 and data["reproduction"]["p003-fig1"]["checks"][0]["name"] == "a-claim"
    assert data["deviations"][0]["note"] == "note-x" and (tmp_path / "tables" / "values.csv").exists()


@pytest.mark.parametrize("member", ["checks", "deviations", "paper_setting", "metrics", "tables"])
def test_a_result_missing_a_member_is_refused_by_name(results: Results, tmp_path: Path, member: str) -> None:
    """A result that lacks (or misnames) one member of :class:`~dpnet.results.Recordable` is refused
    before anything is recorded, with a message naming the member."""
    members = {k: v for k, v in vars(_Outcome).items() if not k.startswith("__") and k != member}
    if member in ("metrics", "tables"):  # a misnamed method: `table` where `tables` is read
        members[member[:-1]] = vars(_Outcome)[member]
    lacking = type("Lacking", (), members)
    with pytest.raises(TypeError, match=rf"^Lacking cannot be recorded: it has no {member} "):
        results.record(lacking())
    assert json.loads((tmp_path / "metrics.json").read_text())["reproduction"] == {}


_TYPED = """
from __future__ import annotations
from collections.abc import Mapping, Sequence
from typing import Any
from dpnet.results import Check, Results


class Complete:
    checks: Mapping[str, Sequence[Check]] = {}
    deviations: tuple[tuple[str, str, str], ...] = ()
    paper_setting = True

    def metrics(self) -> dict[str, Any]:
        return {}

    def tables(self) -> dict[str, Any]:
        return {}


class Misnamed:
    checks: Mapping[str, Sequence[Check]] = {}
    deviations: tuple[tuple[str, str, str], ...] = ()
    paper_setting = True

    def metrics(self) -> dict[str, Any]:
        return {}

    def table(self) -> dict[str, Any]:
        return {}


def run(results: Results) -> Complete:
    RECORD
"""


@pytest.mark.parametrize(
    ("call", "refused"),
    [
        ("return results.record(Complete())", False),
        ("results.record(Misnamed())\n    return Complete()", True),
    ],
)
def test_a_type_checker_sees_a_result_that_lacks_a_member(tmp_path: Path, call: str, refused: bool) -> None:
    """mypy refuses to record a result whose ``tables`` is misnamed, and accepts a complete one (and
    ``record`` returns the type it was given)."""
    api = pytest.importorskip("mypy.api", reason="mypy (the dev extra) is not installed")
    source = tmp_path / "snippet.py"
    source.write_text(_TYPED.replace("RECORD", call))
    args = ["--follow-imports=silent", "--ignore-missing-imports", "--no-error-summary",
            "--cache-dir", str(tmp_path / "cache"), str(source)]  # fmt: skip
    out, _, status = api.run(args)
    if refused:
        assert status == 1 and 'cannot be "Misnamed"' in out and "[type-var]" in out, out
    else:
        assert status == 0 and out == "", out
