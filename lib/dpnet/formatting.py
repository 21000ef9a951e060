"""Numbers for people: how the book writes the numbers of its tables and prose.

* Counts (integer columns, and float columns whose values are all whole numbers, not just 0 and 1)
  are written with thousands separators and no decimals: ``12,721``.
* Other numbers are written with the same number of significant digits (3 by default, per column if
  asked): ``0.0123``, ``1.50``, ``12.3``; numbers of that many digits or more before the point are
  rounded to whole numbers, with thousands separators (``1,235``).
* Numbers too small or too large for that are written ``1.23×10⁻⁵``: never ``1.23e-05`` or
  ``1e+07``.
* An undefined value (``NaN``, ``None``) is a dash, and the table says under it what the dash means.

:func:`for_people` formats a table (a pandas Styler for the notebook to show); :func:`number` and
:func:`count` format one value; :func:`formatted` applies a format spec and rewrites any exponent
it produces (what :meth:`dpnet.results.Results.glue` glues into the prose).
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from pandas.api import types

__all__ = ["DASH", "count", "for_people", "formatted", "label", "number", "times_ten"]

#: What a table shows for an undefined value.
DASH = "—"
_MINUS = "−"
_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
_EXPONENT = re.compile(r"(?<![\w.])(-?)(\d+(?:\.\d*)?)[eE]([+-]?\d+)(?![\w.])")
#: Numbers below this (in absolute value) are written with a power of ten.
SMALL = 1e-3
#: Numbers at or above this (in absolute value) are written with a power of ten.
LARGE = 1e15


def _minus(text: str) -> str:
    return _MINUS + text[1:] if text.startswith("-") else text


def _power(mantissa: str, exponent: int) -> str:
    ten = "10" + str(exponent).translate(_SUPERSCRIPT)
    return ten if mantissa in ("1", "1.0") else f"{mantissa}×{ten}"


def times_ten(text: str) -> str:
    """Rewrite every number in exponent notation in ``text`` as a power of ten.

    >>> times_ten("tolerance 1e-10, about 2.01e-05 or -6.4e+05")
    'tolerance 10⁻¹⁰, about 2.01×10⁻⁵ or −6.4×10⁵'
    """

    def rewrite(match: re.Match[str]) -> str:
        sign, mantissa, exponent = match.groups()
        return (_MINUS if sign else "") + _power(mantissa, int(exponent))

    return _EXPONENT.sub(rewrite, text)


def formatted(value: Any, spec: str) -> str:
    """``format(value, spec)`` with any exponent written as a power of ten (``".1e"``, ``"g"``, …)."""
    return times_ten(format(value, spec))


def _undefined(value: Any) -> bool:
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    return isinstance(value, (float, np.floating)) and math.isnan(value)


def count(value: Any) -> str:
    """A whole number with thousands separators (``12,721``); a dash when undefined."""
    if _undefined(value):
        return DASH
    if isinstance(value, (float, np.floating)) and math.isinf(value):
        return _minus("-∞") if value < 0 else "∞"
    return _minus(f"{round(float(value)) if not isinstance(value, numbers.Integral) else int(value):,}")


def number(value: Any, digits: int = 3) -> str:
    """``value`` with ``digits`` significant digits, for people.

    Whole numbers (ints) are written as counts (:func:`count`). A float keeps its trailing zeros
    (``1.50``); one with ``digits`` or more digits before the point is written without decimals, with
    thousands separators (``12,346.2`` to 3 digits is ``12,300``); one below 10⁻³ or from 10¹⁵ on is
    written ``1.23×10⁻⁵``.
    Minus signs are typographic (``−``), infinities ``∞``, undefined values a dash.
    """
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, (numbers.Integral, np.integer)):
        return count(value)
    if _undefined(value):
        return DASH
    x = float(value)
    if math.isinf(x):
        return count(x)
    if x == 0:
        return "0"
    rounded = f"{abs(x):.{digits - 1}e}"  # x rounded to `digits` significant digits
    mantissa, exponent = rounded.split("e")
    power = int(exponent)
    sign = _MINUS if x < 0 else ""
    if float(rounded) < SMALL or float(rounded) >= LARGE:
        return sign + _power(mantissa, power)
    if power >= digits - 1:  # no decimals: the rounded number, with thousands separators
        return sign + count(float(rounded))
    return sign + f"{abs(x):,.{digits - 1 - power}f}"


def label(value: Any) -> str:
    """A parameter value or a row or column label: a number as short as it is exact (``0.25``, ``10``,
    ``1,000``, ``10⁻⁵``), text as it is, a dash when undefined."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.number)):
        return DASH if _undefined(value) else str(value)
    if _undefined(value):
        return DASH
    if (
        isinstance(value, (numbers.Integral, np.integer))
        or not math.isfinite(value)
        or float(value).is_integer()
    ):
        return count(value)
    return _minus(formatted(float(value), ",g"))


