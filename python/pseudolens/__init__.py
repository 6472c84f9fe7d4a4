"""pseudolens: privacy-risk and utility audit of pseudonymized tables, on the same Rust core as
the pseudolens page and CLI, with the same numbers.

    >>> import pseudolens
    >>> report = pseudolens.audit("adult.csv", qi=["age", "sex", "race"], sensitive=["occupation"])
    >>> report.metric("k_anonymity")["value"]
    1
    >>> report.metrics_frame()        # one row per metric (pandas)
    >>> report.classes_frame()        # the classes the report names (riskiest, failing)

:func:`protect` turns a table into a release that meets k, l, t or a maximum average risk
(protect.md: ladders per quasi-identifier, an exact lattice search, apply):

    >>> release, result = pseudolens.protect(df, qi=["age", "zip"], k=5, bands={"age": [10, 20]})

``source`` is a CSV, Parquet or Excel path, or any Arrow stream through the PyCapsule interface
(``__arrow_c_stream__``: pandas, polars, pyarrow, DuckDB results). Keyword arguments are the
keys of the settings file (``pseudolens audit --settings FILE``; the page saves the same
object): ``threshold=0.1``, ``missing_policy="wildcard"``, ``l_threshold=3``, ... ``qi`` is
short for ``quasi_identifiers``, the one key the issue's signature names otherwise.

Typed Arrow cells become the text the audit reads by one rule (README "Python"): an integer as
its decimal digits, a float as its shortest round-trip decimal, a date as ``YYYY-MM-DD``, a
null as blank; string columns give exactly the CSV's report.
"""

from __future__ import annotations

import importlib.util
import io
import json
import os
from typing import TYPE_CHECKING, Any, Dict, Mapping, Optional, Sequence, Tuple, Union

from . import _native
from ._native import PseudolensError

__all__ = [
    "audit",
    "protect",
    "Report",
    "PartialTable",
    "ClassPart",
    "class_hashes",
    "PseudolensError",
    "settings_json",
    "metrics_frame",
    "classes_frame",
]

if TYPE_CHECKING:
    import pandas

__version__: str = _native.__version__

Columns = Union[str, Sequence[str], None]
PathLike = Union[str, "os.PathLike[str]"]
Source = Any  # str | os.PathLike (CSV, Parquet, .xlsx) | an object with __arrow_c_stream__

def _columns(value: Columns) -> Optional[list]:
    if value is None:
        return None
    if isinstance(value, str):
        return [value]
    return [str(c) for c in value]


