"""Private distributed convex optimisation by functional perturbation (paper 004, Nozari et al.).

Modules: :mod:`~dpnet.funcpert.basis` (orthonormal Legendre bases), :mod:`~dpnet.funcpert.mechanism`
(the functional Laplace mechanism and its calibration), :mod:`~dpnet.funcpert.regular` (the set S and the
projection onto it), :mod:`~dpnet.funcpert.problems` (quadratics and logistic regression),
:mod:`~dpnet.funcpert.solve` (minimisation and the distributed gradient method),
:mod:`~dpnet.funcpert.private` (Algorithm 1 and its accuracy), :mod:`~dpnet.funcpert.message` (the
message-perturbation baseline and its accountant), :mod:`~dpnet.funcpert.audit` (an adversary's tests of a
guarantee) and :mod:`~dpnet.funcpert.studies`.
"""

from dpnet.funcpert.audit import *  # noqa: F403
from dpnet.funcpert.basis import *  # noqa: F403
from dpnet.funcpert.mechanism import *  # noqa: F403
from dpnet.funcpert.message import *  # noqa: F403
from dpnet.funcpert.private import *  # noqa: F403
from dpnet.funcpert.problems import *  # noqa: F403
from dpnet.funcpert.regular import *  # noqa: F403
from dpnet.funcpert.solve import *  # noqa: F403
from dpnet.funcpert.studies import *  # noqa: F403
