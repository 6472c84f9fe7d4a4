"""The household risk (peer-measures.md Sec 2) by keyword: the settings file's key
``household_column`` gives the CLI's ``--household`` report, from a path and from a data frame
(the G1.6 values)."""

import pytest

import pseudolens
from conftest import cli

G1 = """rid,age,sex,zip,job,hid
1,30,F,100,clerk,H1
2,30,F,100,clerk,H1
3,30,M,100,clerk,H2
4,30,M,200,nurse,H2
5,40,F,200,nurse,H3
6,40,F,200,nurse,H3
7,40,F,200,nurse,H3
8,40,M,100,nurse,H4
9,40,M,300,clerk,H4
10,50,F,100,nurse,H5
11,50,M,200,clerk,H6
12,50,M,200,,H6
"""
QI = ["age", "sex", "zip", "job"]


def household(report, id):
    return next(m for m in report["metrics"] if m["id"] == id)


def test_household_column_by_keyword(tmp_path):
    path = tmp_path / "g1.csv"
    path.write_text(G1)
    mine = pseudolens.audit(path, qi=QI, household_column="hid")
    assert household(mine, "household_risk_er")["value"] == pytest.approx(10.6111111111, rel=1e-9)
    assert household(mine, "household_risk")["value"] == pytest.approx(0.8842592593, rel=1e-9)
    assert household(mine, "household_risk")["details"]["individual_risk_source"] == "1/f"
    flags = cli("audit", path, "--qi", ",".join(QI), "--household", "hid")
    mine.pop("read")
    flags.pop("read")
    assert mine == flags
    # From a data frame (the partial table keeps the household column's values).
    pd = pytest.importorskip("pandas")
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    framed = pseudolens.audit(frame, qi=QI, household_column="hid")
    assert household(framed, "household_risk_er")["value"] == pytest.approx(10.6111111111, rel=1e-9)


def test_without_household_column_not_applicable(tmp_path):
    path = tmp_path / "g1.csv"
    path.write_text(G1)
    m = household(pseudolens.audit(path, qi=QI), "household_risk")
    assert (m["status"], m["reason"]) == ("not_applicable", "no_household_column")
