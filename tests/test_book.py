"""The book runner: chapter discovery, parameter errors, atomic results, skipping, and a full build."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
import yaml
from book_checks import PATTERN_CHAPTERS, STAND_IN, badge_problems, caption_problems, report_row_problems
from conftest import QuickBook

from dpnet import book, power, reference
from dpnet.errors import ChapterError, ParameterError

ROOT = Path(__file__).resolve().parents[1]

HEADER = (
    STAND_IN.replace("TITLE", "Report stand-in")
    .replace("CID", "reproducibility")
    .replace("\nBODY", '\nresults.metric("value", BODY)')
)


def fake_root(tmp_path: Path, body: str) -> Path:
    """A minimal book whose only chapter has the id `reproducibility` (it has a schema)."""
    (tmp_path / "chapters").mkdir(exist_ok=True)
    (tmp_path / "_toc.yml").write_text(
        "format: jb-book\nroot: intro\nchapters:\n  - file: chapters/reproducibility\n"
    )
    (tmp_path / "chapters" / "reproducibility.md").write_text(HEADER.replace("BODY", body))
    return tmp_path


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dpnet.book", *args], capture_output=True, text=True, cwd=ROOT
    )


def test_chapter_ids_from_file_names() -> None:
    assert book.chapter_id("01_power_tradeoff") == "power-tradeoff"
    assert book.chapter_id("reproducibility") == "reproducibility"
    assert list(book.chapters())[:2] == ["reproducibility", "power-tradeoff"]


def test_parameters_come_from_the_schema_and_the_cell() -> None:
    """The cell sets the mode; the schema fills the rest, deriving the panels from the grid."""
    chapter = book.get_chapter("power-tradeoff")
    assert book.read_defaults(chapter) == {"mode": "quick"}
    _, resolved = book.resolve_parameters(chapter, None, {})
    assert resolved["alpha"] == 0.05 and resolved["n_values"] == [25, 50, 75, 100]
    assert (resolved["n_panel"], resolved["p_panel"]) == (100, 0.7)
    _, other = book.resolve_parameters(chapter, "full", {"n_values": [30, 120], "p_values": [0.6, 0.9]})
    assert (other["n_panel"], other["p_panel"], other["mc_repeats"]) == (120, 0.6, 10)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["run", "nope"], r"unknown chapter id 'nope'; known chapters: reproducibility, power-tradeoff"),
        (
            ["run", "power-tradeoff", "-p", "alpha", "1.5"],
            r"alpha must be a real number in the open interval \(0, 1\)",
        ),
        (["run", "power-tradeoff", "-p", "p_values", "[0.4, 0.7]"], r"p_values must be"),
        (["run", "power-tradeoff", "-p", "n_values", "[0]"], r"n_values must be .*≥ 1"),
        (["run", "power-tradeoff", "-p", "eps_grid", "[0, -1]"], r"eps_grid must be"),
        (
            ["run", "power-tradeoff", "-p", "epsilon", "1"],
            r"unknown parameter\(s\) 'epsilon' .*allowed: mode, allow_large, seed",
        ),
        (["build", "--jobs", "0"], r"--jobs must be an integer ≥ 1"),
    ],
)
def test_cli_bad_input_fails_before_running(args: list[str], message: str) -> None:
    proc = run(*args)
    assert proc.returncode == 2
    assert re.search(message, proc.stderr), proc.stderr


def test_failed_chapter_leaves_previous_results(tmp_path: Path) -> None:
    root = fake_root(tmp_path, "41")
    assert book.run_chapter("reproducibility", root=root) == "ran"
    metrics = root / "results" / "reproducibility" / "metrics.json"
    assert json.loads(metrics.read_text())["value"] == 41
    assert book.run_chapter("reproducibility", root=root) == "up to date"
    before = metrics.read_text()

    fake_root(tmp_path, "1 / 0")
    with pytest.raises(ChapterError, match=r"(?s)ZeroDivisionError.*previous results are untouched"):
        book.run_chapter("reproducibility", root=root)
    assert metrics.read_text() == before
    assert not list((root / "results").glob(".staging-*"))
    assert (root / "results" / "_failed" / "reproducibility.ipynb").exists()

    fake_root(tmp_path, "42")
    assert book.run_chapter("reproducibility", root=root, overrides={"seed": 5}) == "ran"
    data = json.loads(metrics.read_text())
    assert data["value"] == 42 and data["parameters"]["seed"] == 5
    nb = nbformat.read(root / "results" / "reproducibility" / "reproducibility.ipynb", as_version=4)
    injected = [c for c in nb.cells if "injected-parameters" in c.metadata.get("tags", [])]
    assert injected and "remove-cell" in injected[0].metadata["tags"]


def test_unknown_override_is_rejected(tmp_path: Path) -> None:
    root = fake_root(tmp_path, "1")
    with pytest.raises(ParameterError, match=r"unknown parameter\(s\) 'colour'"):
        book.run_chapter("reproducibility", root=root, overrides={"colour": "red"})


@pytest.mark.book
def test_quick_build_of_the_whole_book(quick_book: QuickBook, monkeypatch: pytest.MonkeyPatch) -> None:
    """The book built in quick mode in a copy of the repository: pages, images, notebooks, metrics.

    The build is the session's ``quick_book`` (tests/conftest.py), which tests/test_browser.py then
    opens in Chromium.
    """
    root, html = quick_book.root, quick_book.html

    toc_pages = list(book._toc_files(yaml.safe_load((root / "_toc.yml").read_text())))
    for page in ["book/intro", *toc_pages]:
        assert (html / f"{page}.html").exists(), f"missing page {page}"
    for page in html.rglob("*.html"):
        for src in re.findall(r'<img[^>]+src="([^"]+)"', page.read_text()):
            if not src.startswith(("data:", "http")):
                assert (page.parent / src).exists(), f"{page.name} references missing image {src}"
    for executed in (root / "results").glob("*/*.ipynb"):
        nb = nbformat.read(executed, as_version=4)
        errors = [o for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
        assert not errors, f"{executed.name} holds error outputs"
    # the chapters written to the book's pattern: report rows ↔ figures, badges → report lines
    pages = {
        c.id: f"chapters/{c.stem}.html" for c in book.chapters(root).values() if c.id in PATTERN_CHAPTERS
    }
    assert len(pages) == len(PATTERN_CHAPTERS)
    problems = report_row_problems(html, pages) + caption_problems(html, pages) + badge_problems(html, pages)
    assert not problems, "\n".join(problems)

    required = {  # the metrics the issues ask each chapter for
        "power-tradeoff": "beta_ind rr_critical_budget rr_critical_budget_inf laplace_critical_budget "
        "rr_power laplace_power",
        "hypothesis-testing": "actg_arm_sizes actg_loghr lambda_gap_paper lambda_gap_as_published "
        "lambda_gap_by_center tmb_lambda_gap_raw tmb_lambda_gap_top10 success_rate",
        "treatment-identification": "best_arm_probability tvd_vs_eps runtime",
        "online-learning": "ol_limit_nodp ol_final_ratio identification_probability",
        "distributed-estimation": "graph_facts cop_vs_eps slopes",
        "recommender-maxsense": "u90 u90_predicted fitted_exponents",
        "functional-perturbation": "error_vs_eps fitted_slope dgd_final_gap message_perturbation",
        "privacy-audit": "p003-sec2-laplace p003-sec12-actg p003-sec12-audit/centre1_zero "
        "p003-sec12-audit/centre1_alt p001-audit/threshold p001-audit/share_not_smooth p002-pairwise "
        "p003-sec12-actg-beliefs p004-message-state rows release_failing release_certified lemma_failing "
        "lemma_certified",
    }
    chapter_metrics = {c: json.loads((root / "results" / c / "metrics.json").read_text()) for c in required}
    for cid, keys in required.items():
        missing = [key for key in keys.split() if key not in chapter_metrics[cid]]
        assert not missing, f"{cid} lacks the metrics {missing}"
    metrics = chapter_metrics["power-tradeoff"]
    published = [list(row) for row in reference.dilemma.FIG1_RR_CRITICAL_BUDGET]
    assert [[round(v, 2) for v in row] for row in metrics["rr_critical_budget"]] == published
    # the figures reproduce, but for Figure 1's caption (ε* falls at every step of n: the saw-tooth of the
    # non-randomised test breaks it) and §2's remark that the test never randomises (the boundary item)
    verdicts = {
        key: {c["name"]: c["passed"] for c in entry["checks"]}
        for key, entry in metrics["reproduction"].items()
    }
    assert verdicts["p003-fig1"].pop("falls-with-n") is False
    assert verdicts["p003-sec2-boundary"]["does-not-arise"] is False
    passing = {**verdicts["p003-fig1"], **verdicts["p003-fig2"]}
    assert passing and all(passing.values()), passing
    figures = root / "results" / "power-tradeoff" / "figures"
    assert {p.suffix for p in figures.iterdir()} == {".png", ".svg"}
    report = json.loads((root / "results" / "reproducibility" / "metrics.json").read_text())
    statuses = {(r["paper"], r["item"]): r["status"] for r in report["status"]}
    assert statuses[("003", "Fig 1")] == "not reproduced"  # its caption: ε* falls with n (above)
    assert statuses[("003", "Fig 2")] == "reproduced with documented deviation"
    assert statuses[("003", "§2 boundary")] == "not reproduced"

    clinical = chapter_metrics["hypothesis-testing"]
    assert set(clinical["success_rate"]) == {"GM", "AM", "two-threshold"}
    best = chapter_metrics["treatment-identification"]
    assert set(best["best_arm_probability"]) == {"GM", "AM", "two-threshold"}
    assert {tuple(sorted(r)) for r in best["runtime"]} == {("method", "n", "phase", "rows", "seconds")}
    assert {"algorithm", "n", "eps", "mean", "sd"} <= set(best["tvd_vs_eps"][0])

    # `html` renders the last runs without executing any chapter (the rendering itself is the one the
    # build above ran, so it is stubbed here rather than run a second time)
    stamps = {p: p.stat().st_mtime_ns for p in (root / "results").glob("*/fingerprint.json")}
    rendered: list[Path] = []
    monkeypatch.setattr(book, "_render_html", lambda at: rendered.append(at) or html)
    assert book.build_book(execute=False, root=root) == html and rendered == [root]
    assert {p: p.stat().st_mtime_ns for p in (root / "results").glob("*/fingerprint.json")} == stamps


def _pages_only(tmp_path: Path, intro: str, pages: int = 0) -> Path:
    """A book of ``book/intro.md`` and ``pages`` more pages, with the repository's configuration."""
    (tmp_path / "book").mkdir(parents=True)
    shutil.copy2(ROOT / "_config.yml", tmp_path / "_config.yml")
    shutil.copy2(ROOT / "book" / "references.bib", tmp_path / "book" / "references.bib")
    toc = (
        ["format: jb-book", "root: book/intro", "chapters:"]
        if pages
        else ["format: jb-book", "root: book/intro"]
    )
    for k in range(pages):
        (tmp_path / "book" / f"page{k}.md").write_text(f"# Page {k}\n\nSome text.\n")
        toc.append(f"  - file: book/page{k}")
    (tmp_path / "_toc.yml").write_text("\n".join(toc) + "\n")
    (tmp_path / "book" / "intro.md").write_text(intro)
    return tmp_path


