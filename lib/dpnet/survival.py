"""Survival data and the Cox partial likelihood for private distributed hypothesis testing.

Two clinical datasets, both fetched (and checksum-verified) through :func:`dpnet.data.fetch`:

- :func:`load_actg175`: the ACTG 175 trial (Hammer et al. 1996), 2139 patients in four arms;
- :func:`load_samstein2019`: tumour mutational burden (TMB) and overall survival of 1662
  immune-checkpoint-inhibitor patients (Samstein et al. 2019, Nat Genet 51:202).

:func:`cox_partial_loglik` evaluates the one-covariate Cox partial log-likelihood on a grid of
log hazard ratios, either as written in the paper (eq. 3, Breslow risk sets) or as coded in the
authors' notebook (``variant="as_published"``, which sums the log risk term over every patient).
:func:`split_centres` assigns patients to centres (hospitals).
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

from dpnet.data import fetch
from dpnet.errors import ParameterError
from dpnet.params import choice, integer

__all__ = [
    "ACTG175_ARMS",
    "LEGACY_LOG_OFFSET",
    "cox_partial_loglik",
    "load_actg175",
    "load_samstein2019",
    "split_centres",
]

#: Arm names of ACTG 175 by the CSV's ``trt`` code.
ACTG175_ARMS: tuple[str, ...] = ("ZDV", "ZDV+ddI", "ZDV+Zal", "ddI")

#: The constant the legacy notebook adds inside the log of each risk-set sum.
LEGACY_LOG_OFFSET = 1e-10

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


# ----------------------------------------------------------------------------------------------------------
# Data


def load_actg175() -> pd.DataFrame:
    """The ACTG 175 trial as a tidy frame, one row per patient in the CSV's original row order.

    The row order (and the default ``RangeIndex``) is the registry CSV's: the authors assign centres by
    ``row index mod n`` (see :func:`split_centres`), so keep the index when filtering.

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
        raise ValueError(f"ACTG 175 CSV lacks the columns {sorted(missing)}")
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
    import warnings

    with warnings.catch_warnings():
        # openpyxl warns about an Excel extension it drops; the cell data are unaffected.
        warnings.filterwarnings("ignore", message="Unknown extension", category=UserWarning)
        raw = pd.read_excel(fetch("samstein2019"), header=1, engine="openpyxl")
    missing = set(_SAMSTEIN_COLUMNS) - set(raw.columns)
    if missing:
        raise ValueError(f"Samstein et al. 2019 sheet lacks the columns {sorted(missing)}")
    frame = raw[list(_SAMSTEIN_COLUMNS)].rename(columns=_SAMSTEIN_COLUMNS)
    frame["time"] = frame["time"].astype(int)
    frame["event"] = frame["event"].astype(int)
    frame["tmb"] = frame["tmb"].astype(float)
    return frame


# ----------------------------------------------------------------------------------------------------------
# Cox partial likelihood


def _vector(name: str, value: ArrayLike) -> NDArray[np.float64]:
    arr = np.asarray(value, dtype=float)
    if arr.ndim != 1:
        raise ParameterError(f"{name} must be a 1-D array (got shape {arr.shape})")
    if not np.all(np.isfinite(arr)):
        raise ParameterError(f"{name} must hold finite real numbers")
    return arr


