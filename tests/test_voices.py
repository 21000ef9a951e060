"""The book's two voices (dpnet.voices): the sentences in the book's own voice are found in a chapter's
source, and judged against the checks a run recorded."""

from __future__ import annotations

from dpnet.voices import Statement, contradicted, statements, verdict

SOURCE = """---
jupytext:
  text_representation:
    format_name: myst
---

# A chapter

The paper claims a bound {badge}`p003-fig1/bound`. In this run the bound holds
{holds}`p003-fig1/bound`, at every cell.

```{code-cell} ipython3
text = "a string with {holds}`p003-fig1/in-code` is code, not prose"
```

```{math}
:label: eq-x
x = 1 \\quad \\text{{holds}`p003-fig1/in-math`}
```

- **First lesson.** Budgets stay below one {holds}`p003-fig1/below-one`.
- **Second lesson.** Larger groups need less {holds}`p003-fig1/decreasing`.

```{exercise}
:label: ex-one

Re-run it; the answer still holds {holds}`p003-fig2/exercise`.
```

````{solution} ex-one
:class: dropdown

The answer, with a formula:

```{math}
y = 2
```

and a sentence after it that holds {holds}`p003-fig2/solution`.
````

After the solution, the prose goes on {holds}`p003-fig2/after`.
"""


def test_every_sentence_in_the_book_s_voice_is_found_and_nothing_in_code() -> None:
    found = statements(SOURCE)
    assert [s.where for s in found] == [
        "p003-fig1/bound", "p003-fig1/below-one", "p003-fig1/decreasing", "p003-fig2/exercise",
        "p003-fig2/solution", "p003-fig2/after",
    ]  # fmt: skip
    first = found[0]
    assert first.sentence == "In this run the bound holds ‹p003-fig1/bound›, at every cell."
    assert first.line == 9
    assert found[1].sentence == "- **First lesson.** Budgets stay below one ‹p003-fig1/below-one›."
    assert found[3].sentence == "Re-run it; the answer still holds ‹p003-fig2/exercise›."


def _metrics(**checks: bool | None) -> dict:
    return {"reproduction": {"p003-fig1": {"checks": [{"name": n, "passed": p} for n, p in checks.items()]}}}


def test_a_statement_is_judged_by_its_check() -> None:
    holds, fails, undefined, unrecorded = (
        Statement("p003-fig1", name, "", 1) for name in ("a", "b", "c", "d")
    )
    metrics = _metrics(a=True, b=False, c=None)
    assert [verdict(s, metrics) for s in (holds, fails, undefined, unrecorded)] == [True, False, None, None]
    assert contradicted([holds, fails, undefined, unrecorded], metrics) == [fails]
    # at the paper's setting every statement must be decided, and hold
    assert contradicted([holds, fails, undefined, unrecorded], metrics, strict=True) == [
        fails,
        undefined,
        unrecorded,
    ]
    assert contradicted([holds], None, strict=True) == [holds]
