"""File paths of every format the CLI reads: CSV, Parquet and Excel, told apart by the CLI's
rule (first bytes, then name), with the CLI's report."""

import pytest

import pseudolens
from conftest import ROOT, cli

FIXTURES = ROOT / "tests" / "e2e" / "fixtures"
SETTINGS = dict(qi=["age", "sex", "zip"], sensitive=["note"])


@pytest.mark.parametrize("name, extra", [("formats.parquet", []), ("formats.xlsx", []), ("formats.xlsx", ["--sheet", "Release"])])
def test_parquet_and_xlsx_paths_give_the_clis_report(name, extra):
    path = FIXTURES / name
    sheet = extra[1] if extra else None
    mine = pseudolens.audit(path, sheet=sheet, **SETTINGS)
    theirs = cli("audit", path, "--qi", "age,sex,zip", "--sensitive", "note", *extra)
    mine.pop("read"), theirs.pop("read")
    assert mine == theirs
    assert mine["input"]["format"] == name.split(".")[1] and mine["input"]["rows_total"] == 50
    # The same table as the CSV.
    csv = pseudolens.audit(FIXTURES / "formats.csv", **SETTINGS)
    assert mine["metrics"] == csv["metrics"] and mine["columns"] == csv["columns"]
    table = pseudolens.PartialTable(**SETTINGS).absorb(path, sheet=sheet).absorb(FIXTURES / "formats.csv")
    assert table.rows == 100


def test_a_file_named_parquet_that_is_not_and_a_side_table_that_is_not_csv(tmp_path):
    fake = tmp_path / "fake.parquet"
    fake.write_text("age,sex\n1,2\n")
    with pytest.raises(pseudolens.PseudolensError) as e:
        pseudolens.audit(fake, qi=["age"])
    assert e.value.args[1] == "unreadable_parquet"
    with pytest.raises(pseudolens.PseudolensError) as e:
        pseudolens.audit(FIXTURES / "formats.csv", original=FIXTURES / "formats.parquet", **SETTINGS)
    assert e.value.args[1] == "side_table_not_csv" and "CSV only" in e.value.args[0]
    with pytest.raises(pseudolens.PseudolensError) as e:
        pseudolens.audit(FIXTURES / "formats.xlsx", sheet="Nope", **SETTINGS)
    assert e.value.args[1] == "unknown_sheet"