def cox_partial_loglik(
    x: ArrayLike,
    time: ArrayLike,
    event: ArrayLike,
    theta: ArrayLike,
    *,
    variant: Literal["paper", "as_published"] = "paper",
) -> NDArray[np.float64] | float:
    r"""Cox partial log-likelihood of a single covariate, for each of several log hazard ratios θ.

    ``variant="paper"`` is eq. (3) of the paper with Breslow risk sets (all patients still at risk,
    ties included):

    .. math::

        \log \ell(S \mid \theta) = \sum_{j:\, \delta_j = 1}
            \Bigl[ x_j \theta - \log \sum_{j':\, t_{j'} \ge t_j} e^{x_{j'} \theta} \Bigr].

    ``variant="as_published"`` reproduces the authors' notebook (spec §3.7, deviation D1): patients are
    sorted by increasing time with NumPy's default quicksort (what the notebook's pandas ``sort_values``
    uses; it is not stable, so tied times are ordered by the sort's internals), and with that order

    .. math::

        \log \ell^{\mathrm{legacy}}(S \mid \theta) = \sum_j \delta_j x_j \theta
            - \sum_{\text{all } j} \log \Bigl( \sum_{r \ge j} e^{x_r \theta} + 10^{-10} \Bigr),

    i.e. the log risk term runs over every patient (censored ones included) and ties are broken by
    position rather than grouped. The legacy value therefore depends on the tie order: a stable sort
    gives a different number (on ACTG 175 ZDV vs ddI, Λ(−log 2) − Λ(0) = 272.98 instead of 273.17), and
    a NumPy build whose default sort dispatches to a SIMD kernel may order ties differently again.

    The risk-set sums are computed once per θ by a cumulative log-sum-exp over the patients sorted by
    decreasing time, so the cost is O(N log N + N·|θ|) and large ``|x θ|`` do not overflow.

    Parameters
    ----------
    x : array_like, shape (N,)
        Covariate of each patient (e.g. 1 = treatment, 0 = control).
    time : array_like, shape (N,)
        Event or censoring time of each patient.
    event : array_like, shape (N,)
        1 if the event was observed, 0 if censored.
    theta : float or array_like, shape (K,)
        Log hazard ratio(s) at which to evaluate.
    variant : {"paper", "as_published"}
        The correct likelihood (default) or the notebook's.

    Returns
    -------
    numpy.ndarray of shape (K,), or float for a scalar ``theta``
        The partial log-likelihood at each θ. With no patients it is 0.

    Raises
    ------
    dpnet.errors.ParameterError
        If the arrays are not 1-D of one length with finite values, ``event`` is not 0/1, ``theta`` is
        not a finite scalar or 1-D array, or ``variant`` is unknown.
    """
    variant = choice("paper", "as_published")("variant", variant)
    xs = _vector("x", x)
    ts = _vector("time", time)
    ev = _vector("event", event)
    if not (len(xs) == len(ts) == len(ev)):
        raise ParameterError(
            f"x, time and event must have the same length (got {len(xs)}, {len(ts)}, {len(ev)})"
        )
    if not np.all((ev == 0) | (ev == 1)):
        raise ParameterError("event must hold only 0 (censored) and 1 (event observed)")
    th = np.asarray(theta, dtype=float)
    scalar = th.ndim == 0
    if th.ndim > 1:
        raise ParameterError(f"theta must be a scalar or a 1-D array (got shape {th.shape})")
    th = np.atleast_1d(th)
    if not np.all(np.isfinite(th)):
        raise ParameterError("theta must hold finite real numbers")
    if len(xs) == 0:
        out = np.zeros(th.shape)
        return float(out[0]) if scalar else out

    linear = (ev * xs).sum() * th  # Σ_j δ_j x_j θ, shape (K,)
    if variant == "paper":
        order = np.argsort(-ts, kind="stable")  # decreasing time
        t_desc = ts[order]
        eta = np.outer(xs[order], th)  # (N, K)
        log_cum = np.logaddexp.accumulate(eta, axis=0)  # log Σ_{r ≤ i in decreasing order} e^{x_r θ}
        # A tied event's risk set includes every patient with t ≥ t_j: take the cumulative sum at the
        # last position (in decreasing order) holding the same time.
        last = np.searchsorted(-t_desc, -t_desc, side="right") - 1
        events = ev[order] == 1
        log_risk = log_cum[last[events]]  # (n_events, K)
        out = linear - log_risk.sum(axis=0)
    else:
        # NumPy's default (unstable) quicksort, as pandas' ``sort_values`` in the notebook: tied times
        # end up in the order that sort leaves them, which the legacy value depends on.
        order = np.argsort(ts)
        eta = np.outer(xs[order], th)[::-1]  # reversed: latest first
        log_tail = np.logaddexp.accumulate(eta, axis=0)  # log Σ_{r ≥ j in increasing order}
        log_risk = np.logaddexp(log_tail, np.log(LEGACY_LOG_OFFSET))  # log(Σ + 1e-10)
        out = linear - log_risk.sum(axis=0)
    return float(out[0]) if scalar else out


# ----------------------------------------------------------------------------------------------------------
# Centres


def split_centres(
    n_rows: int,
    n_centres: int,
    *,
    method: Literal["round_robin", "random"] = "round_robin",
    rng: np.random.Generator | int | None = None,
) -> NDArray[np.int64]:
    """Assign ``n_rows`` patients to ``n_centres`` centres (hospitals).

    - ``"round_robin"`` (the authors' split): patient ``i`` goes to centre ``i mod n_centres``. The
      notebook applies this to the **original CSV row index**, also after filtering a subset, so to
      reproduce it compute the labels on the full table and then filter (equivalently use
      ``frame.index % n_centres`` on a frame from :func:`load_actg175`).
    - ``"random"``: a uniformly random balanced split, a random permutation of the round-robin labels.

    Either way the centre sizes are ``⌊n_rows / n_centres⌋`` or ``⌈n_rows / n_centres⌉``.

    Parameters
    ----------
    n_rows : int
        Number of patients, ≥ 1.
    n_centres : int
        Number of centres, 1 ≤ n_centres ≤ n_rows (so no centre is empty).
    method : {"round_robin", "random"}
        How to assign.
    rng : numpy.random.Generator, int or None
        Generator or seed for ``"random"`` (None: fresh OS entropy); ignored by ``"round_robin"``.

    Returns
    -------
    numpy.ndarray of int64, shape (n_rows,)
        Centre label 0 … n_centres − 1 of each patient.

    Raises
    ------
    dpnet.errors.ParameterError
        If a count is out of range or ``method`` is unknown.
    """
    n_rows = integer(ge=1)("n_rows", n_rows)
    n_centres = integer(ge=1, le=n_rows)("n_centres", n_centres)
    method = choice("round_robin", "random")("method", method)
    labels = np.arange(n_rows, dtype=np.int64) % n_centres
    if method == "random":
        generator = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
        labels = generator.permutation(labels)
    return labels
