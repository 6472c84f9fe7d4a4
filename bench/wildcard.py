"""`pseudolens audit --missing wildcard` against `--missing ordinary` on the same table with a
sensitive column (run by scripts/bench.sh --wildcard; a benchmark, not a test).

Generates (or reuses) an Adult-like table of 8 QIs and its sensitive column `income` with
shared/bench/gen.py, and a copy with 1 % of the QI cells blanked (deterministically), then times
the whole audit process for each policy, medians of RUNS, and prints the ratio.

    python3 bench/wildcard.py --rows 200000 --runs 5 --out bench-out \
        --cli target/release/pseudolens --gen ../shared/bench/gen.py
"""
import argparse
import os
import random
import statistics
import subprocess
import sys
import time


def table(gen, out, rows):
    """The generated table and its copy with blanks: (path, QI names, sensitive name) each."""
    plain = os.path.join(out, "wildcard-%d.csv" % rows)
    if not os.path.exists(plain):
        subprocess.run([sys.executable, gen, "--rows", str(rows), "--seed", "1", "--qis", "8", "--out", plain],
                       check=True, capture_output=True)
    with open(plain) as f:
        header = f.readline().rstrip("\n").split(",")
    qi, sensitive = header[1:9], header[-1]
    blanks = os.path.join(out, "wildcard-%d-blanks.csv" % rows)
    if not os.path.exists(blanks):
        rnd = random.Random(1)
        with open(plain) as f, open(blanks, "w") as g:
            g.write(f.readline())
            for line in f:
                cells = line.rstrip("\n").split(",")
                for a in range(1, 9):
                    if rnd.random() < 0.01:
                        cells[a] = ""
                g.write(",".join(cells) + "\n")
    return [(plain, qi, sensitive), (blanks, qi, sensitive)]


def run(cli, path, qi, sensitive, policy):
    start = time.perf_counter()
    subprocess.run([cli, "audit", path, "--qi", ",".join(qi), "--sensitive", sensitive, "--missing", policy],
                   check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=200000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", default="bench-out")
    ap.add_argument("--cli", default="target/release/pseudolens")
    ap.add_argument("--gen", required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    print("%-28s %12s %12s %7s" % ("table (%d rows)" % a.rows, "ordinary s", "wildcard s", "ratio"))
    for path, qi, sensitive in table(a.gen, a.out, a.rows):
        times = {"ordinary": [], "wildcard": []}
        for _ in range(a.runs):
            for policy in times:
                times[policy].append(run(a.cli, path, qi, sensitive, policy))
        o, w = statistics.median(times["ordinary"]), statistics.median(times["wildcard"])
        print("%-28s %12.3f %12.3f %7.2f" % (os.path.basename(path), o, w, w / o), flush=True)


if __name__ == "__main__":
    main()
