"""The two clinical datasets, fetched (and checksum-verified) through :func:`dpnet.data.fetch`.

- :func:`load_actg175`: the ACTG 175 trial (Hammer et al. 1996), 2139 patients in four arms;
- :func:`load_samstein2019`: tumour mutational burden (TMB) and overall survival of 1662
  immune-checkpoint-inhibitor patients (Samstein et al. 2019, Nat Genet 51:202).

:func:`arm_cohort` and :func:`tmb_cohort` turn them into one-covariate cohorts (columns ``time``,
``event``, ``x``) for the Cox model; :func:`tmb_groups` gives the Kaplan–Meier groups of Fig 14.3. A top
fraction of TMB (:func:`top_fraction`) takes patients tied at its cut-off by an explicit rule
(:data:`TMB_TIE_RULES`; :func:`tied_at_cutoff` finds them).
"""

from __future__ import annotations

import warnings
from typing import Literal

import numpy as np
import pandas as pd

from dpnet.data import fetch
from dpnet.errors import DataError, ParameterError
from dpnet.params import choice

__all__ = [
    "ACTG175_ARMS",
    "TMB_COVARIATES",
    "TMB_GROUPS",
    "TMB_TIE_RULES",
    "TmbTies",
    "arm_cohort",
    "load_actg175",
    "load_samstein2019",
    "tied_at_cutoff",
    "tmb_cohort",
    "tmb_groups",
    "top_fraction",
]

#: Arm names of ACTG 175 by the CSV's ``trt`` code.
ACTG175_ARMS: tuple[str, ...] = ("ZDV", "ZDV+ddI", "ZDV+Zal", "ddI")

_SAMSTEIN_COLUMNS = {
    "Sample.ID": "sample_id",
    "GENDER": "gender",
    "SURVIVAL_MONTHS": "time",
    "SURVIVAL_EVENT": "event",
    "Cancer.Type": "cancer_type",
    "Gene.Panel": "gene_panel",
    "Age_decade": "age_decade",
    "Drug_class": "drug_class",
    "TMB": "tmb",
    "Imm_yearbin": "imm_yearbin",
}


def load_actg175() -> pd.DataFrame:
    """The ACTG 175 trial as a tidy frame, one row per patient in the CSV's original row order.

    The row order (and the default ``RangeIndex``) is the registry CSV's: the authors assign centres by
    ``row index mod n`` (see :func:`~dpnet.survival.centres.split_centres`), so keep the index when filtering.

    Returns
    -------
    pandas.DataFrame
        2139 rows with the columns

        - ``time`` (int): days to event or censoring (14–1231);
        - ``event`` (int): 1 = event observed (the trial's composite failure endpoint: ≥ 50% CD4
          decline, AIDS-defining event or death), 0 = censored; the CSV's ``label``;
        - ``arm`` (int): treatment arm 0–3, the CSV's ``trt``;
        - ``arm_name`` (categorical): ``"ZDV"``, ``"ZDV+ddI"``, ``"ZDV+Zal"``, ``"ddI"`` for arms 0–3;
        - the 21 baseline covariates of the CSV unchanged: ``age``, ``wtkg``, ``hemo``, ``homo``,
          ``drugs``, ``karnof``, ``oprior``, ``z30``, ``zprior``, ``preanti``, ``race``, ``gender``,
          ``str2``, ``strat``, ``symptom``, ``treat``, ``offtrt``, ``cd40``, ``cd420``, ``cd80``,
          ``cd820``.

    Raises
    ------
    dpnet.errors.DataError
        If the file cannot be found, downloaded or verified.
    """
    raw = pd.read_csv(fetch("actg175"))
    missing = {"time", "trt", "label"} - set(raw.columns)
    if missing:
        raise DataError(
            f"ACTG 175 CSV lacks the columns {sorted(missing)}: is the registry file the right one?"
        )
    arm = raw["trt"].astype(int)
    covariates = raw.drop(columns=["time", "trt", "label"])
    frame = pd.DataFrame(
        {
            "time": raw["time"].astype(int),
            "event": raw["label"].astype(int),
            "arm": arm,
            "arm_name": pd.Categorical.from_codes(arm.to_numpy(), categories=list(ACTG175_ARMS)),
        }
    )
    return pd.concat([frame, covariates], axis=1)


