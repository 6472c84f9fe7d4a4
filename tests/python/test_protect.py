"""pseudolens.protect (issue 38 item 5, spec protect.md): the golden example G-P1 from a pandas
frame (the three rows' best nodes and figures, the release of row 1 equal to the spec's
transform and audited as predicted), polars in and out, a path in, bad input, no feasible
node."""

import io
from pathlib import Path

import pandas as pd
import polars as pl
import pytest

import pseudolens

# G-P1's table (protect.md Sec 7).
GP1 = (Path(__file__).resolve().parents[2] / "crate" / "core" / "tests" / "fixtures" / "g-p1.csv").read_text()
QI = ["age", "zip", "sex"]
LADDERS = dict(bands={"age": [10, 20]}, prefixes={"zip": [4, 3]})


def levels(node):
    return tuple(node["levels"][q] for q in QI)


def gp1_pandas():
    return pd.read_csv(io.StringIO(GP1))


def test_golden_g_p1_from_pandas():
    # Row 1: k = 2, no suppression.
    release, r = pseudolens.protect(gp1_pandas(), QI, k=2, **LADDERS)
    assert r["id"] == "protect" and r["value"] == {"age": 3, "zip": 2, "sex": 0}
    d, best = r["details"], r["details"]["best"]
    assert (d["nodes_total"], d["nodes_feasible"]) == (32, 4)
    assert [levels(m) for m in d["minimal"]] == [(3, 2, 0)]
    assert (best["records_suppressed"], best["classes"], best["k"], best["discernibility"]) == (0, 4, 2, 38)
    assert best["average_risk"] == pytest.approx(1 / 3, abs=1e-12)
    assert best["loss"] == pytest.approx(0.449074074074, abs=1e-12)
    # Its release is the spec's transform: every age `*` (the blank one too), zips cut to
    # three digits, the other cells as they were; every column text.
    rows = [line.split(",") for line in GP1.splitlines()[1:]]
    expected = {"age": ["*"] * 12, "zip": [z[:3] + "**" for _, z, _, _ in rows], "sex": [s for _, _, s, _ in rows], "diagnosis": [x for *_, x in rows]}
    assert isinstance(release, pd.DataFrame) and release.to_dict("list") == expected
    assert all(pd.api.types.is_string_dtype(t) for t in release.dtypes)
    # Audited, the release gives the figures the search predicted.
    audit = pseudolens.audit(release, qi=QI)
    assert audit.metric("k_anonymity")["value"] == best["k"]
    assert audit.metric("n_classes")["value"] == best["classes"]
    # Row 2: 3 records may be suppressed.
    _, r = pseudolens.protect(gp1_pandas(), QI, k=2, max_suppression=0.25, **LADDERS)
    assert r["details"]["nodes_feasible"] == 11
    assert sorted(levels(m) for m in r["details"]["minimal"]) == [(1, 2, 1), (2, 3, 0), (3, 1, 0)]
    assert levels(r["details"]["best"]) == (3, 2, 0) and r["details"]["best"]["records_suppressed"] == 0
    # Row 3: with l = 2 over the diagnosis; the class (*, 103**, F) of two flu is removed.
    release, r = pseudolens.protect(gp1_pandas(), QI, "diagnosis", k=2, l=2, max_suppression=0.25, **LADDERS)
    d, best = r["details"], r["details"]["best"]
    assert d["nodes_feasible"] == 10
    assert sorted(levels(m) for m in d["minimal"]) == [(1, 2, 1), (2, 3, 0), (3, 1, 1), (3, 2, 0)]
    assert levels(best) == (3, 2, 0)
    assert (best["records_suppressed"], best["classes"], best["k"]) == (2, 3, 3)
    assert best["average_risk"] == pytest.approx(0.3, abs=1e-12)
    assert best["loss"] == pytest.approx(0.541666666667, abs=1e-12)
    assert len(release) == 10 and not ((release["zip"] == "103**") & (release["sex"] == "F")).any()


