"""Spots of a batch: reading them (JSONL or CSV), checking their fields, running them.

A spot is one ``pokerlab equity`` question, written with the fields of a ``POST /api/equity``
body (``players``, ``board``, ``dead``, ``game``, ``method``, ``trials``, ``stderr``,
``time_limit``, ``seed``) plus an optional ``id``. Its answer is either ``result``, exactly the
dict ``pokerlab equity --json`` prints (:meth:`EquityResult.to_dict`), or ``error``, the one-line
message the command would print after ``error:``. A spot without an ``id`` gets its record number
(1 for the first spot of the file).

This module imports neither numba nor a compute backend: a worker process imports it, sets its
own thread count, and only then loads the engine (on the first :func:`run_spot`).
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
import time
from collections.abc import Iterable, Iterator
from contextlib import suppress
from dataclasses import dataclass
from numbers import Integral, Real
from pathlib import Path
from typing import Any

from pokerlab._numbers import counted

__all__ = [
    "FIELDS",
    "Job",
    "SpotResult",
    "check_spot",
    "jobs_from_spots",
    "read_jobs",
    "run_chunk",
    "run_spot",
]

Spot = dict[str, Any]
SpotId = str | int

FIELDS = ("id", "game", "players", "board", "dead", "method", "trials", "stderr", "time_limit",
          "seed")  # fmt: skip
"""The fields a spot may have (a CSV file has these columns; ``players`` joined by ``;``)."""

_TEXT = ("game", "board", "dead", "method")
_INTS = ("trials", "seed")
_FLOATS = ("stderr", "time_limit")


@dataclass(frozen=True)
class Job:
    """One record of a batch: its position, id, the spot as read, and why it cannot run (or
    ``None``). ``spot`` is the raw text of a line that is not a JSON object. ``id`` is
    ``None`` only for a record whose own id cannot be read and whose number an earlier spot
    has as its id."""

    index: int
    id: SpotId | None
    spot: Spot | str
    error: str | None = None


@dataclass(frozen=True)
class SpotResult:
    """The answer to one spot: ``result`` (``pokerlab equity --json``) or ``error``."""

    index: int
    id: SpotId | None
    spot: Spot | str
    result: dict[str, Any] | None = None
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The line of the results file: ``id``, ``spot`` and ``result`` or ``error``."""
        out: dict[str, Any] = {"id": self.id, "spot": self.spot}
        if self.error is not None:
            out["error"] = self.error
        else:
            out["result"] = self.result
        return out


def _shown(value: object) -> str:
    """``value`` as a message shows it: its JSON, or its ``repr`` when it has none (a numpy
    array; a message that could not be written stopped the whole batch)."""
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def _plain(value: Any) -> Any:
    """``value`` as a plain JSON value, so that a spot echoed in the results file can be
    written: numpy scalars as numbers (``np.int64(5)`` is 5), tuples as lists, and anything
    else JSON cannot hold as its ``repr`` (which the field's check then refuses)."""
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, Integral) and not isinstance(value, bool | int):
        return int(value)
    if isinstance(value, Real) and not isinstance(value, float | int):
        return float(value)
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)  # 1e400 read as inf, a CSV cell "nan": JSON has no such number
    if value is None or isinstance(value, str | int | float | dict):
        return value
    return repr(value)


def _hint(value: object) -> str:
    """What to write instead of a CSV cell of digits of another script (Python's int and float
    read them; the CLI's options, cards and ranges do not)."""
    return (
        ": write numbers with the digits 0-9"
        if isinstance(value, str) and not value.isascii()
        else ""
    )