def test_the_html_is_built_by_parallel_sphinx_and_a_warning_fails_it(tmp_path: Path) -> None:
    """Sphinx reads the pages in several processes (it does so from six pages on) without a warning,
    which would fail the build (every extension allows it: dpnet.sphinxext, _config.yml's latex), and
    a warning, here a reference to no label, fails the build with its log, leaving no HTML behind."""
    good = _pages_only(tmp_path / "good", "# A page\n\nSome text.\n", pages=6)
    html = book._render_html(good, jobs=2)
    assert all(
        (html / "book" / f"{page}.html").is_file() for page in ["intro", *(f"page{k}" for k in range(6))]
    )
    assert not (good / "_build" / "staging").exists()

    bad = _pages_only(tmp_path / "bad", "# A page\n\nSee {ref}`no-such-label`.\n")
    with pytest.raises(
        ChapterError, match=r"jupyter-book build failed \(full log: _build/jupyter-book.log\)"
    ):
        book._render_html(bad, jobs=2)
    assert "no-such-label" in (bad / "_build" / "jupyter-book.log").read_text()
    assert not (bad / "_build" / "html").exists() and not (bad / "_build" / "staging").exists()


def test_the_quick_book_tests_named_for_the_workers_exist() -> None:
    """conftest.QUICK_BOOK_TESTS keeps the quick book's tests on one pytest-xdist worker: a renamed test
    would silently build the book twice."""
    from conftest import QUICK_BOOK_TESTS

    for nodeid in QUICK_BOOK_TESTS:
        path, _, name = nodeid.partition("::")
        assert (ROOT / path).is_file(), nodeid
        assert not name or f"def {name}(" in (ROOT / path).read_text(), nodeid


