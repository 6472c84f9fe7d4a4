"""One table, many sources: a CSV path, string data frames (pandas, polars, pyarrow), Parquet,
and typed frames, whose cells follow the typed-cell rule (an integer as its digits, a float as
its shortest round-trip decimal, a date as YYYY-MM-DD, a null as blank)."""

import datetime

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import pseudolens
from conftest import table_part

pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")

# Values a typed reader changes: leading and trailing zeros, missing tokens, blanks.
CSV = """code,amount,note,zip,day
007,1.50,n/a,8001,2020-01-31
007,2,None,8001,2020-01-31
12,,,8002,2020-02-01
12,1.50,ok,8002,2020-02-01
,3.25,"x,y",8003,
007,2,n/a,8003,2020-01-31
012,1.50,ok,8001,2020-02-01
"""
SETTINGS = dict(qi=["code", "zip", "day"], sensitive=["note", "amount"])

# The same table as the typed-cell rule writes a typed frame of it (pandas' defaults): code
# read as a number (007 -> 7, 012 -> 12), amount as a float (1.50 -> 1.5, 2 -> 2), the
# missing tokens n/a and None and the blanks as nulls (blank cells), zip as an integer, day as
# a date (YYYY-MM-DD).
TYPED_CSV = """code,amount,note,zip,day
7,1.5,,8001,2020-01-31
7,2,,8001,2020-01-31
12,,,8002,2020-02-01
12,1.5,ok,8002,2020-02-01
,3.25,"x,y",8003,
7,2,,8003,2020-01-31
12,1.5,ok,8001,2020-02-01
"""


@pytest.fixture
def path(tmp_path):
    p = tmp_path / "table.csv"
    p.write_text(CSV)
    return p


def report(source, **extra):
    return table_part(pseudolens.audit(source, **SETTINGS, **extra))


def strings(path):
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def test_string_sources_give_the_csv_report(path, tmp_path):
    expected = report(path)
    assert expected["input"]["rows_total"] == 7
    parquet = tmp_path / "table.parquet"
    pq.write_table(pa.Table.from_pandas(strings(path), preserve_index=False), parquet)
    sources = {
        "pandas dtype=str": strings(path),
        "polars strings": pl.read_csv(path, infer_schema=False),
        "pyarrow table": pa.Table.from_pandas(strings(path), preserve_index=False),
        "pyarrow reader": pa.Table.from_pandas(strings(path), preserve_index=False).to_reader(max_chunksize=2),
        "parquet": parquet,
    }
    for name, source in sources.items():
        assert report(source) == expected, name
    # A class as the report names it keeps the text as written.
    assert {"007", "012", "12"} <= codes(expected)


def codes(report):
    """The codes of the classes the report names (its riskiest classes)."""
    top = next(m for m in report["metrics"] if m["id"] == "record_risk")["details"]["top"]
    return {c["values"]["code"] for c in top}


def test_pandas_default_nulls_are_missing_tokens(path):
    # pandas.read_csv(path, dtype=str) turns n/a, None and blanks into NaN (blank cells): the
    # CSV read with those as missing tokens gives the same report.
    tokens = ["", "NA", "N/A", "NaN", "NULL", "null", "n/a", "None"]
    assert report(pd.read_csv(path, dtype=str), missing_tokens=tokens) == report(path, missing_tokens=tokens)


def test_typed_frames_follow_the_typed_cell_rule(path, tmp_path):
    typed_text = tmp_path / "typed.csv"
    typed_text.write_text(TYPED_CSV)
    expected = report(typed_text)
    frame = pd.read_csv(path, parse_dates=["day"])
    frame["day"] = frame["day"].dt.date  # a date column, not a timestamp
    assert str(frame["code"].dtype) == "float64" and str(frame["zip"].dtype) == "int64"
    parquet = tmp_path / "typed.parquet"
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), parquet)
    assert report(frame) == expected
    assert report(parquet) == expected
    # Where typed input differs from the text: 007 and 012 are read as the integers 7 and 12,
    # so the classes (007, 8001) and (012, 8001) are (7, 8001) and (12, 8001).
    as_text = report(path)
    assert as_text["metrics"] != expected["metrics"]
    assert codes(expected) == {"7", "12", None} and codes(as_text) == {"007", "012", "12", None}
    assert report(path)["input"]["rows_total"] == expected["input"]["rows_total"]


def test_polars_typed_integers_floats_and_dates(path, tmp_path):
    frame = pl.read_csv(path, try_parse_dates=True)
    assert frame.schema["code"] == pl.Int64 and frame.schema["day"] == pl.Date
    # polars keeps n/a and None as text; its nulls are the blanks.
    text = tmp_path / "polars.csv"
    text.write_text(TYPED_CSV.replace("7,1.5,,8001", "7,1.5,n/a,8001", 1).replace("7,2,,8001", "7,2,None,8001", 1).replace("7,2,,8003", "7,2,n/a,8003", 1))
    assert report(frame) == report(text)


def test_typed_cells_by_kind():
    table = pa.table(
        {
            "i": pa.array([7, -3, None], pa.int32()),
            "f": pa.array([1.5, 2.0, 1e-7], pa.float64()),
            "d": pa.array([datetime.date(2020, 1, 31), None, datetime.date(1969, 12, 31)], pa.date32()),
            "b": pa.array([True, False, None]),
            "s": pa.array(["007", "", None]),
        }
    )
    r = pseudolens.audit(table, qi=["i", "f", "d", "b", "s"])
    profile = {c["name"]: c for c in r["columns"]}
    assert r["input"]["rows_total"] == 3 and r["input"]["format"] == "arrow"
    # Each row is its own class; the riskiest classes name their values as text.
    values = [c["values"] for c in r.metric("record_risk")["details"]["top"]]
    assert {"i": "7", "f": "1.5", "d": "2020-01-31", "b": "true", "s": "007"} in values
    assert {"i": "-3", "f": "2", "d": None, "b": "false", "s": None} in values
    assert {"i": None, "f": "0.0000001", "d": "1969-12-31", "b": None, "s": None} in values
    assert profile["i"]["kind"] == "numeric"


def test_duckdb_results(path):
    duckdb = pytest.importorskip("duckdb")
    rel = duckdb.sql(f"select * from read_csv('{path}', all_varchar=true)")
    assert report(rel) == report(path)
