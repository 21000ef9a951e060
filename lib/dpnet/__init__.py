"""dpnet: the library behind the reproducible companion to five papers on differential privacy
in networked and distributed learning.

Modules are named for what they hold. Core (no paper, no book):

- :mod:`dpnet.errors` — the exceptions, each naming what to fix;
- :mod:`dpnet.params` — chapter parameter schemas and validation;
- :mod:`dpnet.results` — the results contract (metrics, figures, tables, glue);
- :mod:`dpnet.formatting` — numbers for people, in tables and prose;
- :mod:`dpnet.sweep` — the one Monte Carlo sweep helper (seeded per task, parallel, with progress);
- :mod:`dpnet.cores` — the machine's cores, shared between the chapters a build runs at once;
- :mod:`dpnet.data` — the checksummed data registry;
- :mod:`dpnet.mechanisms` — Laplace and randomized-response mechanisms and an empirical ε-DP audit;
- :mod:`dpnet.networks` — Metropolis–Hastings weights, graph families, spectral constants;
- :mod:`dpnet.layout` — a fast force-directed layout for drawing large sparse graphs;
- :mod:`dpnet.plotting` — the figure idioms shared by the chapters.

Topics (one per paper's methods):

- :mod:`dpnet.power` — the privacy–power dilemma (exact randomized-response power, Laplace Monte Carlo);
- :mod:`dpnet.inference` — private distributed MLE (AM/GM, two-threshold), schedules, error rates;
- :mod:`dpnet.survival` — clinical cohorts, the Cox model, centre splits, lifelines fits, private tests,
  best-treatment identification and the comparison with a first-order baseline;
- :mod:`dpnet.encrypted` — a homomorphic-encryption (CKKS) aggregation baseline, with TenSEAL;
- :mod:`dpnet.runtime` — timing the private test against the encryption baseline;
- :mod:`dpnet.estimation` — private distributed estimation and online learning of expected values;
- :mod:`dpnet.recommender` — private item clustering in untrusted recommenders;
- :mod:`dpnet.funcpert` — private distributed convex optimisation by functional perturbation.
- :mod:`dpnet.audit` — auditing a stated privacy guarantee: sensitivity measured on data, sampling audits.

Reference, chapters and runner:

- :mod:`dpnet.reference` — numbers published in the papers, the catalogue of their items, and the checks
  against them;
- :mod:`dpnet.chapters` — each chapter's parameters (declared once) and its experiments;
- :mod:`dpnet.report` — the reproducibility report;
- :mod:`dpnet.dependencies` — the library modules a piece of code imports, for the chapters' fingerprints;
- :mod:`dpnet.workspace` — where a chapter runs: its lock, its staging directory, the swap into place;
- :mod:`dpnet.book` — the command line that executes chapters and builds the book;
- :mod:`dpnet.publishing` — the repository the book is published from (its repository, issues and
  Binder buttons), as configuration;
- :mod:`dpnet.voices` — the book's two voices: verdicts on the papers' claims (``{badge}``), and sentences
  of the book's own bound to a check that must hold at the paper's setting (``{holds}``);
- :mod:`dpnet.sphinxext` — the book's Sphinx extension (the ``{badge}`` and ``{holds}`` roles).
"""

__version__ = "0.1.0"
