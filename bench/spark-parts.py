"""What each Spark mode sends to the driver (docs/spark.md): the bytes of the parts and the wall
time, one-phase (partial tables) against class-partitioned (class parts), in local[2].

    cd bench-out && venv-spark/bin/python ../bench/spark-parts.py FILE.csv QI,QI,...   # (scripts/bench.sh --spark makes the venv)

Run it from a folder without a file named like a standard module (Spark imports `random`, ...).
"""

import sys
import time

import pseudolens.spark  # noqa: E402
from spark import local_session  # noqa: E402 (bench/spark.py, beside this file)

path, qis = sys.argv[1], sys.argv[2].split(",")
spark = local_session()
df = spark.read.csv(path, header=True, inferSchema=False)
for mode in ["table", "classes"]:
    start = time.time()
    parts = pseudolens.spark.partial_tables(df, qi=qis, needed_codes_only=True) if mode == "table" else pseudolens.spark.class_parts(df, qi=qis, partitions=8)
    print(f"{mode}: {len(parts)} parts, {sum(len(b) for _, b in parts)} bytes to the driver, {time.time() - start:.1f} s")
    start = time.time()
    report = pseudolens.spark.audit(df, qi=qis, mode=mode, partitions=8)
    print(f"  audit {time.time() - start:.1f} s, k {report.metric('k_anonymity')['value']}, classes {report.metric('n_classes')['value']}")
