"""Typed date columns read as dates (spec README Sec 4.4, issue 36): a pandas ``datetime64``
column (timestamps at midnight) and a polars ``Date`` column are date columns with month and
year advice; a named pandas index (``set_index("mrn")``) is read as the first column."""

import datetime

import pytest

import pseudolens

pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")

BORN = ["1980-03-12", "2022-04-01", "1980-03-12", "1975-07-30"]
SEX = ["f", "m", "f", "m"]


def column(report, name):
    return next(c for c in report["columns"] if c["name"] == name)


def test_a_pandas_datetime64_column_is_a_date_column_with_month_and_year_advice():
    frame = pd.DataFrame({"born": pd.to_datetime(BORN), "sex": SEX})
    assert str(frame["born"].dtype).startswith("datetime64")
    report = pseudolens.audit(frame, qi=["born", "sex"], advice={})
    born = column(report, "born")
    assert (born["kind"], born["date_form"], born["min"], born["max"]) == ("date", "YYYY-MM-DD", "1975-07-30", "2022-04-01")
    changes = {e["change"]["kind"] for e in report.metric("advice")["value"] if e["change"].get("column") == "born"}
    assert {"month", "year"} <= changes


def test_a_polars_date_column_is_a_date_column():
    frame = pl.DataFrame({"born": [datetime.date.fromisoformat(d) for d in BORN], "sex": SEX})
    assert column(pseudolens.audit(frame, qi=["born", "sex"]), "born")["kind"] == "date"


def test_a_named_pandas_index_is_read_as_the_first_column():
    frame = pd.DataFrame({"mrn": ["a1", "a2", "a3", "a4"], "sex": SEX}).set_index("mrn")
    report = pseudolens.audit(frame, qi=["sex"])
    assert [c["name"] for c in report["columns"]] == ["mrn", "sex"]
    assert column(report, "mrn")["distinct"] == 4
    # The default index (0, 1, 2, ...) is not data: no column of it.
    plain = pseudolens.audit(frame.reset_index(), qi=["sex"])
    assert [c["name"] for c in plain["columns"]] == ["mrn", "sex"]
