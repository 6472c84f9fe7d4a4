"""The partial-table API: parts read apart, shipped as bytes and merged give the report of the
whole table read in one pass."""

import pytest

import pseudolens
from conftest import table_part

QI = ["age", "sex", "race", "marital-status"]


def split(path, tmp_path, n):
    lines = path.read_text().splitlines(keepends=True)
    header, rows = lines[0], lines[1:]
    files = []
    for i in range(n):
        f = tmp_path / f"part{i}.csv"
        f.write_text(header + "".join(rows[len(rows) * i // n : len(rows) * (i + 1) // n]))
        files.append(f)
    return files


def metrics_and_columns(report):
    r = table_part(report)
    return r["metrics"], r["columns"], r["warnings"], r["input"]["rows_total"]


def test_parts_merged_give_the_one_pass_report(adult, tmp_path):
    settings = dict(qi=QI, sensitive=["occupation", "salary-class"], l_threshold=2)
    whole = pseudolens.audit(adult, **settings)
    parts = [pseudolens.PartialTable(**settings).absorb(f) for f in split(adult, tmp_path, 3)]
    assert [p.rows for p in parts] == [10054, 10054, 10054]
    wire = [p.to_bytes() for p in parts]
    merged = pseudolens.PartialTable.from_bytes(wire[0], **settings)
    for b in wire[1:]:
        merged.merge(pseudolens.PartialTable.from_bytes(b, **settings))
    assert merged.rows == 30162 and merged.columns[0] == "sex"
    report = merged.audit()
    assert metrics_and_columns(report) == metrics_and_columns(whole)
    assert report["read"]["mode"] == "retained"
    # The account adds up the three files: one header each.
    assert report["input"]["header_records"] == 3


def test_a_merged_table_audits_again_with_other_settings(adult, tmp_path):
    table = pseudolens.PartialTable(qi=QI, sensitive=["occupation"])
    for f in split(adult, tmp_path, 2):
        table.absorb(f)
    fewer = table.audit(qi=QI[:2], sensitive=["occupation"], threshold=0.05)
    assert metrics_and_columns(fewer) == metrics_and_columns(pseudolens.audit(adult, qi=QI[:2], sensitive=["occupation"], threshold=0.05))


def test_parts_keeping_their_roles_codes_alone_ship_less_and_audit_the_same(adult, tmp_path):
    settings = dict(qi=QI, sensitive=["occupation"], l_threshold=2)
    parts = [pseudolens.PartialTable(**settings).absorb(f) for f in split(adult, tmp_path, 2)]
    full = [p.to_bytes() for p in parts]
    lean = [p.keep_needed_codes().to_bytes() for p in parts]
    # Four of the nine columns keep their codes.
    assert all(len(a) < 0.8 * len(b) for a, b in zip(lean, full))
    merged = pseudolens.PartialTable.from_bytes(lean[0], **settings).merge(pseudolens.PartialTable.from_bytes(lean[1], **settings))
    report = merged.audit()
    assert metrics_and_columns(report) == metrics_and_columns(pseudolens.audit(adult, **settings))
    assert report["read"]["mode"] == "retained"
    # Roles over a column whose codes are gone: refused, saying why.
    with pytest.raises(pseudolens.PseudolensError) as e:
        merged.audit(qi=QI + ["education"])
    assert e.value.args[1] == "not_retained" and "roles need were kept" in str(e.value)


def test_bad_bytes_and_other_headers_are_errors(adult, tmp_path):
    with pytest.raises(pseudolens.PseudolensError) as e:
        pseudolens.PartialTable.from_bytes(b"not a table", qi=QI)
    assert e.value.args[1] in ("invalid_table", "unsupported_table_version")
    other = tmp_path / "other.csv"
    other.write_text("x,y\n1,2\n")
    table = pseudolens.PartialTable(qi=QI).absorb(adult)
    with pytest.raises(pseudolens.PseudolensError) as e:
        table.absorb(other)
    assert e.value.args[1] == "parts_differ"
    with pytest.raises(ValueError):
        pseudolens.PartialTable(qi=QI).to_bytes()
