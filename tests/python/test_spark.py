"""pseudolens.spark.audit on a local Spark (local[2]): partial tables per partition, merged on
the driver, give the report of the same rows audited on one machine."""

import json
import os
import shutil
import sys

import pytest

import pseudolens
from conftest import table_part

pyspark = pytest.importorskip("pyspark")
import pseudolens.spark  # noqa: E402

QI = ["age", "sex", "race"]


@pytest.fixture(scope="module")
def spark():
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.fail("Spark needs Java: scripts/test.sh installs openjdk-17-jre-headless")
    from pyspark.sql import SparkSession

    # The workers run this Python, where pseudolens is installed.
    os.environ["PYSPARK_PYTHON"] = os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2]")
        .appName("pseudolens-test")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.driver.bindAddress", "127.0.0.1")
        # Task results past 1 MB (partial tables of many classes) are fetched from the block
        # manager: it must advertise the address it listens on.
        .config("spark.driver.host", "127.0.0.1")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def comparable(report):
    r = table_part(report)
    return r["metrics"], r["columns"], r["warnings"], r["input"]["rows_total"]


SETTINGS = dict(qi=QI, sensitive=["occupation"], l_threshold=2, t_threshold=0.5)


def test_spark_audit_is_the_local_audit(spark, adult):
    # Partitions of about 600 kB: the file in 5 ranges, in file order.
    spark.conf.set("spark.sql.files.maxPartitionBytes", str(600_000))
    try:
        df = spark.read.csv(str(adult), header=True, sep=";", inferSchema=False)
        assert df.rdd.getNumPartitions() == 5
        parts = pseudolens.spark.partial_tables(df, **SETTINGS)
    finally:
        spark.conf.unset("spark.sql.files.maxPartitionBytes")
    assert [p for p, _ in parts] == [0, 1, 2, 3, 4]
    assert sum(pseudolens.PartialTable.from_bytes(b, **SETTINGS).rows for _, b in parts) == 30162
    merged = pseudolens.PartialTable.from_bytes(parts[0][1], **SETTINGS)
    for _, b in parts[1:]:
        merged.merge(pseudolens.PartialTable.from_bytes(b, **SETTINGS))
    report = merged.audit()
    assert comparable(report) == comparable(pseudolens.audit(adult, **SETTINGS))
    assert report.metric("k_anonymity")["value"] == 1