def test_polars_in_polars_out_with_a_node_chosen_by_hand():
    frame = pl.read_csv(io.StringIO(GP1))
    release, r = pseudolens.protect(frame, QI, k=2, node={"age": 1, "zip": 1}, suppressed="star", **LADDERS)
    assert isinstance(release, pl.DataFrame) and release.columns == ["age", "zip", "sex", "diagnosis"]
    assert all(t == pl.String for t in release.dtypes)
    # Labels that read as text round-trip: `[30,40)`, `1048*`.
    assert release.row(0) == ("[30,40)", "1048*", "F", "flu")
    assert release.height == 12 and release.filter(pl.col("age") == "*").height == 8
    # The result is the search's, whatever node is applied.
    assert r["value"] == {"age": 3, "zip": 2, "sex": 0}


def test_a_path_in_gives_pandas_with_the_files_delimiter(tmp_path):
    path = tmp_path / "gp1.csv"
    path.write_text(GP1.replace(",", ";"))
    release, r = pseudolens.protect(path, QI, k=2, **LADDERS)
    _, from_frame = pseudolens.protect(pd.read_csv(io.StringIO(GP1), dtype=str), QI, k=2, **LADDERS)
    assert r == from_frame
    assert isinstance(release, pd.DataFrame) and list(release.columns) == ["age", "zip", "sex", "diagnosis"]
    assert release["zip"].tolist()[:3] == ["104**", "104**", "104**"]
    # Below the top level, a blank age stays missing.
    release, _ = pseudolens.protect(str(path), QI, k=1, node={"zip": 1}, **LADDERS)
    assert release["age"].tolist()[0] == "34" and pd.isna(release["age"].tolist()[-1])


def test_hierarchies_as_text_or_path_and_bad_input(tmp_path):
    frame = pd.DataFrame({"c": ["1", "2", "3"], "d": ["0", "1", "x"]})
    nested = "1;A;*\n2;A;*\n3;B;*\n"
    release, r = pseudolens.protect(frame, "c", k=2, max_suppression=0.4, hierarchies={"c": nested})
    assert r["value"] == {"c": 1} and release["c"].tolist() == ["A", "A"]
    # A hierarchy that does not nest, given as a file: the QI and the level named.
    not_nested = tmp_path / "not-nested.csv"
    not_nested.write_text("1;A;X\n2;A;Y\n3;B;X\n")
    with pytest.raises(pseudolens.PseudolensError) as e:
        pseudolens.protect(frame, "c", k=2, hierarchies={"c": not_nested})
    assert e.value.args[1] == "ladder_not_nested" and "at level 1" in e.value.args[0]
    with pytest.raises(pseudolens.PseudolensError) as e:
        pseudolens.protect(frame, "c", k=2, hierarchies={"c": "1;A\n2;A\n"})
    assert e.value.args[1] == "ladder_value_unmapped" and '"3"' in e.value.args[0]
    with pytest.raises(pseudolens.PseudolensError) as e:
        pseudolens.protect(frame, "d", k=2, bands={"d": {"widths": [10], "top": 100}})
    assert e.value.args[1] == "ladder_not_numeric" and "line 4" in e.value.args[0]
    with pytest.raises(pseudolens.PseudolensError) as e:
        pseudolens.protect(frame, "c", k=2, bands={"c": [10]}, prefixes={"c": [1]})
    assert e.value.args[1:] == ("ladder_given_twice", None, "c")
    with pytest.raises(pseudolens.PseudolensError) as e:
        pseudolens.protect(frame, "c", k=2, speed="fast")
    assert e.value.args[1] == "invalid_settings" and "speed" in e.value.args[0]
    with pytest.raises(FileNotFoundError):
        pseudolens.protect(frame, "c", k=2, hierarchies={"c": tmp_path / "none.csv"})


def test_no_feasible_node_gives_no_release_unless_a_node_is_asked_for():
    release, r = pseudolens.protect(gp1_pandas(), QI, k=13, **LADDERS)
    assert release is None and r["value"] is None
    assert r["warnings"] == ["no_feasible_node"]
    assert r["details"]["closest"]["records_suppressed"] == 12
    # A node given is applied as asked: every record of an infeasible node suppressed.
    release, r = pseudolens.protect(gp1_pandas(), QI, k=13, node={"age": 3, "zip": 3, "sex": 1}, **LADDERS)
    assert r["value"] is None and len(release) == 0 and list(release.columns) == ["age", "zip", "sex", "diagnosis"]
