"""Parameters: value checks, and the schema that declares a chapter's parameters once.

A :class:`Schema` holds, for every parameter, its check (type and range), a one-line description,
its default (one value, or one for ``quick`` (CI-sized) and one for ``full`` (the paper's sizes), or
a rule deriving it from the other parameters) and, where the paper fixes it, the paper's value.

:func:`resolve` fills the defaults of the parameters left out (or set to ``None``), validates every
value and returns :class:`Parameters`: the values, plus the questions a chapter asks of them (is this
the paper's setting? which random stream is named ``"fig5"``?). Every error is a
:class:`~dpnet.errors.ParameterError` naming the parameter and its allowed range. The per-chapter
schemas live in :mod:`dpnet.chapters`; this module knows no chapter.
"""

from __future__ import annotations

import itertools
import json
import math
import numbers
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dpnet.cores import machine_memory
from dpnet.errors import ParameterError
from dpnet.sweep import Stream, name_key

__all__ = [
    "AS_DEFAULT",
    "COMMON",
    "LONG_RUN_SECONDS",
    "SHOWN_CHARACTERS",
    "Cost",
    "Footprint",
    "Param",
    "Parameters",
    "Rule",
    "Schema",
    "budgets",
    "choice",
    "eps_grid",
    "from_namespace",
    "integer",
    "list_of",
    "quoted_name",
    "real",
    "resolve",
    "shown",
    "total",
]


@dataclass(frozen=True)
class Rule:
    """A value rule: ``convert`` returns the normalised value or raises ``ValueError``.

    ``extremes`` are accepted values at the ends of its range (for an open end, a value 1 % of the
    way in): the values a chapter must run with or refuse up front, which the tests try.
    """

    describe: str
    convert: Callable[[Any], Any]
    extremes: tuple[Any, ...] = ()

    def __call__(self, name: str, value: Any) -> Any:
        try:
            return self.convert(value)
        except (ValueError, TypeError) as exc:
            detail = f"; {exc}" if str(exc) else ""
            raise ParameterError(f"{name} must be {self.describe} (got {shown(value)}{detail})") from None


#: How much of a value an error message shows.
SHOWN_CHARACTERS = 80


def shown(value: Any) -> str:
    """A value as an error message quotes it: its repr, cut to :data:`SHOWN_CHARACTERS` (with how long
    it was) so that a huge value does not flood the terminal."""
    text = repr(value)
    if len(text) <= SHOWN_CHARACTERS:
        return text
    return f"{text[: SHOWN_CHARACTERS - 1]}… ({len(text):,} characters)"


def quoted_name(name: str) -> str:
    """A parameter name as a message quotes it: its repr, saying so when it holds characters outside
    ASCII (a Cyrillic ``а`` looks like a Latin ``a``)."""
    if name.isascii():
        return repr(name)
    odd = ", ".join(f"{c!r} U+{ord(c):04X}" for c in dict.fromkeys(name) if not c.isascii())
    return f"{name!r} (not ASCII: {odd})"


def _number(value: Any) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError("not a number")
    if not math.isfinite(value):
        raise ValueError("not finite")
    return float(value)


def real(
    *, gt: float | None = None, ge: float | None = None, lt: float | None = None, le: float | None = None
) -> Rule:
    """A finite real number within the given bounds."""
    parts = []
    if gt is not None:
        parts.append(f"> {gt:g}")
    if ge is not None:
        parts.append(f"≥ {ge:g}")
    if lt is not None:
        parts.append(f"< {lt:g}")
    if le is not None:
        parts.append(f"≤ {le:g}")
    if gt is not None and lt is not None:
        describe = f"a real number in the open interval ({gt:g}, {lt:g})"
    else:
        describe = "a real number" + (" " + " and ".join(parts) if parts else "")

    def convert(value: Any) -> float:
        x = _number(value)
        if (
            (gt is not None and not x > gt)
            or (ge is not None and not x >= ge)
            or (lt is not None and not x < lt)
            or (le is not None and not x <= le)
        ):
            raise ValueError("")
        return x

    low = ge if ge is not None else gt
    high = le if le is not None else lt
    step = 0.01 * (high - low if low is not None and high is not None else 1.0)
    ends = (
        ge if ge is not None else None if gt is None else gt + step,
        le if le is not None else None if lt is None else lt - step,
    )
    return Rule(describe, convert, tuple(e for e in ends if e is not None))