def close(a, b, path="report"):
    """Equal, floats within 1e-12 relative: sums over the records in another order differ in
    their last bits."""
    if isinstance(a, float) or isinstance(b, float):
        assert a == pytest.approx(b, rel=1e-12, abs=1e-15), path
    elif isinstance(a, dict) and isinstance(b, dict):
        assert a.keys() == b.keys(), path
        for k in a:
            close(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            close(x, y, f"{path}[{i}]")
    else:
        assert a == b, path


def test_shuffled_partitions_give_the_same_numbers(spark, adult):
    # A shuffle puts the rows in another order: the same classes and counts; means summed in
    # another order may differ in their last bits.
    df = spark.read.csv(str(adult), header=True, sep=";", inferSchema=False).repartition(4)
    report = pseudolens.spark.audit(df, **SETTINGS)
    close(comparable(report), comparable(pseudolens.audit(adult, **SETTINGS)))


def test_against_an_original_every_column_keeps_its_codes(spark, adult):
    # The utility measures compare the released columns row by row: the parts keep their codes
    # (without an original only the roles' columns do).
    spark.conf.set("spark.sql.files.maxPartitionBytes", str(600_000))
    try:
        df = spark.read.csv(str(adult), header=True, sep=";", inferSchema=False)
        assert df.rdd.getNumPartitions() == 5
        report = pseudolens.spark.audit(df, qi=QI, original=adult)
    finally:
        spark.conf.unset("spark.sql.files.maxPartitionBytes")
    # Each of the nine columns compared, row by row: none changed.
    assert [m["value"] for m in report["metrics"] if m["id"] == "changed_records"] == [0] * 9
    assert comparable(report) == comparable(pseudolens.audit(adult, qi=QI, original=adult))


def test_typed_spark_columns_follow_the_typed_rule(spark, adult):
    import pandas as pd

    frame = pd.read_csv(adult, sep=";")
    assert str(frame["age"].dtype) == "int64"
    df = spark.createDataFrame(frame, schema="sex string, age long, race string, `marital-status` string, education string, "
                               "`native-country` string, workclass string, occupation string, `salary-class` string")
    settings = dict(qi=QI, sensitive=["occupation"])
    close(comparable(pseudolens.spark.audit(df, **settings)), comparable(pseudolens.audit(frame, **settings)))


def test_an_empty_frame_has_its_columns(spark):
    df = spark.createDataFrame([], "a string, b int")
    r = pseudolens.spark.audit(df, qi=["a"])
    assert r["input"]["rows_total"] == 0 and [c["name"] for c in r["columns"]] == ["a", "b"]


def test_a_generated_table_in_7_partitions_and_partitioned_by_its_quasi_identifiers(spark, tmp_path):
    # The check: 200,000 generated rows split into 7 partitions give every metric of
    # the CLI's report; partitioned by a hash of the QIs (each class in one partition), the
    # same numbers (sums over records in another order aside).
    from conftest import CLI, cli

    if not CLI.exists():
        pytest.fail(f"{CLI} is missing: cargo build --release -p pseudolens (scripts/test.sh builds it)")
    import subprocess

    path = tmp_path / "generated.csv"
    path.write_bytes(subprocess.run([str(CLI), "generate", "--rows", "200000", "--seed", "3"], check=True, capture_output=True).stdout)
    qis = ["age", "sex", "region", "admission_date", "ward"]
    settings = dict(quasi_identifiers=qis, sensitive=["diagnosis"], l_threshold=2, t_threshold=0.5)
    settings_file = tmp_path / "settings.json"
    settings_file.write_text(json.dumps(settings))
    # --retain: the CLI keeps the table as Spark's parts do (so the ids' distinct counts are exact).
    expected = comparable(cli("audit", path, "--settings", settings_file, "--retain"))

    spark.conf.set("spark.sql.files.maxPartitionBytes", str(path.stat().st_size // 7 + 1))
    try:
        df = spark.read.csv(str(path), header=True, inferSchema=False)
        assert df.rdd.getNumPartitions() == 7
        in_file_order = pseudolens.spark.audit(df, **settings)
    finally:
        spark.conf.unset("spark.sql.files.maxPartitionBytes")
    assert comparable(in_file_order) == expected

    by_qis = df.repartition(7, *qis)
    assert by_qis.rdd.getNumPartitions() == 7
    close(comparable(pseudolens.spark.audit(by_qis, **settings)), expected)

    # The class-partitioned mode: only class statistics and profiles reach the driver, and
    # they give the CLI's identity metrics.
    identity_metrics_agree(pseudolens.spark.audit(df, mode="classes", partitions=7, **settings), cli("audit", path, "--settings", settings_file, "--retain"))


def identity_metrics_agree(classes, whole):
    """Every metric of the class-partitioned report equals the one-piece report's."""
    assert classes["read"]["mode"] == "class_partitioned"
    assert any(w["code"] == "class_partitioned" for w in classes["warnings"])
    for m in classes["metrics"]:
        w = next(x for x in whole["metrics"] if x["id"] == m["id"] and x["scope"] == m["scope"])
        assert m["status"] == w["status"], m["id"]
        close(m["value"], w["value"], m["id"])
        close(m["details"], w["details"], m["id"])
    for c, w in zip(classes["columns"], whole["columns"]):
        # A column of more than 4,096 distinct values in a partition ships its sketch: its
        # distinct values are then estimated (HyperLogLog, about 1 % error) and marked so.
        if c["distinct_exact"]:
            assert c["distinct"] == w["distinct"], c["name"]
        else:
            assert c["distinct"] == pytest.approx(w["distinct"], rel=0.03), c["name"]
    assert classes["input"]["rows_total"] == whole["input"]["rows_total"]


def test_class_partitioned_mode_gives_the_identity_metrics(spark, adult):
    # Rows in 3 partitions in file order, split again by class into 5: each partition sends
    # its class statistics; they merge into the one-piece report's identity metrics.
    df = spark.read.csv(str(adult), header=True, sep=";", inferSchema=False).repartition(3)
    report = pseudolens.spark.audit(df, mode="classes", partitions=5, **SETTINGS)
    ids = {m["id"] for m in report["metrics"]}
    assert {"k_anonymity", "sample_uniques", "record_risk", "population_uniqueness_pitman", "journalist_success_rate", "verdict_arx_thresholds"} <= ids
    assert "l_distinct" not in ids and "qi_distinction" not in ids
    identity_metrics_agree(report, pseudolens.audit(adult, **SETTINGS))
    parts = pseudolens.spark.class_parts(df, partitions=5, **SETTINGS)
    assert len(parts) == 5 and sum(pseudolens.ClassPart.from_bytes(b, **SETTINGS).rows for _, b in parts) == 30162


def test_class_parts_are_the_same_for_any_bucket_size(spark, adult):
    # A partition sends its rows on in buckets of at most `held_rows` rows: 1,000 rows make
    # about thirty rounds of buckets in each of the 3 partitions, the default one. Every
    # class still reaches one partition of the 5 (so the parts are the same classes), and the
    # merged report is the same.
    df = spark.read.csv(str(adult), header=True, sep=";", inferSchema=False).repartition(3)
    text = pseudolens.settings_json(QI, ["occupation"], l_threshold=2, t_threshold=0.5)
    whole = pseudolens.spark._class_parts(df, text, 5)
    small = pseudolens.spark._class_parts(df, text, 5, held_rows=1000)
    assert [p for p, _ in small] == [0, 1, 2, 3, 4]
    rows = lambda parts: [pseudolens.ClassPart.from_bytes(b, **SETTINGS).rows for _, b in parts]  # noqa: E731
    assert rows(small) == rows(whole) and sum(rows(whole)) == 30162
    audit = lambda parts: pseudolens.spark.merge_parts(pseudolens.spark._empty(df, text).class_part(), parts, text).audit()  # noqa: E731
    assert comparable(audit(small)) == comparable(audit(whole))


def test_class_partitioned_mode_keeps_spellings_of_one_value_together(spark):
    # " 7" and "7", "NA" and a blank are one value each for the audit: their rows must reach
    # one partition, or a class would be counted twice as two smaller ones.
    import pandas as pd

    rows = [(" 7", "M"), ("7", "M"), ("NA", "F"), ("", "F"), ("8", "F")] * 20 + [("9", "M")]
    frame = pd.DataFrame(rows, columns=["age", "sex"])
    df = spark.createDataFrame(frame).repartition(4)
    report = pseudolens.spark.audit(df, qi=["age", "sex"], mode="classes", partitions=8)
    identity_metrics_agree(report, pseudolens.audit(frame, qi=["age", "sex"]))
    assert report.metric("k_anonymity")["value"] == 1 and report.metric("n_classes")["value"] == 4


def test_class_partitioned_mode_refuses_what_it_cannot_do(spark):
    df = spark.createDataFrame([("1", "a")], "x string, y string")
    with pytest.raises(pseudolens.PseudolensError, match="wildcard"):
        pseudolens.spark.audit(df, qi=["x"], mode="classes", missing_policy="wildcard")
    with pytest.raises(ValueError, match="original"):
        pseudolens.spark.audit(df, qi=["x"], mode="classes", original="o.csv")
    empty = pseudolens.spark.audit(spark.createDataFrame([], "a string, b int"), qi=["a"], mode="classes")
    assert empty["input"]["rows_total"] == 0 and [c["name"] for c in empty["columns"]] == ["a", "b"]
