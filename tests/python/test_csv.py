"""audit(path.csv): the CLI's report, settings as the settings file's keys, the helpers."""

import json
import subprocess

import pytest

import pseudolens
from conftest import CLI, cli, table_part

QI = ["age", "sex", "race"]


def test_the_report_is_the_clis_json(adult):
    mine = pseudolens.audit(adult, qi=QI, sensitive=["occupation"])
    theirs = cli("audit", adult, "--qi", ",".join(QI), "--sensitive", "occupation")
    assert isinstance(mine, dict)
    assert mine["read"]["mode"] == theirs["read"]["mode"] == "streaming"
    mine.pop("read"), theirs.pop("read")
    assert mine == theirs
    assert mine["input"]["rows_total"] == 30162
    assert mine.metric("k_anonymity")["value"] == 1
    assert mine.metric("n_classes")["value"] == 528


def test_keywords_are_the_settings_files_keys(adult, tmp_path):
    settings = dict(
        missing_policy="wildcard",
        threshold=0.1,
        l_threshold=3,
        t_threshold=0.4,
        records_at_risk_threshold=0.1,
        missing_tokens=["", "NA", "N/A", "NaN", "NULL", "null", "?"],
    )
    mine = pseudolens.audit(adult, qi=QI, sensitive="occupation", **settings)
    # The same keys as a settings file.
    file = tmp_path / "settings.json"
    file.write_text(json.dumps({"quasi_identifiers": QI, "sensitive": ["occupation"], **settings}))
    from_file = cli("audit", adult, "--settings", file)
    # The same settings as flags.
    flags = cli(
        "audit", adult, "--qi", ",".join(QI), "--sensitive", "occupation", "--missing", "wildcard",
        "--threshold", "0.1", "--l-threshold", "3", "--t-threshold", "0.4",
        "--records-at-risk-threshold", "0.1", "--missing-token", "?",
    )
    for r in (mine, from_file, flags):
        r.pop("read")
    assert mine == from_file == flags
    assert mine["params"]["missing_policy"] == "wildcard"
    assert mine.metric("l_distinct")["details"]["failing"]["classes"] > 0


def test_quasi_identifiers_by_their_key_name(adult):
    a = pseudolens.audit(adult, quasi_identifiers=QI)
    b = pseudolens.audit(adult, qi=QI)
    assert table_part(a) == table_part(b)
    with pytest.raises(TypeError):
        pseudolens.audit(adult, qi=QI, quasi_identifiers=QI)


def test_an_unknown_key_or_a_bad_value_is_an_error(adult):
    with pytest.raises(pseudolens.PseudolensError) as e:
        pseudolens.audit(adult, qi=QI, treshold=0.1)
    assert "treshold" in str(e.value) and e.value.args[1] == "invalid_settings"
    with pytest.raises(pseudolens.PseudolensError) as e:
        pseudolens.audit(adult, qi=QI, threshold=2)
    assert e.value.args[1] == "invalid_threshold"


def test_bad_input_names_line_and_column(tmp_path):
    f = tmp_path / "ragged.csv"
    f.write_text("a,b\n1,2\n3\n")
    with pytest.raises(pseudolens.PseudolensError) as e:
        pseudolens.audit(f, qi=["a"])
    message, code, line, _column = e.value.args
    assert code == "ragged_row" and line == 3 and "line 3" in message
    with pytest.raises(OSError):
        pseudolens.audit(tmp_path / "absent.csv", qi=["a"])
    with pytest.raises(TypeError):
        pseudolens.audit(42, qi=["a"])


def test_metrics_frame_has_one_row_per_metric(adult):
    r = pseudolens.audit(adult, qi=QI, sensitive=["occupation"])
    frame = r.metrics_frame()
    assert len(frame) == len(r["metrics"])
    k = frame[frame["id"] == "k_anonymity"].iloc[0]
    assert (k["value"], k["status"], k["table"]) == (1, "ok", "P")
    t = frame[(frame["id"] == "t_closeness") & (frame["sensitive"] == "occupation")].iloc[0]
    assert t["value"] == pytest.approx(0.9952589350838804)
    assert frame[frame["id"] == "qi_distinction"]["subset"].tolist()[:2] == ["sex", "age"]


def test_classes_frame_lists_the_riskiest_and_failing_classes(adult):
    r = pseudolens.audit(adult, qi=QI, sensitive=["occupation"], l_threshold=3)
    frame = r.classes_frame()
    assert list(frame.columns) == ["metric", "sensitive", *r["params"]["quasi_identifiers"], "size", "risk"]
    top = frame[frame["metric"] == "record_risk"]
    assert len(top) == len(r.metric("record_risk")["details"]["top"])
    first = top.iloc[0]
    assert (first["sex"], first["age"], first["race"], first["size"], first["risk"]) == ("Female", "17", "Asian-Pac-Islander", 1, 1.0)
    failing = frame[frame["metric"] == "l_distinct"]
    assert len(failing) == len(r.metric("l_distinct")["details"]["failing"]["listed"])
    assert (failing["sensitive"] == "occupation").all()


def test_a_windows_1252_file_is_read_again_with_the_clis_warning(tmp_path):
    f = tmp_path / "latin.csv"
    # Past the first chunk (1 MiB) all ASCII, detected as UTF-8; then a Windows-1252 byte.
    ascii_rows = "Bern,30\n" * 200_000
    f.write_bytes(("city,age\n" + ascii_rows + "Zürich,30\nGenève,40\nGenève,40\n").encode("cp1252"))
    mine = pseudolens.audit(f, qi=["city", "age"])
    theirs = cli("audit", f, "--qi", "city,age")
    mine.pop("read"), theirs.pop("read")
    assert mine == theirs
    assert mine["input"]["encoding"] == "windows-1252"
    assert [w["code"] for w in mine["warnings"]].count("encoding_fallback") == 1
    table = pseudolens.PartialTable(qi=["city", "age"]).absorb(f)
    assert table_part(table.audit())["metrics"] == table_part(mine)["metrics"]


