"""Paper 001, audited: Signal DP and Network DP with a global sensitivity (a linear statistic,
``ξ(s) = s``, under the paper's adjacency ``|s − s′| ≤ 1``), and with the smooth sensitivity of
``ξ = log s`` (eq. 11) under both calibrations, the text's ``2S*/ε`` and the authors' code's ``2S*``, on
the readings of the US power grid and the German households (Chapter 6's datasets)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from dpnet import estimation as est
from dpnet.audit import MechanismAudit, laplace_pair_epsilon
from dpnet.chapters.privacy_audit._common import (
    AUDIT_SECONDS,
    AuditTask,
    ItemAudit,
    row_confidence,
    run_audits,
)
from dpnet.networks import neighbour_weights
from dpnet.params import Cost, Parameters
from dpnet.reference import estimation as ref_est
from dpnet.reference import privacy_audit as ref
from dpnet.sweep import Stream

__all__ = ["CASES", "DATA", "DATASETS", "GRID", "ITEM", "NEAR_ZERO", "NEIGHBOURS", "cost", "p001_audit"]

ITEM = "p001-audit"
DATASETS = {"us_power_grid": "US grid", "german_households": "German households"}
#: The provenance of the signals: both are synthetic (Chapter 6). The US grid's graph is real, its signals
#: the paper's LogNormal(10, 1); the German households' readings need a login and the authors replaced
#: them by i.i.d. draws with log s ~ N(1.67, 1.04²) before any experiment, which the book's stand-in repeats
#: (note-est-german-stand-in).
DATA = {
    "us_power_grid": "synthetic: LogNormal(10, 1) signals on the real US grid",
    "german_households": "synthetic: the authors' stand-in, log s ~ N(1.67, 1.04²)",
}
#: The smooth rows: (ε, calibration) at the budgets of the paper's sample paths (ε = 1, where the two
#: calibrations agree, and ε = 10), at the paper's δ.
CASES = ((1.0, "paper"), (10.0, "paper"), (10.0, "authors_code"))
#: The stated search of the smooth rows: readings on a grid of ``GRID`` signals evenly spaced in log s over
#: the data's range, each against ``NEIGHBOURS`` adjacent signals evenly spaced over [s − 1, s + 1].
GRID, NEIGHBOURS = 256, 33
#: The adjacent signal standing for s′ → 0 in the audit of a reading s ≤ 1, as a share of s.
NEAR_ZERO = 1e-12
#: Measured on one core: loading both datasets 1.5 s, the search of one smooth row 0.15 s.
_LOAD_SECONDS, _ROW_SECONDS = 1.5, 0.15


def cost(values: Mapping[str, Any]) -> Cost:
    """Loading both datasets, twelve smooth rows and sixteen one-coordinate sampling audits (``32·draws``
    draws); it holds the German readings (8.5 MB) and the US grid's graph."""
    seconds = _LOAD_SECONDS + 12 * _ROW_SECONDS + 32 * AUDIT_SECONDS * values["draws"]
    return Cost(seconds=seconds, peak=6e7 + 32.0 * values["draws"])


def _smooth_row(
    signals: np.ndarray, kind: str, eps: float, calibration: str, a_min: float
) -> dict[str, float]:
    """The worst reading and adjacent signal of a smooth row, by the stated search, and the ε at δ."""
    delta = ref_est.SMOOTH_DELTA
    lo = float(signals.min())
    a = np.array([a_min]) if kind == "network" else None

    def scales(s: np.ndarray) -> np.ndarray:
        out = est.smooth_scales(
            kind,  # type: ignore[arg-type]
            s.reshape(1, -1), eps, delta=delta, a=a, calibration=calibration,  # type: ignore[arg-type]
        )  # fmt: skip
        return out[0]

    if lo <= 1.0:  # infinite local sensitivity: the adjacent signal may approach 0
        s, other = lo, NEAR_ZERO * lo
        b, b_other = scales(np.array([s, other]))
        return {"s": s, "other": other, "b": float(b), "b_other": float(b_other), "implied": math.inf,
                "local": math.inf, "smooth": float(est.smooth_sensitivity(s, eps, delta))}  # fmt: skip
    grid = np.exp(np.linspace(math.log(lo), math.log(float(signals.max())), GRID))
    s = np.repeat(grid, NEIGHBOURS)
    other = (grid[:, None] + np.linspace(-1.0, 1.0, NEIGHBOURS)[None, :]).ravel()
    implied = laplace_pair_epsilon(np.log(s), scales(s), np.log(other), scales(other), delta)
    k = int(np.argmax(implied))
    return {
        "s": float(s[k]), "other": float(other[k]), "b": float(scales(s[k : k + 1])[0]),
        "b_other": float(scales(other[k : k + 1])[0]), "implied": float(implied[k]),
        "local": float(est.local_sensitivity(s[k])),
        "smooth": float(est.smooth_sensitivity(s[k], eps, delta)),
    }  # fmt: skip


