"""The book's tables agents, states and constants (chapter distributed-mle): the synthetic instance, its
closed form and its cost."""

from __future__ import annotations

import numpy as np

from dpnet.chapters import distributed_mle as chapter
from dpnet.chapters import resolve
from dpnet.chapters.distributed_mle import synthetic_instance
from dpnet.params import Cost


def test_synthetic_instance_tables_and_constants() -> None:
    P = resolve("distributed-mle", {})
    inst = chapter.instance(P)
    assert (inst.n, inst.n_states) == (P.n_agents, P.n_states)
    assert list(inst.tables()) == ["states", "agents", "constants"] and inst.checks == {}
    assert len(inst.agents) == inst.n and len(inst.states) == inst.n_states
    assert inst.mle.any() and np.array_equal(inst.mle, inst.network_loglik == inst.network_loglik.max())
    assert set(inst.metrics()["instance"]) >= {"thetas", "Lambda", "gap", "a_star", "diameter"}
    assert inst.constants["value"].dtype == object  # counts stay whole numbers


def test_synthetic_instance_closed_form_and_cost() -> None:
    inst = chapter.instance(resolve("distributed-mle", {"graph": "cycle"}))
    assert inst.closed_form_error(synthetic_instance.CLOSED_FORM_ITERATIONS) < 1e-6
    assert synthetic_instance.cost({}) == Cost()
