"""Checks on the built book shared by the tests: which chapters follow the book's authoring pattern,
and link checks on the HTML (report rows ↔ chapter figures, badges → report lines).

Each link check returns the problems it finds (empty when the pages are consistent), so a test can
both assert a built book is clean and show, on a broken fixture, that each problem is caught.
"""

from __future__ import annotations

import re
from pathlib import Path

from dpnet.chapters import CHAPTER_IDS
from dpnet.reference.catalogue import CATALOGUE

#: A stand-in chapter of test books: TITLE, its chapter id CID and the BODY of its last cell to fill in.
STAND_IN = """---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
    format_version: 0.13
kernelspec:
  display_name: Python 3
  language: python
  name: python3
---

# TITLE

```{code-cell} ipython3
:tags: [parameters]

mode = "quick"
seed = 0
```

```{code-cell} ipython3
from dpnet.results import Results

results = Results("CID", {"mode": mode, "seed": seed})
BODY
```
"""

REPORT = "chapters/reproducibility.html"
#: The chapters (every one is written to the book's authoring pattern, book/making.md); the report last.
PATTERN_CHAPTERS: tuple[str, ...] = tuple(c for c in CHAPTER_IDS if c != "reproducibility")


def ids(page: Path) -> set[str]:
    """The element ids of an HTML page."""
    return set(re.findall(r'\sid="([^"]+)"', page.read_text()))


def _resolves(html: Path, page: Path, href: str) -> bool:
    path, _, anchor = href.partition("#")
    target = (page.parent / path).resolve() if path else page
    return target.exists() and (not anchor or anchor in ids(target))


def report_row_problems(html: Path, pages: dict[str, str]) -> list[str]:
    """Every catalogue item of the chapters in ``pages`` (id → HTML path) has a report entry whose
    link lands on an existing anchor of its chapter page."""
    report = html / REPORT
    text = report.read_text()
    problems = []
    for item in (i for i in CATALOGUE if i.chapter in pages):
        entry = re.search(rf'<p id="report-{item.key}">(.*?)</p>', text, flags=re.S)
        if entry is None:
            problems.append(f"the report has no entry report-{item.key}")
            continue
        hrefs = re.findall(
            rf'href="([^"#]*{re.escape(Path(pages[item.chapter]).name)}#[^"]+)"', entry.group(1)
        )
        if not hrefs:
            problems.append(f"report-{item.key} does not link to {pages[item.chapter]}")
        problems += [
            f"report-{item.key} links to a missing anchor {h}"
            for h in hrefs
            if not _resolves(html, report, h)
        ]
    return problems


def caption_problems(html: Path, pages: dict[str, str]) -> list[str]:
    """Every figure caption of the pages links back to an existing report entry, unless it is the
    book's own figure."""
    problems = []
    for path in pages.values():
        page = html / path
        for caption in re.findall(r"<figcaption>(.*?)</figcaption>", page.read_text(), flags=re.S):
            words = re.sub(r"<[^>]+>", "", caption)
            if "The book’s figure" in words or "The book's figure" in words:
                continue
            hrefs = re.findall(r'href="([^"]*reproducibility\.html#report-[^"]+)"', caption)
            if not hrefs:
                problems.append(f"{path}: a caption does not link to the report: {words.strip()[:60]!r}")
            problems += [f"{path}: caption link {h} is broken" for h in hrefs if not _resolves(html, page, h)]
    return problems


def badge_problems(html: Path, pages: dict[str, str]) -> list[str]:
    """Every badge of the pages links to an existing check line of the report."""
    problems = []
    for path in pages.values():
        page = html / path
        for href in re.findall(r'<a class="badge[^"]*"[^>]*href="([^"]+)"', page.read_text()):
            if "#check-" not in href or not _resolves(html, page, href):
                problems.append(f"{path}: badge link {href} is broken")
    return problems