def test_list_names_every_chapter() -> None:
    proc = run("list")
    assert proc.returncode == 0, proc.stderr
    for cid in book.chapters():
        assert cid in proc.stdout


@pytest.mark.book
def test_chapter1_with_other_parameters_stays_correct(tmp_path: Path) -> None:
    """Non-paper n, p, α through the command line: the exact crossings still hold and the published-figure
    checks are skipped. The terminal shows the summary row and none of the kernel's or papermill's noise
    ("Kernel is running over TCP without encryption", "Unable to parse line")."""
    from test_book_summary import table
    from test_runner_faults import CLI

    root = tmp_path / "repo"
    root.mkdir()
    for name in ("_toc.yml", "_config.yml"):
        shutil.copy2(ROOT / name, root / name)
    shutil.copytree(ROOT / "chapters", root / "chapters")
    overrides = {
        "n_values": "[10, 40]", "p_values": "[0.65, 0.95]", "alpha": "0.1", "n_panel": "40",
        "p_panel": "0.65", "eps_grid": "{start: 0.0, stop: 3.0, num: 61}", "mc_samples": "3000",
    }  # fmt: skip
    options = [arg for name, value in overrides.items() for arg in ("-p", name, value)]
    proc = subprocess.run(
        [sys.executable, "-c", CLI, str(root), "run", "power-tradeoff", "--mode", "quick", *options],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    output = proc.stdout + proc.stderr
    for noise in ("without encryption", "Unable to parse", "Traceback"):
        assert noise not in output, output
    assert proc.returncode == 0, proc.stderr
    rows = table(proc.stderr)
    assert list(rows) == ["power-tradeoff"] and rows["power-tradeoff"][-1] == "ran", proc.stderr
    metrics = json.loads((root / "results" / "power-tradeoff" / "metrics.json").read_text())
    # off the paper's setting: no comparison with published values, only the general claims (badges)
    assert metrics["deviations"] == [] and set(metrics["reproduction"]) == {
        "p003-fig1",
        "p003-fig2",
        "p003-sec2-boundary",
    }
    for entry in metrics["reproduction"].values():
        assert entry["paper_setting"] is False
        assert not {c["name"] for c in entry["checks"]} & {"heat-map", "published-fit", "deviation-needed"}
    assert metrics["beta_ind"]["0.95"] == pytest.approx(0.95 + 0.05 * (0.1 - 0.05) / 0.95)
    for i, n in enumerate([10, 40]):
        for j, p in enumerate([0.65, 0.95]):
            star = metrics["rr_critical_budget_inf"][i][j]
            target = power.individual_power(p, 0.1)
            if star is None:  # unreachable: even clean pooled signals miss the randomised test
                assert power.rr_power(n, p, 50.0, 0.1) < target
            else:
                assert power.rr_power(n, p, star, 0.1) >= target > power.rr_power(n, p, star - 1e-8, 0.1)
    assert len(metrics["laplace_power"]["eps"]) == 61
