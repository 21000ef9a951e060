r"""A homomorphic-encryption baseline: centres add encrypted vectors, a key holder decrypts the sum.

Paper 003 (§5, §14.3) compares its private inference with homomorphic-encryption (HE) methods for
multicentre survival analysis (FAMHE, Froelicher et al. 2021) by quoting their published runtimes.
This module implements the simplest HE protocol for the same task, with the CKKS scheme of Microsoft
SEAL through TenSEAL, so that both can be timed on one machine:

1. the **key holder** creates a CKKS key pair (:func:`ckks_keys`) and publishes the public context;
2. every **centre** encrypts its vector of local statistics under the public key and sends the
   serialised ciphertexts (:func:`encrypt_vector`);
3. an **aggregator** adds the ciphertexts without seeing any of them in the clear (:func:`aggregate`);
4. the key holder decrypts the sum (:func:`decrypt_vector`) and learns only the pooled statistics.

For a Cox model with a binary covariate the centres' risk-set counts on a public time grid are such
statistics: their sum determines the pooled partial likelihood exactly
(:func:`~dpnet.survival.binary.counts_likelihood`), so the key holder obtains the *centralised* test. Unlike
FAMHE's multiparty scheme, the secret key sits with one party; collective key generation and
decryption would add rounds of communication, so this baseline is, if anything, favourable to HE.

CKKS is approximate: a decrypted sum carries an error of order ``2^{-20}`` relative to the scale
``2^40`` here, far below ½, so integer counts are recovered exactly by rounding. The parameters
``N = 8192``, moduli ``(60, 40, 40, 60)`` bits (200 ≤ 218 bits) give 128-bit security by the
HomomorphicEncryption.org standard; one ciphertext holds ``N/2 = 4096`` values, and the integer part
of every value and sum must stay below ``2^{20}`` (the outer moduli minus the scale).

TenSEAL is an optional dependency (the ``he`` extra). :func:`tenseal_available` says whether it is
installed; every other function raises :class:`~dpnet.errors.ParameterError` naming the install step
when it is not.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpnet.errors import ParameterError
from dpnet.params import integer

__all__ = [
    "MAX_ABS_VALUE",
    "CKKSKeys",
    "aggregate",
    "ckks_keys",
    "decrypt_vector",
    "encrypt_vector",
    "encrypted_sum",
    "tenseal_available",
]

#: The largest magnitude a plaintext or a sum may have with the default moduli (``2^{60−40}``).
MAX_ABS_VALUE = float(2**20)
_INSTALL = (
    "TenSEAL is not installed: `pip install -e '.[he]'` installs it where wheels exist "
    "(CPython ≥ 3.10 on Linux and Windows x86-64, Linux aarch64, macOS arm64 with Python ≥ 3.11)"
)


def tenseal_available() -> bool:
    """Whether TenSEAL can be imported (the ``he`` extra is installed)."""
    return importlib.util.find_spec("tenseal") is not None


def _tenseal() -> ModuleType:
    if not tenseal_available():
        raise ParameterError(_INSTALL)
    import tenseal

    return tenseal


@dataclass(frozen=True, eq=False)
class CKKSKeys:
    """The key holder's CKKS context and what it publishes.

    Attributes
    ----------
    secret
        TenSEAL context holding the secret key (never leaves the key holder).
    public
        The serialised public context (no secret key) that centres and aggregator load.
    slots
        Values per ciphertext (``poly_modulus_degree / 2``).
    """

    secret: Any
    public: bytes
    slots: int

    def public_context(self) -> Any:
        """The public context, as a centre or the aggregator loads it."""
        return _tenseal().context_from(self.public)


def ckks_keys(
    *,
    poly_modulus_degree: int = 8192,
    coeff_mod_bit_sizes: Sequence[int] = (60, 40, 40, 60),
    scale_bits: int = 40,
    n_threads: int = 1,
) -> CKKSKeys:
    """Generate a CKKS key pair (the key holder's step 1); ``n_threads`` SEAL threads (1: one core)."""
    ts = _tenseal()
    degree = integer(ge=1024)("poly_modulus_degree", poly_modulus_degree)
    threads = integer(ge=1)("n_threads", n_threads)
    context = ts.context(
        ts.SCHEME_TYPE.CKKS, poly_modulus_degree=degree, coeff_mod_bit_sizes=list(coeff_mod_bit_sizes),
        n_threads=threads,
    )  # fmt: skip
    context.global_scale = float(2 ** integer(ge=1)("scale_bits", scale_bits))
    return CKKSKeys(secret=context, public=context.serialize(save_secret_key=False), slots=degree // 2)


def encrypt_vector(public_context: Any, values: ArrayLike, slots: int) -> list[bytes]:
    """A centre's step 2: encrypt ``values`` (1-D, split into chunks of ``slots``) and serialise.

    Raises
    ------
    dpnet.errors.ParameterError
        If ``values`` is not a finite 1-D array within ``±MAX_ABS_VALUE``.
    """
    ts = _tenseal()
    arr = np.asarray(values, dtype=float)
    if arr.ndim != 1 or not np.all(np.isfinite(arr)):
        raise ParameterError("values must be a finite 1-D array")
    if np.any(np.abs(arr) >= MAX_ABS_VALUE):
        raise ParameterError(
            f"values must stay below {MAX_ABS_VALUE:g} in magnitude for CKKS to decrypt them"
        )
    return [
        ts.ckks_vector(public_context, arr[i : i + slots].tolist()).serialize()
        for i in range(0, max(len(arr), 1), slots)
    ]


def aggregate(public_context: Any, messages: Sequence[Sequence[bytes]]) -> list[bytes]:
    """The aggregator's step 3: add every centre's ciphertexts chunk by chunk, without decrypting."""
    ts = _tenseal()
    if not messages:
        raise ParameterError("aggregate needs at least one centre's message")
    if len({len(m) for m in messages}) != 1:
        raise ParameterError("every centre must send the same number of ciphertext chunks")
    total = []
    for chunks in zip(*messages, strict=True):
        acc = ts.ckks_vector_from(public_context, chunks[0])
        for chunk in chunks[1:]:
            acc += ts.ckks_vector_from(public_context, chunk)
        total.append(acc.serialize())
    return total


def decrypt_vector(keys: CKKSKeys, chunks: Sequence[bytes], length: int) -> NDArray[np.float64]:
    """The key holder's step 4: decrypt the aggregated chunks into the first ``length`` values."""
    ts = _tenseal()
    length = integer(ge=0)("length", length)
    values = [v for chunk in chunks for v in ts.ckks_vector_from(keys.secret, chunk).decrypt()]
    if len(values) < length:
        raise ParameterError(f"the ciphertexts hold {len(values)} values, fewer than length = {length}")
    return np.asarray(values[:length], dtype=float)


def encrypted_sum(vectors: Sequence[ArrayLike], keys: CKKSKeys | None = None) -> NDArray[np.float64]:
    """The whole protocol on equal-length vectors, one per centre: the decrypted sum (CKKS-approximate)."""
    keys = keys or ckks_keys()
    arrays = [np.asarray(v, dtype=float) for v in vectors]
    if not arrays or len({a.shape for a in arrays}) != 1:
        raise ParameterError("encrypted_sum needs at least one vector, all of the same length")
    public = keys.public_context()
    total = aggregate(public, [encrypt_vector(public, a, keys.slots) for a in arrays])
    return decrypt_vector(keys, total, arrays[0].size)