def check_spot(spot: Spot) -> Spot:
    """The keyword arguments of :func:`pokerlab.equity` for ``spot``, or :class:`ValueError`
    naming the field at fault: its types, and Monte Carlo options that an exact run would
    ignore or that ask for hours of work (the limits of ``pokerlab equity``'s options, which
    a batch cannot lift); poker itself is the engine's to judge."""
    unknown = sorted(set(spot) - set(FIELDS))
    if unknown:
        raise ValueError(f"unknown field '{unknown[0]}': a spot has the fields {', '.join(FIELDS)}")
    players = spot.get("players")
    if not isinstance(players, list | tuple) or not players:
        raise ValueError("field 'players' must be a non-empty list of hands or ranges")
    if not all(isinstance(p, str) for p in players):
        raise ValueError("field 'players' must hold text only (hands or ranges)")
    kwargs: Spot = {"players": list(players)}
    for name in _TEXT:
        value = spot.get(name)
        if value is not None and not isinstance(value, str):
            raise ValueError(f"field '{name}' must be text, not {_shown(value)}")
        if value is not None:
            kwargs[name] = value
    for name in _INTS:  # numbers.Integral: numpy's integers too, as pokerlab.equity takes
        value = spot.get(name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, Integral)):
            raise ValueError(
                f"field '{name}' must be an integer, not {_shown(value)}{_hint(value)}"
            )
        kwargs[name] = None if value is None else int(value)
    for name in _FLOATS:
        value = spot.get(name)
        number = isinstance(value, Real) and not isinstance(value, bool)
        if value is not None and not (number and math.isfinite(value) and value > 0):
            raise ValueError(
                f"field '{name}' must be a number > 0, not {_shown(value)}{_hint(value)}"
            )
        kwargs[name] = None if value is None else float(value)
    from pokerlab.engine._control import check_seed  # not at import
    from pokerlab.engine.limits import check_exact_options, check_sampling
    from pokerlab.engine.methods import read_method
    from pokerlab.errors import GameError

    sampling = {name: kwargs[name] for name in ("trials", "stderr", "time_limit", "seed")}
    try:
        if "method" in kwargs:  # as pokerlab.equity reads it: "MC" is Monte Carlo here too
            kwargs["method"] = read_method(kwargs["method"])
        check_exact_options(kwargs.get("method"), **sampling)
        check_sampling(kwargs["trials"], kwargs["stderr"], kwargs["time_limit"])
        check_seed(kwargs["seed"])
    except GameError as exc:
        raise ValueError(_field_message(str(exc), exc.field)) from None
    return kwargs


def _field_message(message: str, field: str | None) -> str:
    """``message`` of a check of ``field`` as a spot's error, naming the field once:
    "seed must be ..." and "'seed' applies ..." as "field 'seed' must be ...", "field 'seed'
    applies ...", any other message as "field 'method': unknown method ..."."""
    for named in (f"{field} ", f"'{field}' "):
        if message.startswith(named):
            return f"field '{field}' {message.removeprefix(named)}"
    return f"field '{field}': {message}"


def run_spot(spot: Spot) -> tuple[dict[str, Any] | None, str | None]:
    """``(result, None)`` or ``(None, message)``; never raises for a bad spot."""
    from pokerlab.engine.api import equity
    from pokerlab.errors import PokerlabError

    try:
        kwargs = check_spot(spot)
        return equity(**kwargs).to_dict(), None
    except (PokerlabError, ValueError, TypeError) as exc:
        return None, str(exc)


Answer = tuple[int, dict[str, Any] | None, str | None]  # (index, result, error)


def run_chunk(chunk: list[tuple[int, Spot]]) -> tuple[float, list[Answer]]:
    """Run several spots (one task of a backend): the CPU seconds this thread spent on them
    (what the next tasks are sized by: unlike the wall time, it does not grow when other work
    shares the cores) and ``(index, result, error)`` for each."""
    started = time.thread_time()
    answers = [(index, *run_spot(spot)) for index, spot in chunk]
    return time.thread_time() - started, answers


def _error_id(
    fallback: SpotId, seen: set[str], named: frozenset[str] = frozenset()
) -> SpotId | None:
    """The id of a record whose own id cannot be read (not JSON, not an object, an id of the
    wrong type): ``fallback`` (its number), taken like a default id, or ``None`` (null) when
    an earlier record has it or a spot of the file names it (``named``: a line that is not a
    spot took the id of a later spot, which was then refused), so that no two lines of the
    results share an id."""
    text = str(fallback)  # how ids are told apart (see _names)
    if text in seen or text in named:
        return None
    seen.add(text)
    return fallback


def _named_id(record: object) -> SpotId | None:
    """The id a record names itself by, if it is a spot's kind of id (text or an integer)."""
    if not isinstance(record, dict) or "id" not in record:
        return None
    raw_id = _plain(record["id"])
    return raw_id if isinstance(raw_id, str | int) and not isinstance(raw_id, bool) else None