def _plain(value: Any) -> Any:
    """A keyword argument's value as JSON (tuples and sets as lists, paths as text)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_plain(v) for v in value]
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    return value


def settings_json(qi: Columns = None, sensitive: Columns = None, **settings: Any) -> str:
    """The settings file's JSON object of these keyword arguments (``qi`` is
    ``quasi_identifiers``). The core parses it as ``--settings FILE``: a key it does not know
    is an error (:class:`PseudolensError`, code ``invalid_settings``)."""
    obj = {k: _plain(v) for k, v in settings.items()}
    if qi is not None:
        if "quasi_identifiers" in obj:
            raise TypeError("give the quasi-identifiers once: qi or quasi_identifiers")
        obj["quasi_identifiers"] = _columns(qi)
    elif "quasi_identifiers" in obj:
        obj["quasi_identifiers"] = _columns(obj["quasi_identifiers"])
    if sensitive is not None:
        obj["sensitive"] = _columns(sensitive)
    return json.dumps(obj)


class Report(dict):
    """The report: the CLI's ``--json`` object as a dict (``input``, ``columns``, ``params``,
    ``metrics``, ``warnings``, ``read``), with helpers."""

    def metric(self, id: str, **scope: Any) -> Optional[dict]:
        """The first metric result with this id (and these scope entries, e.g.
        ``sensitive="occupation"``), or None."""
        for m in self["metrics"]:
            if m["id"] == id and all(m["scope"].get(k) == v for k, v in scope.items()):
                return m
        return None

    def metrics_frame(self) -> "pandas.DataFrame":
        """One row per metric result (pandas DataFrame); see :func:`metrics_frame`."""
        return metrics_frame(self)

    def classes_frame(self) -> "pandas.DataFrame":
        """The equivalence classes the report names (pandas DataFrame); see
        :func:`classes_frame`."""
        return classes_frame(self)


def _pandas():
    try:
        import pandas
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("the DataFrame helpers need pandas: pip install pandas") from e
    return pandas


def metrics_frame(report: Mapping[str, Any]) -> "pandas.DataFrame":
    """One row per metric result: ``id``, ``family``, ``table``, ``sensitive``,
    ``attribute``, ``subset``, ``value``, ``status``, ``reason``. A value that is an object or
    a list stays one (a histogram is one cell)."""
    pd = _pandas()
    rows = []
    for m in report["metrics"]:
        s = m.get("scope") or {}
        subset = s.get("subset")
        rows.append(
            {
                "id": m["id"],
                "family": m.get("family"),
                "table": s.get("table"),
                "sensitive": s.get("sensitive"),
                "attribute": s.get("attribute"),
                "subset": ",".join(subset) if subset else None,
                "value": m.get("value"),
                "status": m.get("status"),
                "reason": m.get("reason"),
            }
        )
    columns = ["id", "family", "table", "sensitive", "attribute", "subset", "value", "status", "reason"]
    return pd.DataFrame(rows, columns=columns)


def classes_frame(report: Mapping[str, Any]) -> "pandas.DataFrame":
    """The equivalence classes the report names, one row each: the riskiest classes of
    ``record_risk`` (``size``, ``risk``) and the classes failing an l, t or beta threshold
    (``l_threshold``, ``t_threshold``, ``beta_threshold`` given: ``records``), with the
    ``metric`` and ``sensitive`` column that names them and one column per quasi-identifier
    (None for a missing value, ``*`` for a suppressed one)."""
    pd = _pandas()
    qis = list(report["params"].get("quasi_identifiers") or [])
    rows = []
    for m in report["metrics"]:
        details = m.get("details") or {}
        sensitive = (m.get("scope") or {}).get("sensitive")
        if m["id"] == "record_risk":
            for c in details.get("top", []):
                rows.append({"metric": "record_risk", "sensitive": None, **c["values"], "size": c.get("size"), "records": c.get("size"), "risk": c.get("risk")})
        failing = details.get("failing")
        if isinstance(failing, dict):
            listed = failing.get("listed", [])
            records = failing.get("listed_records", [None] * len(listed))
            for values, n in zip(listed, records):
                rows.append({"metric": m["id"], "sensitive": sensitive, **values, "size": n, "records": n, "risk": None})
    columns = ["metric", "sensitive", *qis, "size", "records", "risk"]
    return pd.DataFrame(rows, columns=columns).drop(columns=["records"])


def _report(text: str) -> Report:
    return Report(json.loads(text))


def _is_path(source: Any) -> bool:
    return isinstance(source, (str, os.PathLike))


def _named_index_as_columns(source: Any) -> Any:
    """A pandas DataFrame with its named index levels (``set_index("mrn")``) as its first
    columns: the index is data then, and is read as a column whatever the pandas version does
    with an index in its Arrow stream. Any other source is returned as it is."""
    names = getattr(getattr(source, "index", None), "names", None)
    if names is None or not callable(getattr(source, "reset_index", None)):
        return source
    named = [n for n in names if n is not None]
    return source.reset_index(level=named) if named else source


def _arrow_stream(source: Any):
    """The Arrow C stream capsule of a source (pandas, polars, pyarrow, DuckDB results...)."""
    source = _named_index_as_columns(source)
    if hasattr(source, "__arrow_c_stream__"):
        return source.__arrow_c_stream__()
    # A DuckDB relation before the PyCapsule interface, a pyarrow dataset, ...
    for convert in ("to_arrow_table", "arrow", "to_arrow"):
        method = getattr(source, convert, None)
        if callable(method):
            table = method()
            if hasattr(table, "__arrow_c_stream__"):
                return table.__arrow_c_stream__()
    raise TypeError(
        f"pseudolens.audit reads a CSV or Parquet path or an Arrow stream (__arrow_c_stream__: "
        f"pandas >= 2.2, polars, pyarrow, DuckDB), not {type(source).__name__}"
    )


def _side(path: Optional[PathLike]) -> Optional[str]:
    return None if path is None else os.fspath(path)


def _third(control: Optional[PathLike], holdout: Optional[PathLike]) -> Optional[str]:
    """The third table: the attacks' control and the synthetic measures' holdout are one
    table (records of the population not used to make the release), as the CLI's
    ``--control`` and ``--holdout``."""
    if control is not None and holdout is not None and os.fspath(control) != os.fspath(holdout):
        raise PseudolensError("control and holdout name one table (records not used to make the release): give one of them")
    return _side(control if control is not None else holdout)


def audit(
    source: Source,
    qi: Columns = None,
    sensitive: Columns = None,
    *,
    original: Optional[PathLike] = None,
    reference: Optional[PathLike] = None,
    sheet: Optional[str] = None,
    control: Optional[PathLike] = None,
    holdout: Optional[PathLike] = None,
    **settings: Any,
) -> Report:
    """Audits ``source`` (a file path: CSV, Parquet or Excel .xlsx, told apart by the CLI's rule,
    first bytes then name; or an Arrow stream: a pandas or polars DataFrame, a pyarrow Table or
    RecordBatchReader, a DuckDB result) with the quasi-identifiers ``qi``, the ``sensitive``
    attributes and the other settings as keyword arguments (the keys of the settings file).
    ``original`` and ``reference`` are the CSV files of the CLI's ``--original`` (the utility
    metrics) and ``--reference`` (the population table ``E``); ``sheet`` the workbook's sheet
    (default: the first), as ``--sheet``; ``control`` the attacks' control table, as
    ``--control`` (the attacks run with ``attacks={...}``, keys as in the settings file);
    ``holdout`` the same table for the synthetic measures (``synthetic={...}``), as
    ``--holdout``. Returns the report as the CLI's JSON (a
    :class:`Report`, a dict). Raises :class:`PseudolensError` on bad input or settings, naming
    line (or row) and column."""
    text = settings_json(qi, sensitive, **settings)
    if _is_path(source):
        return _report(_native.audit_file(os.fspath(source), text, _side(original), _side(reference), sheet, _third(control, holdout)))
    table = PartialTable.from_settings_json(text)
    table.absorb(source)
    return table.audit(original=original, reference=reference, control=control, holdout=holdout)


Ladders = Optional[Mapping[str, Any]]


def _hierarchy_csv(given: Any) -> str:
    """An ARX hierarchy's CSV text: a path (``os.PathLike``, or text of one line) is read;
    text with a line break is the CSV itself."""
    if isinstance(given, str) and "\n" in given:
        return given
    with open(os.fspath(given), encoding="utf-8") as f:
        return f.read()


def _bands(given: Any) -> dict:
    """A bands ladder of a list of widths or a dict with ``widths``, ``bottom`` and ``top``."""
    if isinstance(given, Mapping):
        return {"kind": "bands", **_plain(given)}
    return {"kind": "bands", "widths": _plain(given)}


def _ladders(hierarchies: Ladders, bands: Ladders, dates: Ladders, prefixes: Ladders) -> dict:
    """The ladder of each QI as the core takes it (``{"kind": ..., ...}``); a QI given two
    ladders is an error (``ladder_given_twice``)."""
    ladders: dict = {}
    kinds = [
        (hierarchies, lambda h: {"kind": "hierarchy", "csv": _hierarchy_csv(h)}),
        (bands, _bands),
        (dates, lambda d: {"kind": "dates", "levels": _columns(d)}),
        (prefixes, lambda p: {"kind": "prefix", "lengths": _plain(p)}),
    ]
    for given, ladder in kinds:
        for qi, value in (given or {}).items():
            if str(qi) in ladders:
                raise PseudolensError(f'two ladders are given for "{qi}"', "ladder_given_twice", None, str(qi))
            ladders[str(qi)] = ladder(value)
    return ladders


def _frame_kind(source: Any) -> Optional[str]:
    """``"pandas"`` or ``"polars"`` for a frame of that library, else None."""
    if _is_path(source):
        return None
    library = type(source).__module__.split(".")[0]
    return library if library in ("pandas", "polars") else None


def _release_frame(csv: bytes, delimiter: str, kind: Optional[str]) -> Any:
    """The release's CSV as a frame of ``kind`` (None: pandas, else polars), every column
    text and a blank cell missing."""
    if kind is None:
        kind = next((k for k in ("pandas", "polars") if importlib.util.find_spec(k) is not None), None)
        if kind is None:
            raise ImportError("pseudolens.protect returns the release of a path as a pandas or polars DataFrame: pip install pandas")
    if kind == "polars":
        import polars

        return polars.read_csv(io.BytesIO(csv), separator=delimiter, infer_schema_length=0)
    return _pandas().read_csv(io.BytesIO(csv), sep=delimiter, dtype=str, keep_default_na=False, na_values=[""])


def protect(
    source: Source,
    qi: Columns,
    sensitive: Columns = None,
    *,
    k: Optional[int] = None,
    l: Optional[int] = None,  # noqa: E741 - the criterion's name
    t: Optional[float] = None,
    max_average_risk: Optional[float] = None,
    max_suppression: float = 0.0,
    hierarchies: Ladders = None,
    bands: Ladders = None,
    dates: Ladders = None,
    prefixes: Ladders = None,
    objective: str = "loss",
    node: Optional[Mapping[str, int]] = None,
    suppressed: str = "remove",
    missing: str = "ordinary",
    sheet: Optional[str] = None,
    **settings: Any,
) -> Tuple[Any, Dict[str, Any]]:
    """Searches the lattice of generalizations of ``source`` for the criteria given and returns
    ``(release, result)``, as ``pseudolens protect FILE --out`` (spec protect.md).

    ``source`` is read as :func:`audit` reads it (a CSV, Parquet or Excel path, ``sheet`` of a
    workbook; or an Arrow stream) and kept in memory. ``qi`` are the quasi-identifiers,
    ``sensitive`` the columns of ``l`` and ``t``. Criteria (at least one): ``k``, distinct
    ``l``, ``t`` (its distance ``t_distance="auto"|"equal"|"ordered"`` among ``settings``),
    ``max_average_risk``; ``max_suppression`` is the share of the records in scope that may be
    suppressed, in [0, 1]. A ladder per QI (a QI without one: value, ``*``):
    ``hierarchies={qi: path or ARX CSV text}`` (text has a line break), ``bands={qi: [10, 20]}``
    or ``{qi: {"widths": [10, 20], "bottom": 18, "top": 90}}``, ``dates={qi: ["month",
    "year"]}``, ``prefixes={qi: [4, 3]}``. ``objective`` is ``"loss"`` or
    ``"discernibility"``; ``node={qi: level}`` applies that node (a QI not named: level 0)
    instead of the best; ``suppressed`` is ``"remove"`` or ``"star"``; ``missing`` is
    ``"ordinary"`` or ``"drop"``. Further ``settings`` are the other keys of the protect
    settings (``max_nodes``, ``risk_threshold``, ``exclude_suppressed_rows``).

    ``result`` is the metric ``protect`` as a dict (protect.md Sec 6: ``value`` the best node
    ``{qi: level}``, ``details`` its figures, the minimal nodes, the Pareto front, the
    ladders). ``release`` is the chosen node applied (Sec 5): a polars DataFrame for a polars
    source, else a pandas DataFrame (for a path, an Arrow table or a pandas source; polars
    when pandas is not installed). Every column of the release is text (``str``), values as
    the CSV release writes them (``1048*``, ``[30,40)``, ``*``), a blank cell missing (NaN in
    pandas, null in polars). With no feasible node and no ``node`` given, ``release`` is None
    and ``result["value"]`` is None (``result["details"]["closest"]`` the node suppressing the
    fewest records). Raises :class:`PseudolensError` on bad input (a hierarchy that does not
    nest, a value missing from it, a non-numeric cell under bands, a lattice over
    ``max_nodes``), naming the QI, the level, the value or the line."""
    criteria = {"k": k, "l": l, "t": t, "average_risk": max_average_risk}
    if "t_distance" in settings:
        criteria["t_distance"] = settings.pop("t_distance")
    params = {
        "quasi_identifiers": _columns(qi) or [],
        "sensitive": _columns(sensitive) or [],
        "ladders": _ladders(hierarchies, bands, dates, prefixes),
        "criteria": {c: v for c, v in criteria.items() if v is not None},
        "suppression_limit": max_suppression,
        "objective": objective,
        "suppressed": suppressed,
        "missing_policy": missing,
        **{key: _plain(v) for key, v in settings.items()},
    }
    if node is not None:
        params["node"] = {str(q): int(level) for q, level in node.items()}
    native_source = os.fspath(source) if _is_path(source) else _arrow_stream(source)
    release, result = _native.protect(native_source, json.dumps(params), sheet)
    frame = None if release is None else _release_frame(release[0], release[1], _frame_kind(source))
    return frame, json.loads(result)


class PartialTable:
    """Rows read from one or more sources into the core's table (a code per cell), to be merged
    with the partial tables of other workers and audited once: the partial-table API for other
    engines (Spark, Dask, Ray, a loop over files).

        >>> parts = [pseudolens.PartialTable(qi=qi).absorb(chunk) for chunk in chunks]
        >>> wire = [p.to_bytes() for p in parts]               # ship them anywhere
        >>> whole = pseudolens.PartialTable.from_bytes(wire[0], qi=qi)
        >>> for b in wire[1:]:
        ...     whole.merge(pseudolens.PartialTable.from_bytes(b, qi=qi))
        >>> whole.audit()                                      # == audit(the whole table)

    The settings chosen here decide which columns keep every value (the quasi-identifiers,
    sensitive attributes, weight, person id, household id) and how cells are read (missing tokens, delimiter,
    encoding); :meth:`audit` may change the others. The merged report's ``input`` adds up the
    parts' accounts (bytes, records, one header per part read from a file).
    """

    def __init__(self, qi: Columns = None, sensitive: Columns = None, **settings: Any) -> None:
        self._settings = settings_json(qi, sensitive, **settings)
        self._native = _native.PartialTable(self._settings)

    @classmethod
    def from_settings_json(cls, settings: str, data: Optional[bytes] = None) -> "PartialTable":
        """A partial table with the settings file's JSON object as text: empty, or read back
        from ``data`` (:meth:`to_bytes`)."""
        t = cls.__new__(cls)
        t._settings = settings
        if data is None:
            t._native = _native.PartialTable(settings)
        else:
            t._native = _native.PartialTable.from_bytes(bytes(data), settings)
        return t

    def absorb(self, source: Source, *, sheet: Optional[str] = None) -> "PartialTable":
        """Reads ``source`` (as :func:`audit` takes it; ``sheet`` of a workbook) and appends its
        rows; returns self. Every source must have the same columns, in the same order."""
        if _is_path(source):
            self._native.absorb_file(os.fspath(source), sheet)
        else:
            stream = _arrow_stream(source)
            self._native.absorb_arrow(stream)
        return self

    def merge(self, other: "PartialTable") -> "PartialTable":
        """Appends the rows of ``other`` (left empty); returns self."""
        self._native.merge(other._native)
        return self

    def keep_needed_codes(self) -> "PartialTable":
        """Forgets the codes (one per cell) of the columns the roles of its settings do not
        need; returns self. Their values and counts stay, so the report's column profiles do
        too, and the bytes shipped shrink (the hospital bench's parts by a third). Only an audit
        with these roles can follow: one whose roles need such a column fails
        (``not_retained``), and so does an audit against an ``original``."""
        self._native.keep_needed_codes()
        return self

    def to_bytes(self) -> bytes:
        """The binary form (the core's wire format of partial tables, versioned)."""
        return self._native.to_bytes()

    @classmethod
    def from_bytes(cls, data: bytes, qi: Columns = None, sensitive: Columns = None, **settings: Any) -> "PartialTable":
        """A partial table from :meth:`to_bytes`, with these settings."""
        return cls.from_settings_json(settings_json(qi, sensitive, **settings), data)

    @property
    def rows(self) -> int:
        """The rows held."""
        return self._native.rows

    @property
    def columns(self) -> "list[str]":
        """The column names (empty before the first source)."""
        return self._native.columns

    def audit(
        self,
        qi: Columns = None,
        sensitive: Columns = None,
        *,
        original: Optional[PathLike] = None,
        reference: Optional[PathLike] = None,
        control: Optional[PathLike] = None,
        holdout: Optional[PathLike] = None,
        **settings: Any,
    ) -> Report:
        """Audits the rows held: with the settings of the partial table, or with these when any
        is given (a fresh set, not added to the table's); against the ``original``,
        ``reference`` and ``control`` (or ``holdout``) CSV files when given (as :func:`audit`)."""
        text = None if qi is None and sensitive is None and not settings else settings_json(qi, sensitive, **settings)
        return _report(self._native.audit(text, _side(original), _side(reference), _third(control, holdout)))

    def class_part(self) -> "ClassPart":
        """The rows held as a :class:`ClassPart`: their profile and class statistics, for a
        table split so that no other part holds rows of the same classes (by
        :func:`class_hashes`)."""
        return ClassPart.from_settings_json(self._settings, self._native.class_part())


def class_hashes(source: Any, qi: Columns = None, **settings: Any) -> bytes:
    """The class hash of each row of ``source`` (an Arrow stream, as :func:`audit` takes one):
    8 little-endian bytes a row, alike for rows of one equivalence class under these settings
    (the quasi-identifiers ``qi``, the missing tokens: cells are compared as the audit reads
    them, ``" 7"`` as ``7``). A table split by it holds disjoint classes in its parts: the
    class-partitioned mode (docs/spark.md)."""
    return _native.class_hashes(settings_json(qi, None, **settings), _arrow_stream(source))


class ClassPart:
    """A part of a table holding disjoint equivalence classes (no other part has rows of its
    classes): its column profile and account, without the rows, and its class statistics (the
    class-size histogram, the riskiest classes). Parts merge exactly in any order and are small
    (a few hundred bytes per distinct class size, plus each column's distinct values), so a
    class table too large for one machine is audited from per-part statistics
    (docs/spark.md, "Class-partitioned mode"). :meth:`audit` gives the identity metrics that
    merge exactly and says in a warning which metrics this mode leaves out.
    """

    @classmethod
    def from_settings_json(cls, settings: str, data: bytes) -> "ClassPart":
        """A part from its binary form with the settings file's JSON object as text."""
        p = cls.__new__(cls)
        p._settings = settings
        p._native = _native.ClassPartial.from_bytes(bytes(data), settings)
        return p

    @classmethod
    def from_bytes(cls, data: bytes, qi: Columns = None, sensitive: Columns = None, **settings: Any) -> "ClassPart":
        """A part from :meth:`to_bytes`, with these settings."""
        return cls.from_settings_json(settings_json(qi, sensitive, **settings), data)

    def merge(self, other: "ClassPart") -> "ClassPart":
        """Adds ``other``'s classes (disjoint from this part's); returns self."""
        self._native.merge(other._native)
        return self

    def to_bytes(self) -> bytes:
        """The binary form (versioned)."""
        return self._native.to_bytes()

    @property
    def rows(self) -> int:
        """The rows the parts merged so far held."""
        return self._native.rows

    def audit(self) -> Report:
        """The report of the parts merged so far, with the part's settings."""
        return _report(self._native.audit())