def test_original_and_reference_as_the_clis(tmp_path):
    if not CLI.exists():
        pytest.fail(f"{CLI} is missing")
    files = {}
    for name, level in (("original", 0), ("release", 2)):
        files[name] = tmp_path / f"{name}.csv"
        files[name].write_bytes(subprocess.run([str(CLI), "generate", "--rows", "3000", "--level", str(level)], check=True, capture_output=True).stdout)
    qi = ["age", "sex", "region"]
    theirs = cli("audit", files["release"], "--qi", ",".join(qi), "--original", files["original"], "--reference", files["original"], "--record-id", "record_id")
    mine = pseudolens.audit(files["release"], qi=qi, record_id="record_id", original=files["original"], reference=files["original"])
    mine.pop("read"), theirs.pop("read")
    assert mine == theirs
    assert mine["original_input"]["rows_total"] == 3000 and mine["reference_input"] is not None
    assert mine.metric("r_external")["value"] is not None
    table = pseudolens.PartialTable(qi=qi, record_id="record_id").absorb(files["release"])
    again = table.audit(original=files["original"], reference=files["original"])
    assert table_part(again)["metrics"] == table_part(mine)["metrics"]


def test_the_attacks_by_keyword_with_a_control_table(tmp_path):
    """attacks={...} (the settings file's key) and control= (the CLI's --control): the same
    report as the CLI's, from a file and from the partial table."""
    header = "age,sex,income,diag\n"
    o = header + "".join(f"{20 + i},{'FM'[i % 2]},{1000 + 37 * i},{['flu', 'cold', 'asthma'][i % 3]}\n" for i in range(30))
    p = header + "".join(f"{21 + i},{'FM'[i % 2]},{1010 + 37 * i},{['flu', 'cold', 'asthma'][i % 3]}\n" for i in range(30))
    c = header + "".join(f"{25 + i},{'MF'[i % 2]},{1200 + 31 * i},{['cold', 'flu', 'asthma'][i % 3]}\n" for i in range(30))
    paths = {}
    for name, text in (("o", o), ("p", p), ("c", c)):
        paths[name] = tmp_path / f"{name}.csv"
        paths[name].write_text(text)
    attacks = {"n_attacks": 20, "seed": 4}
    mine = pseudolens.audit(paths["p"], qi=["age", "sex", "income"], sensitive="diag", original=paths["o"], control=paths["c"], attacks=attacks)
    theirs = cli("audit", paths["p"], "--qi", "age,sex,income", "--sensitive", "diag", "--original", paths["o"], "--control", paths["c"],
                 "--n-attacks", "20", "--attack-seed", "4")
    ids = ["anonymeter_singling_out_risk", "anonymeter_linkability_risk", "anonymeter_inference_risk"]
    for i in ids:
        assert mine.metric(i) == next(m for m in theirs["metrics"] if m["id"] == i)
        assert mine.metric(i)["params"]["control_given"] is True
    part = pseudolens.PartialTable(qi=["age", "sex", "income"], sensitive="diag", attacks=attacks)
    part.absorb(paths["p"])
    from_part = part.audit(original=paths["o"], control=paths["c"])
    for i in ids:
        assert from_part.metric(i) == mine.metric(i)


def test_the_synthetic_measures_by_keyword_with_a_holdout(tmp_path):
    """synthetic={...} and holdout= (the CLI's --synthetic and --holdout): the same measures as
    the CLI's; holdout= and control= name one table."""
    header = "age,sex,diag\n"
    rows = lambda shift: header + "".join(f"{20 + (i * 7 + shift) % 40},{'FM'[i % 2]},{['flu', 'cold', 'asthma'][(i + shift) % 3]}\n" for i in range(40))
    paths = {}
    for name, shift in (("o", 0), ("p", 3), ("h", 5)):
        paths[name] = tmp_path / f"{name}.csv"
        paths[name].write_text(rows(shift))
    mine = pseudolens.audit(paths["p"], qi=["age", "sex"], original=paths["o"], holdout=paths["h"], synthetic={"kmarg_seed": 2})
    theirs = cli("audit", paths["p"], "--qi", "age,sex", "--original", paths["o"], "--holdout", paths["h"], "--kmarg-seed", "2")
    ours = [m for m in mine["metrics"] if m["family"] == "synthetic"]
    assert ours and ours == [m for m in theirs["metrics"] if m["family"] == "synthetic"]
    with pytest.raises(pseudolens.PseudolensError):
        pseudolens.audit(paths["p"], qi=["age", "sex"], original=paths["o"], holdout=paths["h"], control=paths["o"], synthetic={})


def test_case_insensitive_keyword(tmp_path):
    """`case_insensitive=True` is the settings key and the CLI's --case-insensitive: Male,
    male and MALE form one class (3 classes instead of 6)."""
    path = tmp_path / "case.csv"
    path.write_text("sex,zip\nMale,130\nmale,130\nMALE,130\nFemale,130\nfemale,130\nF,131\n")
    assert pseudolens.audit(path, qi=["sex", "zip"]).metric("n_classes")["value"] == 6
    mine = pseudolens.audit(path, qi=["sex", "zip"], case_insensitive=True)
    assert mine.metric("n_classes")["value"] == 3
    theirs = cli("audit", path, "--qi", "sex,zip", "--case-insensitive")
    assert theirs["params"]["case_insensitive"] is True
    assert mine.metric("n_classes") == next(m for m in theirs["metrics"] if m["id"] == "n_classes")
