"""What each Spark mode sends to the driver (docs/spark.md): the bytes of the parts and the wall
time, one-phase (partial tables) against class-partitioned (class parts), in local[2].

    .venv-py/bin/python bench/spark-parts.py FILE.csv QI,QI,...   # e.g. `pseudolens generate --rows 1000000`

Run it from a folder without a file named like a standard module (Spark imports `random`, ...).
"""

import os
import sys
import time

os.environ["PYSPARK_PYTHON"] = os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
from pyspark.sql import SparkSession  # noqa: E402

import pseudolens.spark  # noqa: E402

path, qis = sys.argv[1], sys.argv[2].split(",")
spark = (
    SparkSession.builder.master("local[2]")
    .config("spark.ui.enabled", "false")
    .config("spark.driver.host", "127.0.0.1")
    .config("spark.driver.bindAddress", "127.0.0.1")
    .config("spark.sql.shuffle.partitions", "4")
    .getOrCreate()
)
spark.sparkContext.setLogLevel("ERROR")
df = spark.read.csv(path, header=True, inferSchema=False)
for mode in ["table", "classes"]:
    start = time.time()
    parts = pseudolens.spark.partial_tables(df, qi=qis) if mode == "table" else pseudolens.spark.class_parts(df, qi=qis, partitions=8)
    print(f"{mode}: {len(parts)} parts, {sum(len(b) for _, b in parts)} bytes to the driver, {time.time() - start:.1f} s")
    start = time.time()
    report = pseudolens.spark.audit(df, qi=qis, mode=mode, partitions=8)
    print(f"  audit {time.time() - start:.1f} s, k {report.metric('k_anonymity')['value']}, classes {report.metric('n_classes')['value']}")
