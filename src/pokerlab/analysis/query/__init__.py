"""A query language over deals (in the spirit of ProPokerTools' PQL): ``select`` aggregates of
per-deal functions ``from`` a spot, ``where`` a condition holds. Grammar in ``docs/query.md``.

Modules: :mod:`.syntax` (grammar, parse tree), :mod:`.compiler` (names, types, features),
:mod:`._kernels` (numba: deals and features), :mod:`.runner` (exact or sampled runs and the
aggregates), :mod:`.result`.
"""

from pokerlab.analysis.query.result import AggregateResult, Bucket, QueryResult
from pokerlab.analysis.query.runner import query

__all__ = ["AggregateResult", "Bucket", "QueryResult", "query"]