def p001_audit(P: Parameters) -> ItemAudit:
    """Four global-sensitivity rows (Signal DP and Network DP on each network, at the run's ``eps``) and
    twelve smooth rows (each network, Signal and Network DP, the three ``CASES``), audited by sampling on
    each row's worst pair (stream ``p001-audit/audit``). The signals are Chapter 6's, drawn from
    ``data_seed``."""
    data = {
        name: est.load_dataset(name, Stream(P.data_seed, key, f"signals/{name}").rng())
        for name, key in (("us_power_grid", (1,)), ("german_households", (2,)))
    }  # the streams of Chapter 6's signals (dpnet.chapters.distributed_estimation.p001_fig2.SIGNAL_KEYS)
    specs, tasks = [], []
    confidence = row_confidence(P)
    for name, d in data.items():
        a = neighbour_weights(d.weights)
        for kind in ("signal", "network"):
            scales = est.laplace_scales(kind, 1.0, P.eps, a=a)  # type: ignore[arg-type]
            shift = np.maximum(1.0, a) if kind == "network" else np.ones(d.n)
            i = int(np.argmax(shift / scales))
            key = f"p001-{kind}-global-{name}"
            specs.append((key, name, kind, "global", P.eps, "", float(shift[i]),
                          float(scales[i]), float(shift[i]), float(shift[i] / scales[i]), d.n))  # fmt: skip
            tasks.append(
                AuditTask(key, "shift", ((float(shift[i]),), (float(scales[i]),)), P.draws, confidence)
            )
        for kind in ("signal", "network"):
            for eps, cal in CASES:
                w = _smooth_row(d.signals, kind, eps, cal, float(a.min()))
                key = f"p001-{kind}-smooth-{name}-{eps:g}-{cal}"
                specs.append((key, name, kind, cal, eps, w, w["smooth"], w["b"], w["local"], w["implied"], 0))
                pair = (math.log(w["s"]), w["b"], math.log(w["other"]), w["b_other"])
                tasks.append(AuditTask(key, "pair", pair, P.draws, confidence, ref_est.SMOOTH_DELTA))
    audited = run_audits(P, ITEM, tasks)
    rows = []
    for key, name, kind, cal, eps, w, stated, scale, measured, implied, n in specs:
        mechanism = f"{kind.capitalize()} DP, " + (
            "linear ξ(s) = s"
            if cal == "global"
            else f"log s, smooth ({'text' if cal == 'paper' else 'code'})"
        )
        if cal == "global":
            how = f"exhaustive over the {n:,} agents" + (" and their neighbours" if kind == "network" else "")
            joint = " jointly with the neighbours' estimates (ℓ1)"
            adjacency = "|s − s′| ≤ 1" + (joint if kind == "network" else "")
        else:
            how = (f"a reading s = {w['s']:.3g} ≤ 1: s′ → 0" if math.isinf(implied)
                   else f"worst of {GRID} readings × {NEIGHBOURS} adjacent signals")  # fmt: skip
            adjacency = "|s − s′| ≤ 1 (δ = 0.01)"
        section = "§3.1, §5.2" if cal != "global" else "§3.1, Cor. 3.2"
        rows.append(MechanismAudit(
            key, "001", section, f"{mechanism}, {DATASETS[name]}", adjacency, stated, scale, eps, measured,
            how, implied, audited[key].epsilon_lower, confidence, P.draws,
            0.0 if cal == "global" else ref_est.SMOOTH_DELTA, data=DATA[name],
        ))  # fmt: skip
    german = data["german_households"].signals
    threshold = est.smoothness_threshold(1.0, ref_est.SMOOTH_DELTA)
    extra = {
        "threshold": threshold, "share_not_smooth": float(np.mean(german < threshold)),
        "share_below_first_order": float(np.mean(german < 2 * math.log(2 / ref_est.SMOOTH_DELTA))),
        "share_at_most_one": float(np.mean(german <= 1.0)), "german_readings": float(german.size),
        "german_min": float(german.min()), "us_min": float(data["us_power_grid"].signals.min()),
    }  # fmt: skip
    linear = [r for r in rows if "global" in r.key]
    smooth = [r for r in rows if "smooth" in r.key]
    checks = ref.p001_checks(linear, smooth, threshold, extra["share_not_smooth"])
    return ItemAudit(ITEM, tuple(rows), extra, {ITEM: checks})
