"""`pseudolens protect` against polars evaluating the same lattice node by node (run by
scripts/bench.sh; a benchmark, not a test). Issue 38's speed targets:

  - the full search on the Adult-like table of ROWS rows (shared/bench/gen.py, its first four
    QIs: age in bands of 5, 10, 20, and workclass, education, marital_status as (value, `*`);
    k 10, 1 % suppression; 40 nodes), the whole `pseudolens protect --json` process against
    the whole `bench/protect_polars.py` process (the same lattice, a group-by of the rows per
    node): target at most 0.2x;
  - applying and writing the best node's release (`--out`): the time from the search's end to
    the release's last write (the median of its modification time less the process's start in
    the `--out` runs, less the median of the search-only runs; the CLI then reads and audits the
    release, shown apart) against the first audit (`pseudolens audit` of the same file with the
    same QIs, whole process): target at most 1x. The CLI reads the QI columns alone for the
    search and writes the release while reading the file again, the unique id included;
  - ARX's Adult (shared/data/adult, 30,162 rows, 8 QIs with ARX's hierarchies, k 5, 1 %
    suppression; 6,480 nodes): the CLI's whole search (the page's figure needs the wasm build
    in a browser: not timed here), and polars's once, as a cross-check.

Each setting alternates run by run with the others (A B C D A B C D ...) after one untimed
warm-up, medians of RUNS. pseudolens and polars must agree on the best node (its levels and
records suppressed; classes, k and the loss too): a disagreement fails the bench (exit 1).
Prints one table and writes OUT/protect-bench.json. Runs under the virtual environment that
has polars.

    python bench/protect.py --table bench-out/adult-1000000.csv --runs 5 --out bench-out \
        --cli target/release/pseudolens --adult ../shared/data/adult
"""
import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import time

PEER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "protect_polars.py")
# The first four QIs of gen.py's adult schema (the table of `--qis 8` has them as its columns
# 2-5): age in bands, three categorical QIs with the default ladder (value, `*`).
QIS = ["age", "workclass", "education", "marital_status"]
SETTINGS = ["--bands", "age=5,10,20", "--k", "10", "--max-suppression", "0.01"]
# ARX's Adult: every column but the class attribute, each with ARX's hierarchy.
ADULT_QIS = ["sex", "age", "race", "marital-status", "education", "native-country", "workclass", "occupation"]
ADULT_SETTINGS = ["--k", "5", "--max-suppression", "0.01"]


def run_process(cmd, stdout=subprocess.DEVNULL):
    """Whole process, start to exit: wall seconds (exit on a failure)."""
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdout=stdout, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit("failed (%d): %s\n%s" % (proc.returncode, " ".join(cmd), proc.stderr.decode(errors="replace")))
    return wall


def run_out(cmd, release):
    """A `protect --out` process: (wall seconds, seconds to the release's last write, its
    modification time). (The CLI says "wrote" only after its audit of the release.)"""
    start, wall_start = time.perf_counter(), time.time()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit("failed (%d): %s\n%s" % (proc.returncode, " ".join(cmd), proc.stderr))
    return wall, os.stat(release).st_mtime_ns / 1e9 - wall_start


