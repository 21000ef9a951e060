"""The HTML link checks catch each kind of broken link (shown on a small hand-made book)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from book_checks import badge_problems, caption_problems, report_row_problems

PAGES = {"power-tradeoff": "chapters/01_power_tradeoff.html"}

REPORT = """<p id="report-p003-fig1"><a href="01_power_tradeoff.html#p003-fig1">Paper 003, Figure 1</a></p>
<p id="check-p003-fig1-below-one">✓ below one</p>
<p id="report-p003-fig2"><a href="01_power_tradeoff.html#p003-fig2">Paper 003, Figure 2</a></p>
<p id="report-p003-sec2-boundary"><a href="01_power_tradeoff.html#p003-sec2-boundary">Paper 003, §2</a></p>"""

CHAPTER = """<figure id="p003-fig1"><figcaption><p><a href="reproducibility.html#report-p003-fig1">Paper 003,
Figure 1</a>: randomized response.</p></figcaption></figure>
<figure id="p003-fig2"><figcaption><p><a href="reproducibility.html#report-p003-fig2">Paper 003,
Figure 2</a>: Laplace.</p></figcaption></figure>
<section id="p003-sec2-boundary"><p>The boundary of the group test.</p></section>
<figure id="own"><figcaption><p>The book’s figure: a saw-tooth.</p></figcaption></figure>
<p>holds <a class="badge badge-pass reference internal"
href="reproducibility.html#check-p003-fig1-below-one">✓</a></p>"""


def book(tmp_path: Path, report: str = REPORT, chapter: str = CHAPTER) -> Path:
    (tmp_path / "chapters").mkdir(exist_ok=True)
    (tmp_path / "chapters" / "reproducibility.html").write_text(report)
    (tmp_path / "chapters" / "01_power_tradeoff.html").write_text(chapter)
    return tmp_path


def problems(html: Path) -> list[str]:
    return report_row_problems(html, PAGES) + caption_problems(html, PAGES) + badge_problems(html, PAGES)


def test_a_consistent_book_has_no_problem(tmp_path: Path) -> None:
    assert problems(book(tmp_path)) == []


@pytest.mark.parametrize(
    ("broken", "where", "message"),
    [
        (
            "report",
            ('01_power_tradeoff.html#p003-fig2"', '01_power_tradeoff.html#nowhere"'),
            "missing anchor",
        ),
        ("report", ('<p id="report-p003-fig2">', '<p id="report-elsewhere">'), "no entry report-p003-fig2"),
        ("chapter", ('reproducibility.html#report-p003-fig2"', '"'), "does not link to the report"),
        ("chapter", ("#report-p003-fig1", "#report-p003-fig9"), "caption link .* is broken"),
        ("chapter", ("#check-p003-fig1-below-one", "#check-p003-fig1-above-one"), "badge link .* is broken"),
    ],
)
def test_each_broken_link_is_caught(
    tmp_path: Path, broken: str, where: tuple[str, str], message: str
) -> None:
    pages = {"report": REPORT, "chapter": CHAPTER}
    assert where[0] in pages[broken]
    pages[broken] = pages[broken].replace(where[0], where[1])
    found = problems(book(tmp_path, pages["report"], pages["chapter"]))
    assert found and any(re.search(message, p) for p in found), found
