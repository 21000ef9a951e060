"""The results contract: metrics.json, figures as PNG + SVG, tables as CSV, reproduction status."""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from dpnet.errors import ParameterError
from dpnet.results import Results, to_json


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


def test_show_table_formats_for_people(results: Results) -> None:
    styler = results.show_table(pd.DataFrame({"n": [1000, 25], "rate": [0.5, np.nan]}), undefined="not run")
    html = styler.to_html()
    assert ">1,000<" in html and ">0.500<" in html and ">—<" in html and "— not run" in html
    assert "nan" not in html


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


def test_report_status_from_checks_and_deviations(results: Results, tmp_path: Path) -> None:
    from dpnet import report

    item = report.CATALOGUE[0]
    results.chapter_id = item.chapter
    results.check(item.key, "a", True)
    (tmp_path / item.chapter).mkdir()
    (tmp_path / item.chapter / "metrics.json").write_text((tmp_path / "metrics.json").read_text())

    def status() -> str:
        table = report.status_table(tmp_path)
        return table.loc[table["chapter"].eq(item.chapter) & table["item"].eq(item.name), "status"].item()

    assert status() == "reproduced"
    results.deviation(item.key, "noise", "why")
    (tmp_path / item.chapter / "metrics.json").write_text((tmp_path / "metrics.json").read_text())
    assert status() == "reproduced with documented deviation"
    results.check(item.key, "b", False)
    (tmp_path / item.chapter / "metrics.json").write_text((tmp_path / "metrics.json").read_text())
    assert status() == "not reproduced"
    other = report.status_table(tmp_path)
    assert set(other.loc[other["chapter"].ne(item.chapter), "status"]) <= {
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
        item.key, [("holds", True, "d1", "one"), ("fails", False, "", "two"), ("n/a", None, "why", "")]
    )
    assert glued == {f"badge-{item.key}-one": "✓", f"badge-{item.key}-two": "✗"}
    with pytest.raises(ParameterError, match="must be new"):
        results.checks(item.key, [("again", True, "", "one")])
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
    from dpnet.reference import Check

    results.checks(
        "p003-fig1",
        [
            Check("a published number", True, "d", "published"),
            Check("an exact formula", False, "d", "exact", against="reference"),
            ("an old four-tuple", True, "d", "four"),
            ("an old triple", None, "why"),
        ],
    )
    stored = json.loads((tmp_path / "metrics.json").read_text())["reproduction"]["p003-fig1"]["checks"]
    assert [(c["name"], c["against"]) for c in stored] == [
        ("published", "paper"), ("exact", "reference"), ("four", "paper"), ("", "paper"),
    ]  # fmt: skip
    with pytest.raises(ParameterError, match="against must be one of"):
        results.checks("p003-fig1", [Check("a typo", True, "d", "typo", against="refrence")])  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="against must be one of"):
        results.checks("p003-fig1", [("no source", True, "d", "none", None)])
    assert "badge-p003-fig1-typo" not in glued and "badge-p003-fig1-none" not in glued
    stored = json.loads((tmp_path / "metrics.json").read_text())["reproduction"]["p003-fig1"]["checks"]
    assert [c["name"] for c in stored] == ["published", "exact", "four", ""]


def test_off_the_paper_setting_an_item_is_not_checked(results: Results, tmp_path: Path) -> None:
    from dpnet import report

    item = report.CATALOGUE[0]
    results.chapter_id = item.chapter
    results.checks(item.key, [("general claim", True, "", "")], paper_setting=False)
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
        results.check("p003-fig5", "claim", True)


def test_report_text_is_escaped_for_myst() -> None:
    from dpnet.report import _text

    assert _text("ε*_RR < 1 [a] `x` $y$") == "ε\\*\\_RR \\< 1 \\[a\\] \\`x\\` \\$y\\$"
