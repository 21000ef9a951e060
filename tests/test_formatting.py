"""Numbers for people: exact strings of the formatter the book's tables and prose use."""

from __future__ import annotations

import re
from html import unescape

import numpy as np
import pandas as pd
import pytest

from dpnet.formatting import count, for_people, formatted, label, number, times_ten


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (0, "0"),
        (7, "7"),
        (12721, "12,721"),
        (np.int64(-1_000_000), "−1,000,000"),
        (12721.0, "12,721"),
        (np.nan, "—"),
        (None, "—"),
        (np.inf, "∞"),
    ],
)
def test_counts_have_thousands_separators_and_no_decimals(value: object, shown: str) -> None:
    assert count(value) == shown


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (0.5, "0.500"),
        (1.5, "1.50"),
        (12.345, "12.3"),
        (0.012345, "0.0123"),
        (-0.0021, "−0.00210"),
        (123.45, "123"),
        (12721.151, "12,700"),
        (640712.3, "641,000"),
        (9.996, "10.0"),
        (0.0009996, "0.00100"),
        (4.9e-6, "4.90×10⁻⁶"),
        (-2.5e-16, "−2.50×10⁻¹⁶"),
        (2.3e17, "2.30×10¹⁷"),
        (0.0, "0"),
        (np.float64(0.25), "0.250"),
        (42, "42"),
        (123456, "123,456"),
        (True, "yes"),
        (np.nan, "—"),
        (-np.inf, "−∞"),
    ],
)
def test_numbers_have_three_significant_digits_and_no_e(value: object, shown: str) -> None:
    assert number(value) == shown


def test_digits_and_labels() -> None:
    assert number(0.9998575, 7) == "0.9998575"
    assert number(1.2e-8, 2) == "1.2×10⁻⁸"
    assert number(35162.4, 5) == "35,162"
    assert [label(v) for v in (0.25, 1.0, 10, 1e-5, 12345.5, np.inf, np.nan, "no DP")] == [
        "0.25", "1", "10", "10⁻⁵", "12,345.5", "∞", "—", "no DP",
    ]  # fmt: skip


def test_exponents_become_powers_of_ten() -> None:
    text = "tolerance 1e-10, about 2.01e-05 or -6.4e+05"
    assert times_ten(text) == "tolerance 10⁻¹⁰, about 2.01×10⁻⁵ or −6.4×10⁵"
    assert times_ten("Thm 4.8, 3e") == "Thm 4.8, 3e"  # no exponent, nothing changed
    assert formatted(1e7, "g") == "10⁷"
    assert formatted(2.5e-16, ".1e") == "2.5×10⁻¹⁶"
    assert formatted(4.9e-6, ".2g") == "4.9×10⁻⁶"
    assert formatted(0.0123, ".3f") == "0.012"
    assert formatted(12721, ",") == "12,721"


def _cells(styler: object) -> list[list[str]]:
    """The table's rows as the reader sees them (header and body cells, tags stripped)."""
    html = styler.to_html()  # type: ignore[attr-defined]
    rows = re.findall(r"<tr>(.*?)</tr>", html, re.S)
    cells = [re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S) for row in rows]
    return [[unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in row] for row in cells]


def test_a_table_for_people() -> None:
    frame = pd.DataFrame({
        "n": [25, 1000, 50000],
        "ε": [0.25, 1.0, 10.0],
        "rate": [0.5, 0.0123, np.nan],
        "U_90": [1.0, 2000.0, 12721.0],
        "p": [1.2e-8, 0.04, 0.9],
        "T bound": [6.41e5, 7.83e8, 2.07e8],
        "name": ["a", "b", None],
        "holds": [True, False, True],
    })  # fmt: skip
    styler = for_people(frame, digits={"p": 2}, labels=["ε"], undefined="not reached")
    assert _cells(styler) == [
        ["n", "ε", "rate", "U_90", "p", "T bound", "name", "holds"],
        ["25", "0.25", "0.500", "1", "1.2×10⁻⁸", "641,000", "a", "yes"],
        ["1,000", "1", "0.0123", "2,000", "0.040", "783,000,000", "b", "no"],
        ["50,000", "10", "—", "12,721", "0.90", "207,000,000", "—", "yes"],
    ]
    html = styler.to_html()
    assert "<caption>— not reached</caption>" in html and "caption-side: bottom" in html
    assert "e+" not in html and "e-0" not in html and "nan" not in html.lower()
    assert "text-align: right" in html  # numbers are right-aligned


def test_no_dash_no_note_and_index_only_when_it_says_something() -> None:
    plain = for_people(pd.DataFrame({"x": [1.5, 2.5]}))
    assert _cells(plain) == [["x"], ["1.50"], ["2.50"]] and "<caption>" not in plain.to_html()
    rows = pd.Index([4096, 40960], name="rows")
    pivot = pd.DataFrame({0.1: [0.275, 1.0], 1.0: [0.2251, np.inf]}, index=rows)
    assert _cells(for_people(pivot)) == [["", "0.1", "1"], ["rows", "", ""], ["4,096", "0.275", "0.225"],
                                         ["40,960", "1.00", "∞"]]  # fmt: skip


def test_own_formats_transposed_tables_and_mixed_columns() -> None:
    arms = pd.DataFrame({"arm": ["ZDV", "ddI"], "patients": [532, 561], "event rate": [0.3402, np.nan]})
    assert _cells(for_people(arms, formats={"event rate": "{:.1%}"})) == [
        ["arm", "patients", "event rate"], ["ZDV", "532", "34.0%"], ["ddI", "561", "—"],
    ]  # fmt: skip
    columns = {
        "K": [4, 4],
        "noise scale b": [11.0904, 16.0],
        "median p": [3.1e-9, 0.0031],
        "power": [0.8405, np.nan],
    }
    tests = pd.DataFrame(columns, index=pd.Index(["simple", "composite"], name="test"))
    assert _cells(for_people(tests, transpose=True)) == [
        ["test", "simple", "composite"],
        ["K", "4", "4"],
        ["noise scale b", "11.1", "16.0"],
        ["median p", "3.10×10⁻⁹", "0.00310"],
        ["power", "0.841", "—"],
    ]
    mixed = pd.DataFrame({"what": ["smallest ratio", "points"], "value": pd.Series([0.066, 9], dtype=object)})
    assert _cells(for_people(mixed))[1:] == [["smallest ratio", "0.0660"], ["points", "9"]]
    probabilities = pd.DataFrame(
        {"P": [1.0, np.nan, 1.0], "s.e.": [0.0, np.nan, 0.0], "T": [9.0, 2000.0, np.nan]}
    )
    assert _cells(for_people(probabilities))[1:] == [
        ["1.00", "0", "9"],
        ["—", "—", "2,000"],
        ["1.00", "0", "—"],
    ]
    concatenated = pd.DataFrame({"a": [1.5, 2.5]}, index=pd.Index([0, 1]))  # not a RangeIndex, still plain
    assert _cells(for_people(concatenated)) == [["a"], ["1.50"], ["2.50"]]
