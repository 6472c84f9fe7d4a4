"""pseudolens.spark.audit on a local Spark (local[2]): partial tables per partition, merged on
the driver, give the report of the same rows audited on one machine."""

import os
import shutil

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

    session = (
        SparkSession.builder.master("local[2]")
        .appName("pseudolens-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def comparable(report):
    r = table_part(report)
    return r["metrics"], r["columns"], r["warnings"], r["input"]["rows_total"]


def test_spark_audit_is_the_local_audit(spark, adult):
    settings = dict(qi=QI, sensitive=["occupation"], l_threshold=2, t_threshold=0.5)
    df = spark.read.csv(str(adult), header=True, sep=";", inferSchema=False).repartition(5)
    assert df.rdd.getNumPartitions() == 5
    parts = pseudolens.spark.partial_tables(df, **settings)
    assert len(parts) == 5 and sum(pseudolens.PartialTable.from_bytes(b, **settings).rows for _, b in parts) == 30162
    report = pseudolens.spark.audit(df, **settings)
    assert comparable(report) == comparable(pseudolens.audit(adult, **settings))
    assert report.metric("k_anonymity")["value"] == 1


def test_typed_spark_columns_follow_the_typed_rule(spark, adult):
    import pandas as pd

    frame = pd.read_csv(adult, sep=";")
    assert str(frame["age"].dtype) == "int64"
    df = spark.createDataFrame(frame).repartition(3)
    settings = dict(qi=QI, sensitive=["occupation"])
    assert comparable(pseudolens.spark.audit(df, **settings)) == comparable(pseudolens.audit(frame, **settings))


def test_an_empty_frame_has_its_columns(spark):
    df = spark.createDataFrame([], "a string, b int")
    r = pseudolens.spark.audit(df, qi=["a"])
    assert r["input"]["rows_total"] == 0 and [c["name"] for c in r["columns"]] == ["a", "b"]