def load_samstein2019() -> pd.DataFrame:
    """TMB and overall survival of the Samstein et al. (2019) cohort, from the supplementary xlsx.

    The sheet's first row is a title; the header is its second row. Rows keep the sheet's order.

    Returns
    -------
    pandas.DataFrame
        1662 rows with the columns (sheet column in brackets)

        - ``sample_id`` (``Sample.ID``): MSK-IMPACT sample identifier;
        - ``gender`` (``GENDER``): ``"M"`` or ``"F"``;
        - ``time`` (``SURVIVAL_MONTHS``, int): overall survival in months (0–80);
        - ``event`` (``SURVIVAL_EVENT``, int): 1 = death observed, 0 = censored;
        - ``cancer_type`` (``Cancer.Type``): one of 10 tumour types;
        - ``gene_panel`` (``Gene.Panel``): MSK-IMPACT panel (IMPACT341/410/468);
        - ``age_decade`` (``Age_decade``): age band, e.g. ``"61-70"``;
        - ``drug_class`` (``Drug_class``): checkpoint-inhibitor class;
        - ``tmb`` (``TMB``, float): tumour mutational burden, mutations per megabase (max 209.547);
        - ``imm_yearbin`` (``Imm_yearbin``): period of first immunotherapy.

    Raises
    ------
    dpnet.errors.DataError
        If the file cannot be found, downloaded or verified.
    """
    with warnings.catch_warnings():
        # openpyxl warns about an Excel extension it drops; the cell data are unaffected.
        warnings.filterwarnings("ignore", message="Unknown extension", category=UserWarning)
        raw = pd.read_excel(fetch("samstein2019"), header=1, engine="openpyxl")
    missing = set(_SAMSTEIN_COLUMNS) - set(raw.columns)
    if missing:
        raise DataError(
            f"Samstein et al. 2019 sheet lacks the columns {sorted(missing)}: is it the right file?"
        )
    frame = raw[list(_SAMSTEIN_COLUMNS)].rename(columns=_SAMSTEIN_COLUMNS)
    frame["time"] = frame["time"].astype(int)
    frame["event"] = frame["event"].astype(int)
    frame["tmb"] = frame["tmb"].astype(float)
    return frame


# ----------------------------------------------------------------------------------------------------------
# One-covariate cohorts

#: Covariates of :func:`tmb_cohort`: raw TMB, or an indicator of the top 10 % / 20 % of TMB.
TMB_COVARIATES: tuple[str, ...] = ("raw", "top10", "top20")

#: Kaplan–Meier groups of Fig 14.3, from the highest TMB down.
TMB_GROUPS: tuple[str, ...] = ("Top 10%", "Top 10–20%", "Bottom 80%")

TmbTies = Literal["later_row_first", "earlier_row_first", "at_or_above_cutoff"]
#: The rules for patients tied at the TMB cut-off of a top fraction (:func:`top_fraction`).
TMB_TIE_RULES: tuple[str, ...] = ("later_row_first", "earlier_row_first", "at_or_above_cutoff")


def arm_cohort(frame: pd.DataFrame, treatment: str, control: str = "ZDV") -> pd.DataFrame:
    """The patients of two ACTG 175 arms, with ``x = 1`` for ``treatment`` and ``x = 0`` for ``control``.

    The frame's index (the CSV row number) is kept, so that the authors' round-robin split on it
    (:func:`~dpnet.survival.centres.split_centres`) still applies after filtering.

    Parameters
    ----------
    frame : pandas.DataFrame
        A frame from :func:`load_actg175`.
    treatment, control : str
        Arm names among :data:`ACTG175_ARMS` (``"ZDV"``, ``"ZDV+ddI"``, ``"ZDV+Zal"``, ``"ddI"``).

    Returns
    -------
    pandas.DataFrame
        Columns ``time``, ``event``, ``x`` (int 0/1) and ``arm_name``, in the original row order.

    Raises
    ------
    dpnet.errors.ParameterError
        If an arm name is unknown (the message lists the valid ones) or the two arms are the same.
    """
    for role, name in (("treatment", treatment), ("control", control)):
        if name not in ACTG175_ARMS:
            raise ParameterError(
                f"unknown {role} arm {name!r}; the ACTG 175 arms are {', '.join(ACTG175_ARMS)}"
            )
    if treatment == control:
        raise ParameterError(f"treatment and control must be different arms (both are {treatment!r})")
    cohort = frame.loc[frame["arm_name"].isin([treatment, control]), ["time", "event", "arm_name"]].copy()
    cohort.insert(2, "x", (cohort["arm_name"] == treatment).astype(int))
    return cohort