def json_of(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("failed (%d): %s\n%s" % (proc.returncode, " ".join(cmd), proc.stderr))
    return json.loads(proc.stdout)


def cli_best(result):
    """The best node of `pseudolens protect --json` (the metric `protect`, spec Sec 6)."""
    best = result["details"].get("best")
    if not best:
        return None
    return {"levels": best["levels"], "records_suppressed": best["records_suppressed"], "classes": best["classes"],
            "k": best["k"], "loss": best["loss"]}


def agree(name, cli, peer):
    """Both best nodes the same (levels, records suppressed, classes, k; the loss to 1e-9):
    the line to print, or exit 1 with both."""
    if cli is None and peer is None:
        sys.exit("%s: no node is feasible for either (the bench needs one: more rows)" % name)
    same = (cli is not None and peer is not None and cli["levels"] == peer["levels"]
            and all(cli[f] == peer[f] for f in ("records_suppressed", "classes", "k"))
            and abs(cli["loss"] - peer["loss"]) <= 1e-9)
    if not same:
        print("FAIL: %s: pseudolens and polars disagree on the best node\n  pseudolens %s\n  polars     %s"
              % (name, json.dumps(cli), json.dumps(peer)), flush=True)
        sys.exit(1)
    levels = ",".join("%s=%s" % kv for kv in cli["levels"].items())
    return "%s: the same best node (%s), records suppressed %d, classes %d, k %d, loss %.12f" % (
        name, levels, cli["records_suppressed"], cli["classes"], cli["k"], cli["loss"])


def median(xs):
    return statistics.median(xs)


def main():
    a = ARGS
    os.makedirs(a.out, exist_ok=True)
    load_at_start = os.getloadavg()
    table = a.table
    with open(table) as f:
        header = f.readline().strip().split(",")
    missing = [q for q in QIS if q not in header]
    if missing:
        sys.exit("%s has no column %s" % (table, missing))
    with open(table) as f:
        rows = sum(1 for _ in f) - 1
    release = os.path.join(a.out, "protect-release-%d.csv" % rows)
    protect = [a.cli, "protect", table, "--qi", ",".join(QIS), *SETTINGS, "--json"]
    peer = [sys.executable, PEER, table, "--qi", ",".join(QIS), *SETTINGS]
    print("table %s (%d rows); QIs %s; %s; %d runs each (medians)" % (table, rows, ",".join(QIS), " ".join(SETTINGS), a.runs), flush=True)

    # Warm-up and cross-check: the best node of each.
    cli_result = json_of(protect)
    peer_result = json_of(peer)
    check = agree("adult-like %d rows" % rows, cli_best(cli_result), peer_result["best"])
    print("  " + check, flush=True)
    protect_out = protect + ["--out", release]
    audit = [a.cli, "audit", table, "--qi", ",".join(QIS), "--json"]
    run_out(protect_out, release)
    run_process(audit)

    times = {"protect": [], "polars": [], "audit": [], "out": [], "out_written": []}
    for i in range(a.runs):
        times["protect"].append(run_process(protect))
        times["polars"].append(run_process(peer))
        times["audit"].append(run_process(audit))
        wall, wrote = run_out(protect_out, release)
        times["out"].append(wall)
        times["out_written"].append(wrote)
        print("  run %d: protect %.2f s, polars %.2f s, audit %.2f s, protect --out %.2f s (release written at %.2f s)"
              % (i + 1, times["protect"][-1], times["polars"][-1], times["audit"][-1], wall, wrote), flush=True)
    med = {k: median(v) for k, v in times.items()}
    release_bytes = os.path.getsize(release)
    os.remove(release)

    # ARX's Adult with ARX's hierarchies.
    adult = os.path.join(a.adult, "adult.csv")
    hierarchies = []
    for q in ADULT_QIS:
        hierarchies += ["--hierarchy", "%s=%s" % (q, os.path.join(a.adult, "adult_hierarchy_%s.csv" % q))]
    adult_cli = [a.cli, "protect", adult, "--qi", ",".join(ADULT_QIS), *hierarchies, *ADULT_SETTINGS, "--json"]
    adult_result = json_of(adult_cli)
    adult_times = [run_process(adult_cli) for _ in range(a.runs)]
    start = time.perf_counter()
    adult_peer = json_of([sys.executable, PEER, adult, "--delimiter", ";", "--qi", ",".join(ADULT_QIS), *hierarchies, *ADULT_SETTINGS])
    adult_peer_s = time.perf_counter() - start
    adult_check = agree("ARX's adult", cli_best(adult_result), adult_peer["best"])
    d = adult_result["details"]

    apply_write = med["out_written"] - med["protect"]
    result = {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "machine": {"cores": os.cpu_count(), "load_average_at_start": load_at_start, "load_average_at_end": os.getloadavg()},
        "pseudolens_version": subprocess.run([a.cli, "--version"], capture_output=True, text=True).stdout.strip(),
        "polars_version": peer_result["polars"], "runs": a.runs,
        "table": {"path": table, "rows": rows, "qi": QIS, "settings": SETTINGS, "nodes": peer_result["nodes_total"],
                  "feasible": peer_result["nodes_feasible"], "release_bytes": release_bytes},
        "medians_s": med, "runs_s": times,
        "polars_inside_s": {"read": peer_result["read_s"], "search": peer_result["search_s"]},
        "search_ratio": med["protect"] / med["polars"],
        "apply_write_s": apply_write, "apply_write_ratio": apply_write / med["audit"],
        "release_audit_s": med["out"] - med["out_written"],
        "adult": {"qi": ADULT_QIS, "settings": ADULT_SETTINGS, "nodes": d["nodes_total"], "evaluated": d["nodes_evaluated"],
                  "feasible": d["nodes_feasible"], "cli_s": median(adult_times), "runs_s": adult_times,
                  "polars_once_s": adult_peer_s, "polars_inside_s": {"read": adult_peer["read_s"], "search": adult_peer["search_s"]}},
        "checks": [check, adult_check],
    }
    with open(os.path.join(a.out, "protect-bench.json"), "w") as f:
        json.dump(result, f, indent=2)
    print_table(result)


def print_table(r):
    m, ad = r["medians_s"], r["adult"]
    n = "%dk" % (r["table"]["rows"] // 1000) if r["table"]["rows"] % 1000 == 0 else str(r["table"]["rows"])
    rows = [
        ("protect search, adult-like %s, 4 QIs (%d nodes)" % (n, r["table"]["nodes"]),
         "%.2f s" % m["protect"], "polars %.2f s" % m["polars"], "%.2fx" % r["search_ratio"], "at most 0.2x"),
        ("apply + write %s rows (--out)" % n, "%.2f s" % r["apply_write_s"], "first audit %.2f s" % m["audit"],
         "%.2fx" % r["apply_write_ratio"], "at most 1x"),
        ("  protect --out, whole (search, write, audit of the release)", "%.2f s" % m["out"], "", "", ""),
    ] + [
        ("ARX's adult, 8 QIs, hierarchies (%d nodes, %d evaluated)" % (ad["nodes"], ad["evaluated"]),
         "%.2f s" % ad["cli_s"], "polars %.2f s (once)" % ad["polars_once_s"], "", "CLI; the page's target 1 s"),
    ]
    w = max(len(x[0]) for x in rows) + 3
    print()
    print("%-*s%-12s%-24s%-8s%s" % (w, "setting", "pseudolens", "peer", "ratio", "target"))
    for x in rows:
        print("%-*s%-12s%-24s%-8s%s" % (w, *x))
    print()
    print("protect: %s %s; ARX's adult: k 5, 1 %% suppression" % (",".join(r["table"]["qi"]), " ".join(r["table"]["settings"])))
    print("whole processes (pseudolens at every core; polars %s, its own threads; the peer read %.2f s, its %d group-bys %.2f s);"
          % (r["polars_version"], r["polars_inside_s"]["read"], r["table"]["nodes"], r["polars_inside_s"]["search"]))
    print("apply + write = the --out runs' time to the release's last write (its modification time) less the search-only "
          "runs' time; then the CLI reads and audits the release: %.2f s" % r["release_audit_s"])
    for c in r["checks"]:
        print("cross-check: " + c)
    mc = r["machine"]
    print("%d cores; load average (1 min) %.1f at the start, %.1f at the end; figures: %s" % (
        mc["cores"], mc["load_average_at_start"][0], mc["load_average_at_end"][0], os.path.join(ARGS.out, "protect-bench.json")))


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--table", required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", required=True)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--adult", required=True)
    ARGS = ap.parse_args()
    main()