def integer(*, ge: int | None = None, le: int | None = None) -> Rule:
    """An integer within the given bounds."""
    bounds = " and ".join(b for b in (ge is not None and f"≥ {ge}", le is not None and f"≤ {le}") if b)
    describe = "an integer" + (f" {bounds}" if bounds else "")

    def convert(value: Any) -> int:
        if isinstance(value, (bool, np.bool_)):
            raise TypeError("a boolean is not an integer")
        if not isinstance(value, numbers.Integral):
            if isinstance(value, numbers.Real) and float(value).is_integer():
                value = int(value)
            else:
                raise TypeError("not an integer")
        if (ge is not None and value < ge) or (le is not None and value > le):
            raise ValueError("")
        return int(value)

    return Rule(describe, convert, tuple(e for e in (ge, le) if e is not None))


def choice(*options: Any) -> Rule:
    """One of a fixed set of values."""

    def convert(value: Any) -> Any:
        if value not in options:
            raise ValueError("")
        return value

    return Rule("one of " + ", ".join(repr(o) for o in options), convert)


def list_of(item: Rule, *, min_len: int = 1, unique: bool = True) -> Rule:
    """A list of values each passing ``item``."""
    describe = f"a list of at least {min_len} {'distinct ' if unique else ''}values, each {item.describe}"

    def convert(value: Any) -> list[Any]:
        if isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__iter__"):
            raise TypeError("not a list")
        out = [item.convert(v) for v in value]
        if len(out) < min_len:
            raise ValueError(f"it has {len(out)}")
        if unique and len(set(out)) != len(out):
            raise ValueError("values repeat")
        return out

    if min_len == 1:
        return Rule(describe, convert, tuple([e] for e in item.extremes))

    return Rule(describe, convert)


#: The most points a linspace grid of budgets may have (a grid is a list a reader could look at).
_GRID_MAX = 100_000


def eps_grid(*, allow_zero: bool = True) -> Rule:
    """A grid of privacy budgets: an increasing list, or ``{"start", "stop", "num"}`` for linspace."""
    low = "≥ 0" if allow_zero else "> 0"
    describe = (
        f"a strictly increasing list of at least 2 privacy budgets {low}, or a mapping "
        f"{{'start': a, 'stop': b, 'num': k}} with 0 ≤ a < b and 2 ≤ k ≤ {_GRID_MAX:,} (numpy.linspace)"
    )

    def convert(value: Any) -> list[float]:
        if isinstance(value, Mapping):
            if set(value) != {"start", "stop", "num"}:
                raise ValueError("the mapping needs exactly the keys start, stop, num")
            start, stop = _number(value["start"]), _number(value["stop"])
            num = value["num"]
            if isinstance(num, bool) or not isinstance(num, int) or not 2 <= num <= _GRID_MAX:
                raise ValueError("")
            if not 0 <= start < stop:
                raise ValueError("")
            grid = np.linspace(start, stop, num).tolist()  # bit-for-bit the paper's grid
        else:
            grid = list_of(real(ge=0.0), min_len=2).convert(value)
        if any(b <= a for a, b in itertools.pairwise(grid)):
            raise ValueError("not strictly increasing")
        if not allow_zero and grid[0] <= 0:
            raise ValueError("ε must be > 0")
        return grid

    return Rule(describe, convert)


def budgets() -> Rule:
    """An increasing list of ε > 0 in which ``inf`` (or the string ``"inf"``) is the non-private limit."""

    def convert(value: Any) -> list[float]:
        if isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__iter__"):
            raise TypeError("not a list")
        out = [math.inf if _is_inf(v) else real(gt=0.0).convert(v) for v in value]
        if len(out) < 2 or any(b <= a for a, b in itertools.pairwise(out)):
            raise ValueError("it needs at least 2 strictly increasing values")
        return out

    return Rule("a strictly increasing list of at least 2 budgets ε > 0, or 'inf' (last)", convert)