def top_fraction(tmb: pd.Series, fraction: float, ties: TmbTies = "later_row_first") -> np.ndarray:
    """Indicator (0/1) of the patients in the top ``fraction`` of TMB, with an explicit rule for ties.

    The group is meant to hold the ``k = int(fraction · N)`` patients with the highest TMB; the cut-off is
    the ``k``-th highest value. When patients share the cut-off value, "the first ``k`` by decreasing
    TMB" is not defined, and ``ties`` says which of them are in:

    - ``"later_row_first"``: the ``k`` first by decreasing TMB, tied patients by decreasing row number
      (the later row of the sheet ranks higher);
    - ``"earlier_row_first"``: likewise, tied patients in row order (what a stable descending sort, such
      as pandas' ``sort_values(ascending=False, kind="stable")``, gives);
    - ``"at_or_above_cutoff"``: every patient whose TMB is at least the cut-off, so the group may hold
      more than ``k`` patients.

    Neither row rule is more correct than the other. On the Samstein et al. cohort two patients (rows
    1156 and 1331) share TMB 26.56 at the top-10 % cut: ``"later_row_first"`` takes row 1331 and
    regenerates the reference top-10 % group (Λ(log 0.15) − Λ(0) = 8.27 under eq. (3), an independent
    computation; on the machine that built the book, pandas' default, unstable sort, which the authors'
    notebook used, orders the two so too), ``"earlier_row_first"`` takes row 1156 (8.11), and
    ``"at_or_above_cutoff"`` takes both (167 patients, 8.80).

    Parameters
    ----------
    tmb : pandas.Series
        TMB of each patient, in the sheet's row order.
    fraction : float
        The fraction of patients, in (0, 1].
    ties : {"later_row_first", "earlier_row_first", "at_or_above_cutoff"}
        The rule for patients tied at the cut-off.

    Returns
    -------
    numpy.ndarray of int, shape (N,)

    Raises
    ------
    dpnet.errors.ParameterError
        If ``ties`` is not one of :data:`TMB_TIE_RULES` or ``fraction`` is out of range.
    """
    ties = choice(*TMB_TIE_RULES)("ties", ties)
    if not 0.0 < fraction <= 1.0:
        raise ParameterError(f"fraction must be in (0, 1] (got {fraction!r})")
    values = tmb.to_numpy(dtype=float)
    k = int(fraction * len(values))
    top = np.zeros(len(values), dtype=int)
    if k == 0:
        return top
    rows = np.arange(len(values))
    if ties == "at_or_above_cutoff":
        cutoff = np.sort(values)[::-1][k - 1]
        top[values >= cutoff] = 1
        return top
    tie_key = -rows if ties == "later_row_first" else rows
    order = np.lexsort((tie_key, -values))  # TMB descending, then the tie rule
    top[order[:k]] = 1
    return top


def tied_at_cutoff(tmb: pd.Series, fraction: float) -> np.ndarray:
    """The positions of the patients whose TMB equals the cut-off of the top ``fraction`` (the
    ``int(fraction · N)``-th highest TMB), when they straddle it; empty when the cut is clean.

    These are the patients whose membership :func:`top_fraction`'s tie rules decide.
    """
    values = tmb.to_numpy(dtype=float)
    k = int(fraction * len(values))
    if k == 0 or k >= len(values):
        return np.zeros(0, dtype=int)
    ranked = np.sort(values)[::-1]
    if ranked[k - 1] != ranked[k]:
        return np.zeros(0, dtype=int)
    return np.flatnonzero(values == ranked[k - 1])


def tmb_cohort(
    frame: pd.DataFrame, covariate: str = "raw", *, ties: TmbTies = "later_row_first"
) -> pd.DataFrame:
    """The Samstein et al. cohort with a Cox covariate ``x`` built from TMB.

    - ``"raw"``: TMB itself (mutations per megabase), the authors' covariate;
    - ``"top10"`` / ``"top20"``: 1 for the ``int(0.1 N)`` / ``int(0.2 N)`` patients with the highest
      TMB, else 0: the binary covariate (``B_x = 1``) that §12 assumes. Patients tied at the cut-off
      are taken by the rule ``ties`` (:func:`top_fraction`).

    Parameters
    ----------
    frame : pandas.DataFrame
        A frame from :func:`load_samstein2019`.
    covariate : str
        One of :data:`TMB_COVARIATES`.
    ties : {"later_row_first", "earlier_row_first", "at_or_above_cutoff"}
        The rule for patients tied at the cut-off of ``"top10"`` and ``"top20"`` (ignored by ``"raw"``).

    Returns
    -------
    pandas.DataFrame
        Columns ``time`` (months), ``event``, ``x`` (float), with the frame's index and row order.

    Raises
    ------
    dpnet.errors.ParameterError
        If ``covariate`` or ``ties`` is unknown (the message lists the valid ones).
    """
    if covariate not in TMB_COVARIATES:
        valid = ", ".join(TMB_COVARIATES)
        raise ParameterError(f"unknown TMB covariate {covariate!r}; choose one of {valid}")
    if covariate == "raw":
        x = frame["tmb"].to_numpy(dtype=float)
    else:
        x = top_fraction(frame["tmb"], 0.1 if covariate == "top10" else 0.2, ties).astype(float)
    return pd.DataFrame({"time": frame["time"], "event": frame["event"], "x": x}, index=frame.index)


def tmb_groups(frame: pd.DataFrame, *, ties: TmbTies = "later_row_first") -> pd.Series:
    """Fig 14.3's groups: the top 10 %, next 10 % and bottom 80 % of TMB (``int(0.1 N)`` patients each
    for the first two, patients tied at a cut-off taken by the rule ``ties``, :func:`top_fraction`).
    A categorical Series on the frame's index."""
    top10 = top_fraction(frame["tmb"], 0.1, ties)
    top20 = top_fraction(frame["tmb"], 0.2, ties)
    codes = np.where(top10 == 1, 0, np.where(top20 == 1, 1, 2))
    return pd.Series(pd.Categorical.from_codes(codes, categories=list(TMB_GROUPS)), index=frame.index)
