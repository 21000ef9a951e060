"""dpnet.encrypted (CKKS aggregation with TenSEAL) and dpnet.runtime (the timed DP and HE tests).

The encrypted aggregate is checked against the plaintext sum within CKKS's approximation error; the
timed DP test against the closed-form dynamics of dpnet.inference; the HE test's pooled result against
the centralised likelihood.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpnet import encrypted, networks, runtime
from dpnet import inference as inf
from dpnet.errors import ParameterError
from dpnet.survival import centre_loglik, code_schedule, cox_sensitivity, fit_cox
from dpnet.survival.treatments import bounded_glrt

needs_tenseal = pytest.mark.skipif(
    not encrypted.tenseal_available(), reason="TenSEAL (the 'he' extra) is absent"
)


def _cohort(n: int = 400, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 2, size=n).astype(float)
    t = rng.integers(1, 60, size=n).astype(float) * np.where(x == 1, 1.3, 1.0)
    d = (rng.random(n) < 0.6).astype(float)
    return x, np.round(t, 1), d


@needs_tenseal
def test_encrypted_sum_matches_the_plaintext_sum() -> None:
    rng = np.random.default_rng(1)
    vectors = [rng.uniform(-1e3, 1e4, size=5000) for _ in range(7)]  # two ciphertext chunks each
    keys = encrypted.ckks_keys()
    got = encrypted.encrypted_sum(vectors, keys)
    want = np.sum(vectors, axis=0)
    # CKKS with scale 2^40: absolute error ~ 1e-6 on values ~ 1e4 (relative ~1e-10), far below ½
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-3)
    assert np.abs(got - want).max() > 0  # it is approximate: this is not a plaintext shortcut


@needs_tenseal
def test_aggregator_never_needs_the_secret_key() -> None:
    keys = encrypted.ckks_keys()
    public = keys.public_context()
    assert not public.is_private()
    messages = [encrypted.encrypt_vector(public, np.arange(5.0) * k, keys.slots) for k in (1, 2)]
    total = encrypted.aggregate(public, messages)
    np.testing.assert_allclose(encrypted.decrypt_vector(keys, total, 5), np.arange(5.0) * 3, atol=1e-4)
    with pytest.raises(ParameterError, match="in magnitude"):
        encrypted.encrypt_vector(public, [2.0**21], keys.slots)
    with pytest.raises(ParameterError, match="same number of ciphertext chunks"):
        encrypted.aggregate(public, [messages[0], messages[0] * 2])


@needs_tenseal
def test_he_test_returns_the_centralised_lrt() -> None:
    x, t, d = _cohort()
    centres = np.arange(len(x)) % 6
    timing = runtime.time_he_test(x, t, d, centres, grid=np.unique(t[d == 1]))
    fit = fit_cox(x, t, d)
    assert timing.result["theta_hat"] == pytest.approx(fit.theta, abs=1e-8)
    assert timing.result["lrt"] == pytest.approx(fit.lrt, rel=1e-9)
    assert timing.result["max_count_error"] < 1e-3
    seconds = timing.seconds
    assert set(seconds) == set(runtime.PHASES)
    parts = seconds["setup"] + seconds["local"] + seconds["communication"] + seconds["decryption"]
    assert seconds["total"] == pytest.approx(parts)
    assert seconds["local per centre"] == pytest.approx(seconds["local"] / 6)


def test_without_tenseal_the_error_names_the_install_step(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(encrypted, "tenseal_available", lambda: False)
    with pytest.raises(ParameterError, match=r"pip install -e '\.\[he\]'"):
        encrypted.ckks_keys()


def test_timed_dp_test_is_the_closed_form_gm_statistic() -> None:
    x, t, d = _cohort(seed=2)
    centres = np.arange(len(x)) % 5
    theta1 = -math.log(2)
    timing = runtime.time_dp_test(x, t, d, centres, theta_alt=theta1, rng=np.random.default_rng(9))
    # the same run in closed form: the same table, schedule and noise draws
    table = centre_loglik(x, t, d, centres, [0.0, theta1])
    A = networks.metropolis_hastings(networks.make_graph("complete", 5)).toarray()
    a_star, delta = networks.spectral_constants(A).a_star, cox_sensitivity(abs(theta1))
    sched = code_schedule(table, a_star=a_star, delta=delta, **runtime.RUNTIME_SETTING, convention="paper")
    noise = inf.laplace_noise(np.random.default_rng(9), sched.noise_scale, n_reps=1, K=sched.K, n_agents=5,
                              n_states=2)[0]  # fmt: skip
    want = inf.gm_test_statistic(inf.scaled_log_ratios(table, A, sched.T, noise))
    assert (timing.result["K"], timing.result["T"]) == (sched.K, sched.T)
    assert timing.result["statistic"] == pytest.approx(float(want.mean()), rel=1e-6)
    assert timing.seconds["setup"] == timing.seconds["decryption"] == 0.0


def test_composite_dp_test_uses_the_centres_bounded_glrts() -> None:
    """The composite test's table is (0, the centre's GLRT with |θ| ≤ |θ₁|), with the simple test's
    schedule formulas and noise."""
    x, t, d = _cohort(seed=2)
    centres = np.arange(len(x)) % 5
    theta1 = -math.log(2)
    timing = runtime.time_dp_test(x, t, d, centres, theta_alt=theta1, rng=np.random.default_rng(9),
                                  test="composite", penalizer=0.05)  # fmt: skip
    glrt = [bounded_glrt(x[centres == i], t[centres == i], d[centres == i], penalizer=0.05,
                         b_theta=math.log(2))
            for i in range(5)]  # fmt: skip
    table = np.array([[0.0, g.value] for g in glrt])
    A = networks.metropolis_hastings(networks.make_graph("complete", 5)).toarray()
    a_star, delta = networks.spectral_constants(A).a_star, cox_sensitivity(abs(theta1))
    sched = code_schedule(table, a_star=a_star, delta=delta, **runtime.RUNTIME_SETTING, convention="paper")
    noise = inf.laplace_noise(np.random.default_rng(9), sched.noise_scale, n_reps=1, K=sched.K, n_agents=5,
                              n_states=2)[0]  # fmt: skip
    want = inf.gm_test_statistic(inf.scaled_log_ratios(table, A, sched.T, noise))
    assert (timing.result["K"], timing.result["T"]) == (sched.K, sched.T)
    assert timing.result["statistic"] == pytest.approx(float(want.mean()), rel=1e-6)
    with pytest.raises(ParameterError, match="test must be one of"):
        runtime.time_dp_test(x, t, d, centres, theta_alt=theta1, rng=np.random.default_rng(9), test="wald")


def test_runtime_task_records_and_speedups() -> None:
    x, t, d = _cohort(seed=4)
    task = runtime.RuntimeTask(x=x, time=t, event=d, rows=300, n_values=(3, 6), repeats=2, theta_alt=-0.5,
                               with_he=encrypted.tenseal_available(), with_composite=True,
                               penalizer=0.05)  # fmt: skip
    records = runtime.runtime_task(task, np.random.default_rng(0))
    methods = {r["method"] for r in records}
    assert methods == (set(runtime.METHODS) if task.with_he else {runtime.METHODS[0], runtime.METHODS[2]})
    assert {(r["n"], r["rows"]) for r in records} == {(3, 300), (6, 300)}
    assert len(records) == len(methods) * 2 * len(runtime.PHASES)
    fake = [{"method": m, "n": 3, "rows": 10, "phase": "total", "seconds": s}
            for m, s in zip(runtime.METHODS, (0.5, 2.0, 1.0), strict=True)]  # fmt: skip
    fake.append({"method": runtime.METHODS[1], "n": 3, "rows": 10, "phase": "setup", "seconds": 1.5})
    assert runtime.speedups(fake) == {(3, 10): 4.0}
    assert runtime.speedups(fake, dp=runtime.METHODS[2]) == {(3, 10): 2.0}
    assert runtime.speedups(fake, without_setup=True) == {(3, 10): 1.0}  # (2.0 − 1.5)/0.5


def test_the_simple_tests_draws_do_not_depend_on_the_composite_one() -> None:
    """The composite test is timed after the others, so adding it leaves their draws, and their results,
    unchanged."""
    x, t, d = _cohort(seed=4)
    common = dict(x=x, time=t, event=d, rows=300, n_values=(3, 6), repeats=1, theta_alt=-0.5, with_he=False)
    plain = runtime.runtime_task(runtime.RuntimeTask(**common), np.random.default_rng(0))
    both = runtime.runtime_task(runtime.RuntimeTask(**common, with_composite=True, penalizer=0.05),
                                np.random.default_rng(0))  # fmt: skip
    results = [(r["n"], r["result"]["statistic"]) for r in plain if r["phase"] == "total"]
    assert results == [(r["n"], r["result"]["statistic"]) for r in both
                       if r["phase"] == "total" and r["method"] == runtime.METHODS[0]]  # fmt: skip


def test_resampling_and_one_core() -> None:
    rows = runtime.resample_rows(10, 1000, np.random.default_rng(0))
    assert rows.shape == (1000,) and rows.min() >= 0 and rows.max() <= 9
    assert len(np.unique(rows)) == 10  # with replacement: every row is drawn, many twice
    before = runtime.os.sched_getaffinity(0) if hasattr(runtime.os, "sched_getaffinity") else None
    with runtime.one_core():
        if before is not None:
            assert len(runtime.os.sched_getaffinity(0)) == 1
    if before is not None:
        assert runtime.os.sched_getaffinity(0) == before


def test_runtime_without_he_times_dp_only() -> None:
    x, t, d = _cohort(seed=8)
    task = runtime.RuntimeTask(x=x, time=t, event=d, rows=200, n_values=(4,), repeats=1, theta_alt=-0.5,
                               with_he=False)  # fmt: skip
    records = runtime.runtime_task(task, np.random.default_rng(1))
    assert {r["method"] for r in records} == {runtime.METHODS[0]}
    assert runtime.speedups(records) == {}  # nothing to compare: the chapter says so instead of a ratio