def _job(
    index: int,
    record: object,
    number: int,
    seen: set[str],
    named: frozenset[str] = frozenset(),
) -> Job:
    if not isinstance(record, dict):
        return Job(index, _error_id(number, seen, named),
                   record if isinstance(record, str) else json.dumps(record),
                   "a spot must be a JSON object with a 'players' list")  # fmt: skip
    spot = {k: _plain(v) for k, v in record.items() if k != "id"}
    raw_id = _plain(record.get("id", number))
    if isinstance(raw_id, bool) or not isinstance(raw_id, str | int):
        return Job(index, _error_id(number, seen, named), spot,
                   f"field 'id' must be text or an integer, not {_shown(raw_id)}")  # fmt: skip
    text = str(raw_id)  # how ids are told apart (see _names)
    if "id" not in record and text in named:  # a spot's own 'id' wins over a number
        return Job(index, _error_id(number, seen, named), spot,
                   f"default id {raw_id} (the spot's number) is the 'id' another spot names; "
                   "give this spot its own 'id'")  # fmt: skip
    if text in seen:  # answered as a line that is not a spot: no two lines share an id
        given = "id" if "id" in record else "default id (the spot's number)"
        return Job(index, _error_id(number, seen, named), spot,
                   f"{given} {json.dumps(raw_id)} is used by an earlier spot; give each spot "
                   "its own 'id'")  # fmt: skip
    seen.add(text)
    try:
        check_spot(spot)
    except ValueError as exc:
        return Job(index, raw_id, spot, str(exc))
    return Job(index, raw_id, spot)


def jobs_from_spots(spots: Iterable[Spot]) -> Iterator[Job]:
    """Jobs of spots given as dicts (the Python API), ids as :func:`read_jobs` gives them."""
    listed = list(spots)
    named = _names(listed)
    seen: set[str] = set()
    for index, spot in enumerate(listed):
        yield _job(index, spot, index + 1, seen, named)


def _names(records: Iterable[object]) -> frozenset[str]:
    """The ids the records name themselves by, as text: ids are told apart by how they read,
    so a CSV cell's ``"1"`` and a default id ``1`` (or ``"1"`` and ``1`` in JSON) are one id,
    which a table of the results could not tell apart."""
    return frozenset(str(i) for record in records if (i := _named_id(record)) is not None)


_NO_CELL: Any = object()
"""The value :class:`csv.DictReader` gives the columns a short row lacks."""


def _csv_record(row: dict[str, str | None]) -> dict[str, Any]:
    """A CSV row as a spot: empty cells are absent, ``players`` split at ``;``, numbers parsed."""
    spot: dict[str, Any] = {}
    extra = row.get(None)  # type: ignore[call-overload]
    if extra:
        raise ValueError(
            f"the row has {counted(len(extra), 'more cell')} than the header has columns"
        )
    missing = sum(cell is _NO_CELL for cell in row.values())
    if missing:  # a cell left out in the middle would shift the ones after it
        raise ValueError(
            f"the row has {counted(missing, 'fewer cell')} than the header has columns"
        )
    for name, cell in row.items():
        if name is None or cell is None or cell.strip() == "":
            continue
        value: Any = cell.strip()
        if name == "players":
            value = [p.strip() for p in value.split(";")]
            if "" in value:
                raise ValueError("field 'players': an empty player between ';' separators")
        elif (name in _INTS or name in _FLOATS) and value.isascii():
            # else check_spot names the field, quoting the cell: Python's int and float read
            # any script's digits, and 1e400 as inf
            with suppress(ValueError):
                number = int(value) if name in _INTS else float(value)
                value = number if math.isfinite(number) else value
        spot[name] = value
    return spot


def _csv_rows(reader: csv.DictReader[str], path: Path) -> Iterator[dict[str, str | None]]:
    """The rows of ``reader``; a quote left open (the rest of the file read as one cell) is a
    :class:`ValueError` naming its record, not a last spot made of what followed it."""
    count = 0
    try:
        for row in reader:
            count += 1
            yield row
    except csv.Error as exc:
        raise ValueError(
            f"{path}: record {count + 1} is not CSV ({exc}): a quote left open?"
        ) from None


def _no_constant(name: str) -> None:
    """``NaN`` and ``Infinity``: Python's json reads them, JSON has no such values (and the
    results file, which echoes the spot, would not be JSON)."""
    raise ValueError(f"{name} is not a JSON value")


