"""From one laptop to a cluster: many spots at once (:func:`batch`), on this machine's cores or
on Dask distributed.

The package sits at the analysis layer: it calls the public :func:`pokerlab.equity` and
:meth:`EquityResult.to_dict`, and knows nothing of the CLI or the web server. Dask is optional
(``pip install "pokerlab[dask]"``) and imported only when a Dask backend is asked for.
"""

from pokerlab.scale.backends import DaskBackend, LocalBackend, dask_client, make_backend
from pokerlab.scale.jobs import FIELDS, Job, SpotResult, read_jobs
from pokerlab.scale.runner import batch, run_jobs
from pokerlab.scale.split import distributed_equity

__all__ = [
    "FIELDS",
    "DaskBackend",
    "Job",
    "LocalBackend",
    "SpotResult",
    "batch",
    "dask_client",
    "distributed_equity",
    "make_backend",
    "read_jobs",
    "run_jobs",
]
