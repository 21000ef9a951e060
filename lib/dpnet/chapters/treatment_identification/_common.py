"""What Figure 5 and the best-arm curve share: the four arms' control, the algorithms, and the cost of a
four-arm private study."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

__all__ = ["ALGORITHMS", "CONTROL", "STUDY_SECONDS", "study_rounds"]

#: The control arm of ACTG 175: every treatment is compared with it. The best arm is that of the pooled
#: Cox fits of Figure 4 (:data:`~dpnet.reference.clinical.FIG4_BEST_ARM`).
CONTROL = "ZDV"
#: The belief-propagation algorithms of Figure 5, and their short names in metrics.json.
ALGORITHMS: dict[str, str] = {"GM": "gm", "AM": "am", "two-threshold": "thr"}

#: Measured on this 2-core machine (one core): one round of one centre of one replication of a four-arm
#: private MLE study.
STUDY_SECONDS = 2e-6


def study_rounds(values: Mapping[str, Any]) -> int:
    """The authors' rounds over the four arms at the run's α: ``K = ⌈4 log(4/α)⌉``."""
    return math.ceil(4 * math.log(4 / values["alpha"]))