def _is_count(column: Any) -> bool:
    """Integer columns, and float columns whose defined values are all whole numbers, one of them
    beyond ±1 (a column of 0s and 1s is more likely a probability than a count)."""
    if types.is_bool_dtype(column):
        return False
    if types.is_integer_dtype(column):
        return True
    if not types.is_float_dtype(column):
        return False
    values = column.to_numpy(dtype=float, na_value=np.nan)
    values = values[np.isfinite(values)]
    whole = bool(np.all(values == np.round(values))) and bool(np.all(np.abs(values) < LARGE))
    return values.size > 0 and whole and bool(np.any(np.abs(values) > 1))


def _cell(digits: int) -> Callable[[Any], str]:
    """Format any one value (an object column mixes numbers and text)."""

    def show(value: Any) -> str:
        if isinstance(value, (numbers.Number, np.number, np.bool_)) or _undefined(value):
            return number(value, digits)
        return str(value)

    return show


def _label_cell(value: Any) -> str:
    return value if isinstance(value, str) else label(value)


def _spec(fmt: str | Callable[[Any], str]) -> Callable[[Any], str]:
    """A column's own format (``"{:.1%}"`` or a function), with a dash for undefined values."""

    def show(value: Any) -> str:
        if _undefined(value):
            return DASH
        return times_ten(fmt(value) if callable(fmt) else fmt.format(value))

    return show


def for_people(
    frame: Any,
    *,
    digits: int | Mapping[Any, int] = 3,
    formats: Mapping[Any, str | Callable[[Any], str]] | None = None,
    labels: Sequence[Any] = (),
    undefined: str = "undefined",
    index: bool | None = None,
    transpose: bool = False,
) -> Any:
    """A table formatted for people: a pandas Styler of ``frame`` that the notebook shows.

    Parameters
    ----------
    frame
        A pandas DataFrame. Its values are not changed, only how they are written.
    digits
        Significant digits of the non-count numbers (:func:`number`): one for every column, or a
        mapping from column to digits (columns left out get 3).
    formats
        A column's own format, overriding the rules: a ``str.format`` pattern (``"{:.1%}"``) or a
        function of the value. Undefined values still show a dash, and exponents a power of ten.
    labels
        Columns of parameter values (a grid of ε, say), written as short as they are exact
        (``0.25``, ``1``, ``10``; :func:`label`) rather than to ``digits`` significant digits.
    undefined
        What a dash means, said under the table when one is shown ("not reached within T").
    index
        Whether to show the row labels; by default only when they say something (not a plain
        0, 1, 2, … range).
    transpose
        Show the columns as rows (one record per column), each formatted by its own column's rules.

    Counts get thousands separators and no decimals, other numbers ``digits`` significant digits,
    no number is written with an ``e``, row and column labels that are numbers are written plainly,
    and numbers are right-aligned in tabular figures.
    """
    formats = dict(formats or {})
    per_column = digits if isinstance(digits, Mapping) else {}
    default = 3 if isinstance(digits, Mapping) else int(digits)
    columns: dict[Any, Callable[[Any], str]] = {}
    numeric = []
    for name in frame.columns:
        column = frame[name]
        if isinstance(column, pd.DataFrame):  # a repeated column label: format cell by cell
            raise ValueError(f"for_people needs distinct column labels ({name!r} is repeated)")
        if name in formats:
            columns[name] = _spec(formats[name])
        elif name in labels:
            columns[name] = _label_cell
        elif _is_count(column):
            columns[name] = count
        else:
            columns[name] = _cell(per_column.get(name, default))
        if types.is_numeric_dtype(column) and not types.is_bool_dtype(column):
            numeric.append(name)
    shown_dash = any(_undefined(v) for name in frame.columns for v in frame[name].tolist())
    if transpose:  # format each column by its own rules, then turn the columns into rows
        shown = pd.DataFrame({name: [columns[name](v) for v in frame[name]] for name in frame.columns},
                             index=frame.index).T  # fmt: skip
        styler = shown.style.format_index(label, axis=0).format_index(label, axis=1)
        numeric = list(shown.columns)
    else:
        styler = frame.style.format(columns).format_index(label, axis=1)
        if index is None:  # a plain 0, 1, 2, … says nothing
            plain = frame.index.nlevels == 1 and frame.index.name is None
            index = not (plain and list(frame.index) == list(range(len(frame))))
        styler = styler.format_index(label, axis=0) if index else styler.hide(axis="index")
    if numeric:
        aligned = {"text-align": "right", "font-variant-numeric": "tabular-nums"}
        styler = styler.set_properties(subset=numeric, **aligned)
    if shown_dash:
        styler = styler.set_caption(f"{DASH} {undefined}").set_table_styles(
            [{"selector": "caption", "props": "caption-side: bottom; text-align: left; font-size: 0.9em;"}],
            overwrite=False,
        )
    return styler
