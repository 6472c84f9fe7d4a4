"""Type hints of the compiled binding (crate/python); use the package :mod:`pseudolens`."""

from typing import Any, List, Optional, Tuple

__version__: str

class PseudolensError(ValueError):
    """An audit failed. ``args`` are ``(message, code, line, column)``: the sentence (naming line
    and column when it belongs to one), the stable code (``ragged_row``, ``unknown_column``,
    ``invalid_settings``, ...), the 1-based line (or row) and the column name, or None."""

def audit_file(path: str, settings: str, original: Optional[str] = None, reference: Optional[str] = None, sheet: Optional[str] = None, control: Optional[str] = None) -> str:
    """Streams the file at ``path`` (CSV, Parquet or Excel, by its first bytes and name; a
    large file in parts on every core, as the CLI reads it) through an audit with these settings (the settings file's JSON object), against the
    original and reference CSV files when given; returns the report's JSON text."""

def protect(source: Any, params: str, sheet: Optional[str] = None) -> Tuple[Optional[Tuple[bytes, str]], str]:
    """The lattice search of protect.md over ``source`` (a path, or an Arrow C stream PyCapsule)
    with the protect settings' JSON object ``params``: ``((release CSV bytes, their delimiter)
    or None when no node is feasible and none is given, the metric protect's JSON text)``."""

class PartialTable:
    """Rows kept as the core's table (see :class:`pseudolens.PartialTable`)."""

    def __init__(self, settings: str) -> None: ...
    def absorb_file(self, path: str, sheet: Optional[str] = None) -> None: ...
    def absorb_arrow(self, stream: Any) -> None:
        """``stream``: an Arrow C stream PyCapsule (``obj.__arrow_c_stream__()``)."""
    def merge(self, other: "PartialTable") -> None: ...
    @property
    def rows(self) -> int: ...
    @property
    def columns(self) -> List[str]: ...
    def keep_needed_codes(self) -> None: ...
    def to_bytes(self) -> bytes: ...
    @staticmethod
    def from_bytes(data: bytes, settings: str) -> "PartialTable": ...
    def audit(self, settings: Optional[str] = None, original: Optional[str] = None, reference: Optional[str] = None, control: Optional[str] = None) -> str: ...
    def class_part(self) -> bytes:
        """The rows held as a class-partitioned part's binary form."""

def class_hashes(settings: str, stream: Any) -> bytes:
    """The class hash of each row of an Arrow C stream PyCapsule, 8 little-endian bytes a row."""

class ClassPartial:
    """A class-partitioned part (see :class:`pseudolens.ClassPart`)."""

    @staticmethod
    def from_bytes(data: bytes, settings: str) -> "ClassPartial": ...
    def merge(self, other: "ClassPartial") -> None: ...
    def to_bytes(self) -> bytes: ...
    @property
    def rows(self) -> int: ...
    def audit(self) -> str: ...
