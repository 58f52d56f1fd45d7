"""Every kernel compiles one overload for all the paths ``pokerlab warm`` takes.

numba compiles a kernel again for every new combination of argument types, and a literal
argument (``f(x, 5)``, a ``False``, a module constant such as ``WHOLE``), a read-only array
where another caller passes a writable one, or a plain tuple where another passes a named one
are new types: each such call site cost a full compilation more (the query kernel's evaluator
compiled three times, 10.5 s of a cold first query; ``benchmarks/RESULTS.md``). Such a call
site shows only while its caller compiles (a caller loaded from the cache asks for nothing), so
the check compiles every kernel into an empty cache, in a fresh process that no other test's
calls add overloads to: about a minute on 2 cores.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SCRIPT = """
import sys
from numba.core.registry import CPUDispatcher
from pokerlab.analysis.warm import warm_tasks
for _, run in warm_tasks():
    run()
seen = set()
for name, module in sorted(sys.modules.items()):
    if name.startswith("pokerlab"):
        for obj in vars(module).values():
            if isinstance(obj, CPUDispatcher) and id(obj) not in seen:
                seen.add(id(obj))
                if len(obj.overloads) > 1:
                    signatures = "; ".join(str(s) for s in obj.overloads)
                    print(f"{obj.py_func.__module__}.{obj.py_func.__qualname__}: {signatures}")
print(f"{len(seen)} kernels")
"""


def test_warm_compiles_each_kernel_once(tmp_path: Path) -> None:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1].endswith(" kernels") and int(lines[-1].split()[0]) > 100
    assert lines[:-1] == []  # each line: a kernel with more than one compiled overload
