"""The book's figure mle-trajectories (chapter distributed-mle): one private run, iteration by iteration."""

from __future__ import annotations

import matplotlib.pyplot as plt

from dpnet.chapters import distributed_mle as chapter
from dpnet.chapters import resolve
from dpnet.chapters.distributed_mle import mle_trajectories
from dpnet.params import Cost


def test_mle_trajectories_settle_and_draw() -> None:
    P = resolve("distributed-mle", {"iterations": 30})
    traj = chapter.trajectories(P, chapter.instance(P))
    T, n, m = P.iterations, P.n_agents, P.n_states
    assert traj.iterations == T and traj.alg4.shape == (T + 1, n, m)
    assert traj.rounds.shape == (T + 1, traj.K, n, m)
    assert 0 <= traj.settled <= traj.shown <= T and 0 <= traj.rounds_won <= traj.K
    assert 1 / traj.K <= traj.tau1 and traj.final("alg4")
    plt.close(traj.figure())
    assert mle_trajectories.cost({}) == Cost()
