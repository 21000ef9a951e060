"""Chapter 6, ``distributed-estimation``: private distributed estimation on power networks (paper 001)."""

from __future__ import annotations

from typing import Any

from dpnet.params import COMMON, Check, Param, Schema, choice, eps_grid, integer, list_of, real

__all__ = ["SCHEMA"]


_ESTIMATION_DATASETS = ("us_power_grid", "german_households")


def _datasets() -> Check:
    """One dataset name, or a list of distinct ones."""
    names = list_of(choice(*_ESTIMATION_DATASETS))

    def convert(value: Any) -> list[str]:
        return names.convert([value] if isinstance(value, str) else value)

    return Check(f"one of {_ESTIMATION_DATASETS} or a list of them", convert)


def _paper_or_integer(*, ge: int, le: int) -> Check:
    """The string ``"paper"`` (the paper's value) or an integer within bounds."""
    number = integer(ge=ge, le=le)

    def convert(value: Any) -> Any:
        return value if value == "paper" else number.convert(value)

    return Check(f"'paper' or {number.describe}", convert)


SCHEMA = Schema(
    {
        **COMMON,
        "seed": Param(integer(ge=0), "seed of every random draw in the chapter"),
        "dataset": Param(_datasets(), "network(s) and signals: us_power_grid, german_households"),
        "eps_values": Param(eps_grid(allow_zero=False), "privacy budgets ε of Figure 7"),
        "horizon": Param(
            _paper_or_integer(ge=2, le=20_000),
            "rounds T ('paper': 100 on the US grid, 1096 on the German households)",
        ),
        "n_draws": Param(integer(ge=2, le=1000), "noise draws per point of Figure 7", quick=10, full=10),
        "calibration": Param(
            choice("paper", "authors_code"), "smooth-sensitivity calibration of Figures 3–6"
        ),
        "delta": Param(real(gt=0.0, lt=1.0), "δ of (ε, δ)-DP under smooth sensitivity (paper: 0.01)"),
        "data_seed": Param(integer(ge=0), "seed of the synthetic signals (authors: 0)"),
        "n_mc": Param(integer(ge=100, le=100_000), "runs of the exact-moment check", quick=1000, full=2000),
    }
)
