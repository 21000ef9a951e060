"""Private item clustering in untrusted recommenders (paper 002: Pairwise-Preference, MaxSense).

Modules: :mod:`~dpnet.recommender.ldp` (the private bit), :mod:`~dpnet.recommender.model` (the
bipartite block model and MaxSense's closed forms), :mod:`~dpnet.recommender.simulate` (users'
sketches and the server's aggregates), :mod:`~dpnet.recommender.cluster` (server-side clustering and
exact recovery), :mod:`~dpnet.recommender.bounds` (lower bounds and mutual informations),
:mod:`~dpnet.recommender.one_bit` (the 1-bit toy schemes), :mod:`~dpnet.recommender.experiments`
(success curves and ``U_90``), :mod:`~dpnet.recommender.movielens` (the MovieLens 100k ratings), and,
imported by name, :mod:`~dpnet.recommender.exact` (informations and bounds by enumeration),
:mod:`~dpnet.recommender.privacy` (likelihood ratios of whole releases) and
:mod:`~dpnet.recommender.conditions` (Thm 3.5's conditions).
"""

from dpnet.recommender.bounds import *  # noqa: F403
from dpnet.recommender.cluster import *  # noqa: F403
from dpnet.recommender.experiments import *  # noqa: F403
from dpnet.recommender.ldp import *  # noqa: F403
from dpnet.recommender.model import *  # noqa: F403
from dpnet.recommender.movielens import *  # noqa: F403
from dpnet.recommender.one_bit import *  # noqa: F403
from dpnet.recommender.simulate import *  # noqa: F403