def _is_inf(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("inf", "infinity", "+inf")
    return isinstance(value, numbers.Real) and not isinstance(value, bool) and value == math.inf


class _Unset:
    """The marker of a default or paper value that is not given."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()
#: ``Param(paper=AS_DEFAULT)``: the paper's value is the parameter's (full-mode) default.
AS_DEFAULT: Any = type("AsDefault", (), {"__repr__": lambda self: "AS_DEFAULT"})()


@dataclass(frozen=True)
class Param:
    """One parameter, declared once.

    Parameters
    ----------
    check
        Its type and range (:func:`real`, :func:`integer`, :func:`list_of`, …).
    help
        One line saying what it is.
    default
        Its default in both modes.
    quick, full
        Its defaults in ``quick`` and ``full`` mode, when they differ.
    derive
        A default computed from the other resolved parameters (``derive_help`` says how).
    paper
        The paper's value, :data:`AS_DEFAULT` when it is the full-mode default, or unset when the
        paper does not fix it (a choice of the book's).
    """

    check: Rule
    help: str
    default: Any = UNSET
    quick: Any = UNSET
    full: Any = UNSET
    derive: Callable[[Mapping[str, Any]], Any] | None = None
    derive_help: str = ""
    paper: Any = UNSET

    def default_for(self, mode: str) -> Any:
        """The literal default in ``mode`` (UNSET when derived or absent)."""
        value = getattr(self, mode)
        return self.default if value is UNSET else value

    def paper_value(self) -> Any:
        """The paper's value (UNSET when the paper does not fix it)."""
        return self.default_for("full") if self.paper is AS_DEFAULT else self.paper

    def describe_default(self, name: str = "") -> str:
        """The default of parameter ``name``, as the parameters table shows it."""
        if self.derive is not None:
            return self.derive_help or "derived"
        quick, full = self.default_for("quick"), self.default_for("full")
        if quick is UNSET:
            return "none: must be set"
        if _same(quick, full):
            return _show(quick, name)
        return f"quick {_show(quick, name)}, full {_show(full, name)}"


@dataclass(frozen=True)
class Footprint:
    """What a chapter run needs, estimated from its parameters before it starts.

    Attributes
    ----------
    memory
        Peak memory of its largest arrays, in bytes.
    seconds
        Wall time on one core of a 2020s laptop-class machine, in seconds.
    """

    memory: float
    seconds: float


@dataclass(frozen=True)
class Cost:
    """One experiment's share of a chapter run's footprint (:func:`total` adds them up).

    Attributes
    ----------
    seconds
        Its wall time on one core, in seconds.
    peak
        Bytes it holds while it runs and frees when it returns.
    kept
        Bytes it keeps for the rest of the run (its result).
    """

    seconds: float = 0.0
    peak: float = 0.0
    kept: float = 0.0


def total(costs: Iterable[Cost], *, seconds: float = 0.0, memory: float = 0.0) -> Footprint:
    """The footprint of a run that performs ``costs`` one after another.

    Its memory is ``memory`` (what the run holds throughout: kernel, libraries, data) plus the largest
    peak plus everything kept; its time is ``seconds`` (what no experiment accounts for: kernel start,
    imports, figures) plus every experiment's.
    """
    costs = list(costs)
    peak = max((c.peak for c in costs), default=0.0)
    kept = sum(c.kept for c in costs)
    return Footprint(memory=memory + peak + kept, seconds=seconds + sum(c.seconds for c in costs))


@dataclass(frozen=True)
class Schema:
    """A chapter's parameters, the constraints between them, its named random streams and its footprint.

    ``streams`` maps a stream name to the integer key that seeded it when the chapter's published
    runs were made, so that naming a stream never changes its draws; a name not listed is keyed by
    its SHA-256 (:func:`dpnet.sweep.name_key`). ``footprint`` estimates the run's memory and time
    from the resolved values: :func:`~dpnet.params.resolve` refuses a run that needs more memory than the
    machine has, and one longer than :data:`~dpnet.params.LONG_RUN_SECONDS` unless ``allow_large`` is set.
    """

    params: Mapping[str, Param]
    constraints: tuple[Callable[[Mapping[str, Any]], None], ...] = field(default=())
    streams: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    footprint: Callable[[Mapping[str, Any]], Footprint] | None = None


#: A run estimated to take longer than this (one hour) needs ``allow_large`` (``--allow-large``).
LONG_RUN_SECONDS = 3600.0

COMMON: dict[str, Param] = {
    "mode": Param(
        choice("quick", "full"), "'quick' (CI-sized) or 'full' (the paper's sizes)", default="quick"
    ),
    "allow_large": Param(
        choice(False, True),
        "run even when the estimated time exceeds an hour (memory limits still hold)",
        default=False,
    ),
}


class Parameters(Mapping[str, Any]):
    """A chapter's resolved parameters: read-only values with attribute access (``P.alpha``).

    Also answers whether the run uses the paper's setting (:meth:`is_paper`), hands out named random
    streams (:meth:`rng`, :meth:`stream`), and shows itself as a table in a notebook.
    """

    def __init__(self, values: Mapping[str, Any], schema: Schema, chapter: str = "") -> None:
        self._values = dict(values)
        self._schema = schema
        self._chapter = chapter

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"chapter {self._chapter!r} has no parameter {name!r}") from None

    def __repr__(self) -> str:
        return f"Parameters({self._chapter!r}, {self._values!r})"

    def is_paper(self, *names: str) -> bool:
        """True when each named parameter has the paper's value (every parameter the paper fixes if none)."""
        params = self._schema.params
        names = names or tuple(n for n, p in params.items() if p.paper is not UNSET)
        for name in names:
            paper = params[name].paper_value()
            if paper is UNSET:
                raise ParameterError(f"the paper does not fix {name!r}: it has no paper value to compare")
            if not _same(self._values[name], params[name].check(name, paper)):
                return False
        return True

    def stream(self, name: str) -> Stream:
        """The random stream called ``name``, derived from the seed and the name."""
        key = self._schema.streams.get(name)
        return Stream(int(self._values["seed"]), tuple(key) if key is not None else name_key(name), name)

    def rng(self, name: str) -> np.random.Generator:
        """A generator of the stream called ``name`` (see :meth:`stream`)."""
        return self.stream(name).rng()

    def table(self) -> Any:
        """One row per parameter: its value in this run, its default, the paper's value, what it is."""
        import pandas as pd

        rows = []
        for name, param in self._schema.params.items():
            paper = param.paper_value()
            rows.append({
                "parameter": name,
                "value": _show(self._values[name], name),
                "default": param.describe_default(name),
                "paper": "—" if paper is UNSET else _show(param.check(name, paper), name),
                "meaning": param.help,
            })  # fmt: skip
        return pd.DataFrame(rows).set_index("parameter")

    def _repr_html_(self) -> str:
        return self.table().to_html()


def _same(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)


def _show(value: Any, name: str = "") -> str:
    """A value of parameter ``name`` as the parameters table writes it: numbers as short as they are exact,
    with thousands separators (``50,000``, ``0.25``, ``10⁻⁵``); a long list of numbers by its ends. Seeds
    (``seed``, ``*_seed``) are names, not quantities: written as they are (``20230801``)."""
    from dpnet.formatting import label  # imports pandas, which only a table or a message needs

    if value is None:
        return "none"
    if _is_int(value) and (name == "seed" or name.endswith("_seed")):
        return str(value)
    if isinstance(value, list):
        if len(value) > 8 and all(isinstance(v, (int, float)) for v in value):
            return f"{len(value)} values from {label(value[0])} to {label(value[-1])}"
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return label(value)


def resolve(schema: Schema, values: Mapping[str, Any], chapter: str = "") -> Parameters:
    """Validate parameters and fill the defaults of those left out or set to ``None``.

    Parameters
    ----------
    schema
        The chapter's schema.
    values
        Any subset of the chapter's parameters (the parameters cell with any overrides applied).
    chapter
        The chapter id, for messages.

    Returns
    -------
    Parameters
        Every parameter, normalised, in schema order.
    """
    where = f" for chapter {chapter!r}" if chapter else ""
    unknown = sorted(set(values) - set(schema.params))
    if unknown:
        allowed = ", ".join(schema.params)
        names = ", ".join(quoted_name(name) for name in unknown)
        raise ParameterError(f"unknown parameter(s) {names}{where}; allowed: {allowed}")
    mode_value = values.get("mode")
    mode = schema.params["mode"].check("mode", "quick" if mode_value is None else mode_value)
    out: dict[str, Any] = {}
    derived = []
    for name, param in schema.params.items():
        value = values.get(name)
        if value is None:
            if param.derive is not None:
                derived.append(name)
                continue
            value = param.default_for(mode)
            if value is UNSET:
                raise ParameterError(
                    f"{name} must be set{where}: it has no default in {mode} mode ({param.help})"
                )
        out[name] = param.check(name, value)
    for name in derived:
        param = schema.params[name]
        out[name] = param.check(name, param.derive(out))
    for constraint in schema.constraints:
        constraint(out)
    if schema.footprint is not None:
        _check_footprint(schema, out, mode, where)
    return Parameters({name: out[name] for name in schema.params}, schema, chapter)


def _amount(value: float, unit: str) -> str:
    """``value`` to three significant digits: ``23.5 GiB``, ``8,350 GiB``; from a million on as a power
    of ten (``5.1·10³⁰⁰ GiB``), never as a row of digits."""
    if value >= 10**6:
        return f"{_count(value)} {unit}"
    return f"{value:,.0f} {unit}" if value >= 100 else f"{value:.3g} {unit}"


def _gib(size: float) -> str:
    return _amount(size / 2**30, "GiB") if size >= 2**30 else _amount(size / 2**20, "MiB")


def _duration(seconds: float) -> str:
    for unit, length in (("days", 86400.0), ("hours", 3600.0), ("minutes", 60.0)):
        if seconds >= 2 * length:
            return _amount(seconds / length, unit)
    return _amount(seconds, "s")


def _count(value: float) -> str:
    """An integer for people: ``10⁹``, ``7.7·10⁷`` or ``12,000``."""
    if value < 10**6:
        return f"{value:,.0f}"
    exponent = math.floor(math.log10(value))
    mantissa = value / 10**exponent
    if round(mantissa, 1) >= 10:
        exponent, mantissa = exponent + 1, mantissa / 10
    digits = str(exponent).translate(str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻"))
    return f"10{digits}" if round(mantissa, 1) == 1 else f"{mantissa:.2g}·10{digits}"


def _is_int_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(_is_int(v) for v in value)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _largest_within(
    schema: Schema, values: dict[str, Any], name: str, default: Any, fits: Callable[[Footprint], bool]
) -> int | None:
    """The largest value of integer parameter ``name`` (others as given) whose footprint ``fits``.

    For a list of integers, the largest cap on its values (each value above it lowered to it).
    """
    assert schema.footprint is not None
    value = values[name]
    if _is_int(value) and _is_int(default):
        low, high, at = default, value, lambda k: k
    elif _is_int_list(value) and _is_int_list(default):
        low, high, at = max(default), max(value), lambda k: [min(v, k) for v in value]
    else:
        return None
    if low >= high or not fits(schema.footprint({**values, name: at(low)})):
        return None
    while high - low > max(1, low // 100):  # to within 1 %: the estimate is no finer
        middle = (low + high) // 2
        low, high = (middle, high) if fits(schema.footprint({**values, name: at(middle)})) else (low, middle)
    return low


def _check_footprint(schema: Schema, values: dict[str, Any], mode: str, where: str) -> None:
    """Refuse a run needing more memory than the machine has, or (without allow_large) over an hour."""
    assert schema.footprint is not None
    need = schema.footprint(values)
    memory = machine_memory()
    too_long = need.seconds > LONG_RUN_SECONDS and not values.get("allow_large", False)
    if need.memory <= memory and not too_long:
        return
    # the parameters set away from their defaults whose return to the default shrinks the run
    changed = []
    for name, param in schema.params.items():
        default = param.derive(values) if param.derive is not None else param.default_for(mode)
        if default is UNSET or _same(default, values[name]):
            continue
        back = schema.footprint({**values, name: param.check(name, default)})
        if back.memory < need.memory or back.seconds < need.seconds:
            changed.append((name, default))
    what = ", ".join(f"{n} = {_show_size(values[n])}" for n, _ in changed) or "these parameters"
    if need.memory > memory:
        fits = lambda f: f.memory <= memory  # noqa: E731
        problem = f"{what} needs about {_gib(need.memory)} of memory{where}; this machine has {_gib(memory)}"
        remedy = ""
    else:
        fits = lambda f: f.seconds <= LONG_RUN_SECONDS  # noqa: E731
        problem = f"{what} would run for about {_duration(need.seconds)}{where}"
        remedy = "; to run it anyway, pass --allow-large (or -p allow_large true)"
    bounds = [
        f"{'each of ' if isinstance(values[n], list) else ''}{n} at most {_count(top)}"
        for n, default in changed
        if (top := _largest_within(schema, values, n, default, fits)) is not None
    ]  # fmt: skip
    limit = " to stay under an hour" if need.memory <= memory else ""
    raise ParameterError(problem + (f"; {', '.join(bounds)}{limit}" if bounds else "") + remedy)


def _show_size(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, list)):
        return _show(value)
    if isinstance(value, int):
        return _count(value)
    return "[" + ", ".join(_count(v) if isinstance(v, int) else _show(v) for v in value) + "]"


def from_namespace(schema: Schema, namespace: Mapping[str, Any], chapter: str = "") -> Parameters:
    """:func:`resolve` the parameters a notebook's namespace defines (parameters cell and injected cell)."""
    return resolve(schema, {name: namespace[name] for name in schema.params if name in namespace}, chapter)