_NOT_UTF8 = re.compile("[\udc80-\udcff]")
"""A byte that is not UTF-8, as ``errors="surrogateescape"`` decodes it."""


def _not_utf8(text: str) -> str | None:
    """The message for a record holding a byte that is not UTF-8, or ``None``."""
    found = _NOT_UTF8.search(text)
    if found is None:
        return None
    byte = ord(found.group()) - 0xDC00
    return f"not UTF-8 text: byte 0x{byte:02x} at character {found.start() + 1}"


def _readable(text: str) -> str:
    """``text`` with its bytes that are not UTF-8 as U+FFFD, to echo it in the results."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _json_number(text: str) -> float | str:
    """A JSON number too large for a float (``1e400``) stays the text written, which the
    field's check quotes, instead of ``inf``."""
    number = float(text)
    return number if math.isfinite(number) else text


# (the record's number, the record or its echo, the error or None)
_Record = tuple[int, Any, str | None]


def _csv_records(text: str, path: Path) -> list[_Record]:
    reader = csv.DictReader(io.StringIO(text), restval=_NO_CELL, strict=True)
    try:
        columns = [name.strip() for name in reader.fieldnames or []]
    except csv.Error as exc:
        raise ValueError(f"{path}: the header is not CSV: {exc}") from None
    reader.fieldnames = columns  # "id, players" names 'players', as cells are read stripped
    bad_header = _not_utf8(",".join(columns))
    if bad_header is not None:
        raise ValueError(f"{path}: the header is {bad_header}")
    unknown = [f for f in columns if f not in FIELDS]
    if unknown:
        raise ValueError(f"{path}: unknown column '{unknown[0]}': use {', '.join(FIELDS)}")
    repeated = [f for i, f in enumerate(columns) if f in columns[:i]]
    if repeated:  # the reader keeps the last one's cells: a spot not the one written
        raise ValueError(f"{path}: column '{repeated[0]}' appears twice")
    records: list[_Record] = []
    for row in _csv_rows(reader, path):
        number = len(records) + 1
        cells = {k: v for k, v in row.items() if k is not None and v is not _NO_CELL}
        bad = _not_utf8("\n".join(v for v in cells.values() if isinstance(v, str)))
        if bad is not None:
            echo = {k: _readable(v) if isinstance(v, str) else v for k, v in cells.items()}
            records.append((number, echo, bad))
            continue
        try:
            records.append((number, _csv_record(row), None))
        except ValueError as exc:
            records.append((number, cells, str(exc)))
    return records


def _jsonl_records(text: str) -> list[_Record]:
    records: list[_Record] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        number = len(records) + 1
        bad = _not_utf8(line)
        if bad is not None:
            records.append((number, _readable(line), bad))
            continue
        try:
            record = json.loads(line, parse_constant=_no_constant, parse_float=_json_number)
        except (ValueError, RecursionError) as exc:  # RecursionError: nested too deep
            reason = "nested too deep" if isinstance(exc, RecursionError) else str(exc)
            if "sys.set_int_max_str_digits" in reason:  # a remedy no user of the file has
                reason = "a whole number of more than 4,300 digits"
            records.append((number, line, f"not valid JSON: {reason}"))
            continue
        records.append((number, record, None))
    return records


def read_jobs(path: Path) -> list[Job]:
    """Every record of a spots file, in order; ``.csv`` files are CSV, anything else JSONL.
    Blank lines are skipped; a line that is not a spot (not JSON or CSV, bytes that are not
    UTF-8) becomes a :class:`Job` with an error, and the others still run. A UTF-8 byte order
    mark at the start (Excel's "CSV UTF-8", Notepad) is skipped: it made the first column's
    name unknown and the first JSON line not JSON."""
    text = path.read_bytes().decode("utf-8-sig", errors="surrogateescape")
    csv_file = path.suffix.lower() == ".csv"
    records = _csv_records(text, path) if csv_file else _jsonl_records(text)
    named = _names(record for _, record, error in records if error is None)
    seen: set[str] = set()
    jobs: list[Job] = []
    for number, record, error in records:
        if error is None:
            jobs.append(_job(len(jobs), record, number, seen, named))
            continue
        own = _named_id(record)  # a CSV row's id cell
        fallback: SpotId = own.strip() if isinstance(own, str) and own.strip() else number
        jobs.append(Job(len(jobs), _error_id(fallback, seen, named), record, error))
    return jobs
