"""Paper 002, E9 (Chapter 7): distortion, read from E4's runs on small sizes off θ = 1."""

from __future__ import annotations

from small import CHECKS, small

from dpnet.chapters.recommender_maxsense import p002_e4, p002_e9
from dpnet.params import Cost


def test_distortion_reads_every_configuration_of_e4() -> None:
    e4 = p002_e4.maxsense_scarce(small("recommender-maxsense", theta=0.5))
    e9 = p002_e9.distortion(e4)
    assert len(e9.table) == len(e4.unique) and e9.reference_row == e4.unique.index(e4.reference_case)
    assert [c.name for c in e9.checks["p002-e9"]] == CHECKS["p002-e9"].split()


def test_p002_e9_costs_nothing_beyond_the_fixed_seconds() -> None:
    assert p002_e9.cost({"mode": "full"}) == Cost()
