"""pseudolens on Spark against Spark's own group-by, in one SparkSession (issue 40, run by
scripts/bench.sh --spark): on the same DataFrame (a CSV read with every column as text, as the
audit reads it), in local[2],
  - Spark: `groupBy(QIs).count()` and the aggregation of k, the sample uniques and the class
    count over it, collected;
  - `pseudolens.spark.audit(df, qi=QIs)` in table mode (the partial tables merged on the
    driver) and in class mode (`mode="classes"`: the rows repartitioned by class), each the
    whole identity suite;
one untimed warm-up of each (the first run starts Spark's Python workers and JIT), then the
three alternating run by run, medians. Both answers must agree (k, uniques, classes), else the
bench fails. Prints a table and writes OUT/spark-bench.json. Runs under a virtual environment
with pyspark and a release build of the package (`pip install ./python`).

    python bench/spark.py --table bench-out/hospital-1000000.csv --qi age,sex,zip3,admit_date,ward --out bench-out
"""
import argparse
import datetime
import json
import os
import statistics
import sys
import time

os.environ["PYSPARK_PYTHON"] = os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
from pyspark.sql import SparkSession  # noqa: E402
from pyspark.sql import functions as F  # noqa: E402

import pseudolens  # noqa: E402
import pseudolens.spark  # noqa: E402


def local_session():
    """The benches' SparkSession: local[2], no UI, on the loopback address only."""
    spark = (
        SparkSession.builder.master("local[2]")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def spark_groupby(df, qis):
    """Spark's own answer: the classes, then k, uniques and their count, collected."""
    row = (df.groupBy(*qis).count()
           .agg(F.min("count").alias("k"), F.sum((F.col("count") == 1).cast("long")).alias("uniques"),
                F.count("*").alias("classes"))
           .collect()[0])
    return {"k": row["k"], "uniques": row["uniques"], "classes": row["classes"]}


def pseudolens_audit(df, qis, mode, partitions):
    report = pseudolens.spark.audit(df, qi=qis, mode=mode, partitions=partitions)
    value = lambda name: report.metric(name)["value"]  # noqa: E731
    return {"k": value("k_anonymity"), "uniques": value("sample_uniques"), "classes": value("n_classes")}


def timed(f):
    start = time.perf_counter()
    answer = f()
    return time.perf_counter() - start, answer


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--table", required=True)
    ap.add_argument("--qi", required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--partitions", type=int, default=8, help="class mode's partitions")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    qis = args.qi.split(",")
    spark = local_session()
    df = spark.read.csv(args.table, header=True, inferSchema=False)
    cases = {
        "Spark groupBy(QIs).count() + k, uniques": lambda: spark_groupby(df, qis),
        "pseudolens.spark.audit, table mode": lambda: pseudolens_audit(df, qis, "table", args.partitions),
        "pseudolens.spark.audit, class mode": lambda: pseudolens_audit(df, qis, "classes", args.partitions),
    }
    cold = {name: timed(f) for name, f in cases.items()}
    answers = {name: answer for name, (_, answer) in cold.items()}
    if len({json.dumps(a, sort_keys=True) for a in answers.values()}) != 1:
        sys.exit("the answers differ: %s" % json.dumps(answers))
    runs = {name: [] for name in cases}
    for _ in range(args.runs):
        for name, f in cases.items():
            runs[name].append(timed(f)[0])
    spark_s = statistics.median(runs[next(iter(cases))])
    rows = [{"setting": name, "cold_s": cold[name][0], "median_s": statistics.median(runs[name]), "runs_s": runs[name],
             "ratio": statistics.median(runs[name]) / spark_s} for name in cases]
    result = {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "table": args.table, "bytes": os.path.getsize(args.table), "qi": qis, "runs": args.runs,
        "master": "local[2]", "class_partitions": args.partitions, "answer": answers[next(iter(cases))],
        "pyspark": spark.version, "pseudolens": pseudolens.__file__,
        "load_average_at_end": os.getloadavg(), "settings": rows,
    }
    spark.stop()
    with open(os.path.join(args.out, "spark-bench.json"), "w") as f:
        json.dump(result, f, indent=2)
    w = max(len(r["setting"]) for r in rows) + 3
    print("%-*s%-12s%-12s%s" % (w, "setting", "cold", "warm", "ratio to Spark's group-by (warm)"))
    for r in rows:
        print("%-*s%-12s%-12s%.2fx" % (w, r["setting"], "%.2f s" % r["cold_s"], "%.2f s" % r["median_s"], r["ratio"]))
    print("answer (all three): %s; %s, QIs %s; medians of %d after one cold run each; issue 40's target: at most 1.2x"
          % (json.dumps(result["answer"]), args.table, ",".join(qis), args.runs))


if __name__ == "__main__":
    main()
