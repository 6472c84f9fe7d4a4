"""pseudolens on Apache Spark (docs/spark.md): the audit of a Spark DataFrame, scaled out with
Spark's own machinery rather than a cluster of pseudolens's.

    >>> import pseudolens.spark
    >>> report = pseudolens.spark.audit(df, qi=["age", "sex", "zip"], sensitive=["diagnosis"])

Each partition reads its rows (``mapInArrow``: Arrow record batches, no pandas, no Python row
objects) into the core's partial table, ships the table's bytes (the core's wire format: one
code per cell and each column's distinct values, far smaller than the rows) to the driver,
which merges them in partition order and audits the merged table once: the report of the same
rows audited in one piece (tested against :func:`pseudolens.audit` on the same data).

Typed Spark columns become cell text by the typed-cell rule of :mod:`pseudolens` (an integer
as its digits, a float as its shortest round-trip decimal, a date as ``YYYY-MM-DD``, a null as
blank): cast a column to string first to audit it as written elsewhere.
"""

from __future__ import annotations

import itertools
from typing import Any, Iterator, List, Optional, Tuple

from . import Columns, PartialTable, PathLike, Report, settings_json

__all__ = ["audit", "partial_tables"]

#: The schema of what each partition sends back: its index and its partial table's bytes.
PART_SCHEMA = "partition int, part binary"


def _build_parts(settings: str):
    """The function ``mapInArrow`` runs on each partition: its batches into one partial table,
    sent back as one row (no row when the partition is empty)."""

    def build(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa
        from pyspark import TaskContext

        batches = iter(batches)
        first = next(batches, None)
        if first is None:
            return
        reader = pa.RecordBatchReader.from_batches(first.schema, itertools.chain([first], batches))
        table = PartialTable.from_settings_json(settings)
        table.absorb(reader)
        ctx = TaskContext.get()
        partition = ctx.partitionId() if ctx is not None else 0
        yield pa.RecordBatch.from_pydict(
            {"partition": [partition], "part": [table.to_bytes()]},
            schema=pa.schema([("partition", pa.int32()), ("part", pa.binary())]),
        )

    return build


def partial_tables(df: Any, qi: Columns = None, sensitive: Columns = None, **settings: Any) -> List[Tuple[int, bytes]]:
    """The partial table of each non-empty partition of ``df``, as ``(partition, bytes)`` in
    partition order (the first phase of :func:`audit`)."""
    return list(_parts(df, settings_json(qi, sensitive, **settings)))


def _parts(df: Any, settings: str) -> Iterator[Tuple[int, bytes]]:
    """Each non-empty partition's partial table, in partition order. The partitions are read
    in parallel once (the result persisted on the executors), then the driver fetches their
    bytes one partition at a time (``toLocalIterator``): it holds the merged table and one
    part, never every part at once."""
    from pyspark import StorageLevel

    parts = df.mapInArrow(_build_parts(settings), PART_SCHEMA).persist(StorageLevel.MEMORY_AND_DISK)
    try:
        parts.count()
        for row in parts.toLocalIterator():
            yield row["partition"], bytes(row["part"])
    finally:
        parts.unpersist()


def audit(
    df: Any,
    qi: Columns = None,
    sensitive: Columns = None,
    *,
    original: Optional[PathLike] = None,
    reference: Optional[PathLike] = None,
    **settings: Any,
) -> Report:
    """Audits the Spark DataFrame ``df`` with the quasi-identifiers ``qi``, the ``sensitive``
    attributes and the other settings as keyword arguments (the keys of the settings file, as
    :func:`pseudolens.audit`): the report as the CLI's JSON (a dict), the same as
    ``pseudolens.audit`` of the same rows on one machine. ``original`` and ``reference`` are
    CSV files the driver reads (as :func:`pseudolens.audit`)."""
    text = settings_json(qi, sensitive, **settings)
    whole = PartialTable.from_settings_json(text)
    for _, data in _parts(df, text):
        whole.merge(PartialTable.from_settings_json(text, data))
    if not whole.columns:
        # No rows at all: the columns alone (no cell, so their types do not matter).
        import pyarrow as pa

        whole.absorb(pa.table({name: pa.array([], pa.string()) for name in df.columns}))
    return whole.audit(original=original, reference=reference)
