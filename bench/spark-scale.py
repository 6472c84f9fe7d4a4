"""The class-partitioned mode at scale, by simulation (issue 40, run by scripts/bench.sh ROWS
--spark-scale): ROWS rows generated inside Spark (no file: `spark.range` and hashes of the row
number give hospital-like QIs, nearly every row its own class) as many partitions, audited by
the class-partitioned mode in local[2], its two phases timed apart (`pseudolens.spark.class_parts`,
then the merge and audit on the driver, as `audit(mode="classes")` runs them). Measured: the wall time of each phase,
the bytes the driver receives, the driver's memory (the Python process's peak resident set, and
the JVM's heap limit and old generation's peak, a JVM that in local mode also runs the
executors), and the answer checked
against Spark's own `groupBy(QIs).count()` on the same rows (--check). Writes
OUT/spark-scale.json.

    cd bench-out && venv-spark/bin/python ../bench/spark-scale.py --rows 100000000 --out .
"""
import argparse
import datetime
import json
import os
import resource
import sys
import time

os.environ["PYSPARK_PYTHON"] = os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
from pyspark.sql import functions as F  # noqa: E402

import pseudolens  # noqa: E402
import pseudolens.spark  # noqa: E402
from spark import local_session, spark_groupby  # noqa: E402 (bench/spark.py, beside this file)

QIS = ["age", "sex", "zip3", "admit_date", "ward"]


def generated(spark, rows, partitions):
    """Hospital-like rows from their numbers alone: five QIs (90 x 2 x 1,000 x 3,650 x 20
    combinations, so that 10^8 rows are nearly all unique) and a diagnosis, every column text."""
    draw = lambda seed, n: F.pmod(F.xxhash64(F.col("id"), F.lit(seed)), F.lit(n))  # noqa: E731
    return spark.range(0, rows, numPartitions=partitions).select(
        draw(1, 90).cast("string").alias("age"),
        F.when(draw(2, 2) == 0, "F").otherwise("M").alias("sex"),
        F.lpad(draw(3, 1000).cast("string"), 3, "0").alias("zip3"),
        F.date_add(F.lit("2015-01-01").cast("date"), draw(4, 3650).cast("int")).cast("string").alias("admit_date"),
        F.concat(F.lit("W"), draw(5, 20).cast("string")).alias("ward"),
        F.concat(F.lit("D"), draw(6, 500).cast("string")).alias("diagnosis"),
    )


def jvm_heap(spark):
    """The JVM's heap limit and the peak of its old generation (what outlives a task), in
    bytes. In local mode this JVM is the driver and the executors at once."""
    jvm = spark.sparkContext._jvm
    pools = jvm.java.lang.management.ManagementFactory.getMemoryPoolMXBeans()
    old = max((p.getPeakUsage().getUsed() for p in pools if "Old Gen" in p.getName()), default=0)
    return jvm.java.lang.Runtime.getRuntime().maxMemory(), old


def rss_peak():
    """This process's peak resident set, in bytes (Linux reports kB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, required=True)
    ap.add_argument("--rows-per-partition", type=int, default=500_000)
    ap.add_argument("--check", action="store_true", help="Spark's own group-by on the same rows, answers compared")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    partitions = max(1, -(-args.rows // args.rows_per_partition))
    spark = local_session()
    df = generated(spark, args.rows, partitions)
    rss_before = rss_peak()
    start = time.perf_counter()
    parts = pseudolens.spark.class_parts(df, qi=QIS, partitions=partitions)
    parts_s = time.perf_counter() - start
    sizes = [len(data) for _, data in parts]
    start = time.perf_counter()
    settings = pseudolens.settings_json(QIS, None)
    whole = pseudolens.spark.merge_parts(pseudolens.ClassPart.from_settings_json(settings, parts.pop(0)[1]), parts, settings)
    merged_bytes = len(whole.to_bytes())
    report = whole.audit()
    driver_s = time.perf_counter() - start
    value = lambda name: report.metric(name)["value"]  # noqa: E731
    answer = {"k": value("k_anonymity"), "uniques": value("sample_uniques"), "classes": value("n_classes")}
    result = {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "rows": args.rows, "partitions": partitions, "qi": QIS, "master": "local[2]",
        "spark_driver_memory": spark.conf.get("spark.driver.memory", "1g (default)"),
        "rows_audited": report["input"]["rows_total"], "answer": answer,
        "class_parts_s": parts_s, "merge_and_audit_on_driver_s": driver_s,
        "bytes_to_driver": sum(sizes), "largest_part_bytes": max(sizes), "merged_part_bytes": merged_bytes,
        "driver_python_peak_rss_before": rss_before, "driver_python_peak_rss_after": rss_peak(),
        "jvm_heap_limit_and_old_gen_peak_bytes": jvm_heap(spark),
        "pyspark": spark.version, "pseudolens": pseudolens.__file__,
    }
    if args.check:
        start = time.perf_counter()
        result["spark_groupby"] = spark_groupby(df, QIS)
        result["spark_groupby_s"] = time.perf_counter() - start
        if result["spark_groupby"] != answer:
            sys.exit("the answers differ: %s against Spark's %s" % (answer, result["spark_groupby"]))
    result["load_average_at_end"] = os.getloadavg()
    spark.stop()
    with open(os.path.join(args.out, "spark-scale.json"), "w") as f:
        json.dump(result, f, indent=2)
    mb = lambda b: "%.1f MB" % (b / 1e6)  # noqa: E731
    print("rows %d in %d partitions (generated in Spark), QIs %s" % (args.rows, partitions, ",".join(QIS)))
    print("answer: %s%s" % (json.dumps(answer), "; Spark's group-by agrees (%.0f s)" % result["spark_groupby_s"] if args.check else ""))
    print("class parts (hash, repartition, parts): %.0f s; merge and audit on the driver: %.1f s" % (parts_s, driver_s))
    print("bytes to the driver: %s (largest part %s; merged %s)" % (mb(sum(sizes)), mb(max(sizes)), mb(merged_bytes)))
    limit, old = result["jvm_heap_limit_and_old_gen_peak_bytes"]
    print("driver Python peak RSS: %s before, %s after; the JVM (driver and local executors): heap limit %s, old generation's peak %s"
          % (mb(rss_before), mb(result["driver_python_peak_rss_after"]), mb(limit), mb(old)))


if __name__ == "__main__":
    main()
