"""pseudolens CLI against DuckDB native on the same generated tables (run by scripts/bench.sh).

Generates (or reuses) an Adult-like and a hospital table with shared/bench/gen.py, then times
  - the whole `pseudolens audit` process (start to exit), DuckDB's group-by of the same
    quasi-identifiers and polars's lazy group-by of them (`scan_csv(infer_schema=False)`, every
    column as text), 2 threads and 1 thread, the three alternating run by run, medians;
  - `pseudolens profile` (ingest + column profile) for MB/s per core, if the CLI has it;
  - `pseudolens bench reaudit` (a second QI set on the retained table), if the CLI has it;
and prints one table of the medians and ratios, and writes the same figures to OUT/bench.json.
Peak memory is `/usr/bin/time`'s maximum resident set of one run (its own fork keeps the child
clean: a process started straight from this Python inherits the parent's resident set in that
figure). Runs under the virtual environment that has duckdb and polars; polars runs in a child
process per thread count (its pool's size is fixed when it is imported), timed inside it.

    python compare.py --rows 1000000 --out bench-out --cli target/release/pseudolens --gen GEN.py
"""
import argparse
import datetime
import importlib.util
import json
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import time

import duckdb

THREADS = (2, 1)
TIME = "/usr/bin/time"
# The hospital table's second sensitive column. gen.py writes the schema's columns after the
# QIs only when they are asked for, so the table is generated with it listed after the 5 QIs.
HOSPITAL_SA2 = "discharge"
HOSPITAL_QIS = 5


# ------------------------------------------------------------------------------ tables
def generate(gen, out_dir, name, gen_args):
    """Runs gen.py once for these arguments; reuses the file (and its printed line) after."""
    path = os.path.join(out_dir, name)
    args = [sys.executable, gen] + gen_args + ["--out", path]
    stamp = path + ".gen.json"
    if os.path.exists(path) and os.path.exists(stamp):
        with open(stamp) as f:
            saved = json.load(f)
        if saved.get("args") == gen_args and saved.get("bytes") == os.path.getsize(path):
            print("reusing %s" % saved["line"], flush=True)
            # The file's own path: a stamp written elsewhere (by scripts/bench.sh) names it as seen from there.
            return dict(parse_gen_line(saved["line"]), path=path)
    print("generating %s ..." % path, flush=True)
    line = subprocess.run(args, check=True, capture_output=True, text=True).stdout.strip()
    print(line, flush=True)
    info = parse_gen_line(line)
    with open(stamp, "w") as f:
        json.dump({"args": gen_args, "line": line, "bytes": info["bytes"]}, f)
    return info


def parse_gen_line(line):
    """'PATH rows=N bytes=N MB=X qi=a,b sensitive=c' -> dict."""
    fields = dict(re.findall(r" (\w+)=(\S+)", line))
    return {"path": line.split(" rows=")[0], "rows": int(fields["rows"]),
            "bytes": int(fields["bytes"]), "qi": fields["qi"].split(","),
            "sensitive": fields["sensitive"]}


def schema_columns(gen, schema):
    """The QI names of a gen.py schema, in order (gen.py imported, not run)."""
    spec = importlib.util.spec_from_file_location("gen", gen)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return [name for name, _ in module.SCHEMAS[schema][0]]


def header(path):
    with open(path) as f:
        return f.readline().strip().split(",")


# ------------------------------------------------------------------------------ timing
def run_process(cmd, stdout=subprocess.DEVNULL):
    """Whole process, start to exit: (wall s, cpu s)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.PIPE)
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit("failed (%d): %s\n%s" % (code, " ".join(cmd), err.decode(errors="replace")))
    return wall, usage.ru_utime + usage.ru_stime


def peak_mb(cmd, stdout=subprocess.DEVNULL):
    """One run under /usr/bin/time: the process's peak resident memory in MB (None without it)."""
    if not os.access(TIME, os.X_OK):
        run_process(cmd, stdout)
        return None
    out = os.path.join(ARGS.out, "peak.txt")
    run_process([TIME, "-f", "%M", "-o", out] + cmd, stdout)
    with open(out) as f:
        return int(f.read().split()[-1]) * 1024 / 1e6


def duckdb_once(sql, threads):
    """One DuckDB run: a fresh in-memory connection, SET threads, the query, its result.
    Timed inside Python from connect to result (the interpreter and the import are not)."""
    start = time.perf_counter()
    con = duckdb.connect()
    con.execute("SET threads=%d" % threads)
    result = con.execute(sql).fetchall()
    con.close()
    return time.perf_counter() - start, result[0][0]


def read_csv(path):
    # Every column as text, as pseudolens reads it: no type inference in either engine. The
    # reader still detects the dialect itself, as pseudolens does.
    return "read_csv('%s', header=true, all_varchar=true)" % path.replace("'", "''")


def adult_sql(path, qis):
    cols = ", ".join(qis)
    return "SELECT count(*) FROM (SELECT %s, count(*) FROM %s GROUP BY %s)" % (cols, read_csv(path), cols)


def hospital_sql(path, qis, sas):
    # pseudolens's sufficient statistics: class sizes and per-(class, SA value) counts of each SA.
    cols = ", ".join(qis)
    sets = ", ".join(["(%s)" % cols] + ["(%s, %s)" % (cols, sa) for sa in sas])
    return ("SELECT count(*) FROM (SELECT %s, %s, count(*) FROM %s GROUP BY GROUPING SETS (%s))"
            % (cols, ", ".join(sas), read_csv(path), sets))


def polars_groups(path, qis, sas):
    """polars's lazy plan of the same group-bys: the QIs' classes, and with sensitive columns
    the per-(class, SA value) counts of each, all from one scan (collect_all shares it)."""
    import polars as pl
    scan = pl.scan_csv(path, infer_schema=False)
    return [scan.group_by(qis).len()] + [scan.group_by(qis + [sa]).len() for sa in sas]


def polars_serve(path, qis, sas):
    """Child process: for each line read, one run of the plan; prints its time and class count."""
    import polars as pl
    for _ in sys.stdin:
        start = time.perf_counter()
        frames = pl.collect_all(polars_groups(path, qis, sas))
        print(json.dumps([time.perf_counter() - start, frames[0].height]), flush=True)


class Polars:
    """A polars child process with a pool of `threads`; `once()` times one run in it."""

    def __init__(self, path, qis, sas, threads):
        env = dict(os.environ, POLARS_MAX_THREADS=str(threads))
        self.proc = subprocess.Popen([sys.executable, __file__, "--polars-serve", path, json.dumps(qis), json.dumps(sas)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)

    def once(self):
        self.proc.stdin.write("go\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def median(xs):
    return statistics.median(xs) if xs else None


def paired(cli_cmd, sql, groups, threads, runs):
    """pseudolens, DuckDB and polars (`groups`: the table's path, QIs and SAs) alternating
    (A B C A B C ...) after one untimed warm-up of each, so a drift of the machine's speed hits
    all three. The warm-up's report is kept for a cross-check."""
    polars = Polars(*groups, threads)
    warm = os.path.join(ARGS.out, "last-report.json")
    with open(warm, "wb") as f:
        peak = peak_mb(cli_cmd, stdout=f)
    _, duck_value = duckdb_once(sql, threads)
    _, polars_value = polars.once()
    cli, duck, pol = [], [], []
    for _ in range(runs):
        cli.append(run_process(cli_cmd))
        duck.append(duckdb_once(sql, threads)[0])
        pol.append(polars.once()[0])
    polars.close()
    wall, cpu = zip(*cli)
    return {"pseudolens_s": median(wall), "pseudolens_cpu_s": median(cpu),
            "pseudolens_peak_mb": peak, "duckdb_s": median(duck), "polars_s": median(pol),
            "runs_pseudolens_s": wall, "runs_duckdb_s": duck, "runs_polars_s": pol,
            "duckdb_value": duck_value, "polars_value": polars_value, "report": warm}


def duckdb_only(sql, threads, runs):
    duckdb_once(sql, threads)
    return {"pseudolens_s": None, "duckdb_s": median([duckdb_once(sql, threads)[0] for _ in range(runs)])}


def duckdb_peak(sql, threads):
    """DuckDB's peak memory: one run in a fresh Python process, started through /usr/bin/time
    so that its own ru_maxrss is its own."""
    cmd = [sys.executable, __file__, "--duckdb-peak", sql, str(threads)]
    if os.access(TIME, os.X_OK):
        cmd = [TIME, "-f", "", "-o", os.devnull] + cmd
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def duckdb_peak_child(sql, threads):
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    duckdb_once(sql, threads)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"peak_mb": peak / 1e6, "after_import_mb": base / 1e6}))


# ------------------------------------------------------------------------------ the CLI
def cli_help(*args):
    return subprocess.run([ARGS.cli, *args, "--help"], capture_output=True, text=True).stdout


def has_subcommand(help_text, name):
    return re.search(r"^\s+%s\s" % re.escape(name), help_text, re.M) is not None


def metric(report_path, metric_id):
    try:
        with open(report_path) as f:
            report = json.load(f)
        return next(m["value"] for m in report["metrics"] if m["id"] == metric_id)
    except (OSError, ValueError, StopIteration, KeyError):
        return None


def short(n):
    return "%dM" % (n // 10**6) if n % 10**6 == 0 else "%dk" % (n // 1000) if n % 1000 == 0 else str(n)


def main():
    os.makedirs(ARGS.out, exist_ok=True)
    load_at_start = os.getloadavg()
    rows = ARGS.rows
    adult = generate(ARGS.gen, ARGS.out, "adult-%d.csv" % rows,
                     ["--rows", str(rows), "--seed", "1", "--qis", "8"])
    hosp_cols = schema_columns(ARGS.gen, "hospital")
    hospital = generate(ARGS.gen, ARGS.out, "hospital-%d.csv" % rows,
                        ["--schema", "hospital", "--rows", str(rows), "--seed", "1", "--qis",
                         ",".join(hosp_cols[:HOSPITAL_QIS] + [HOSPITAL_SA2])])
    hosp_qis = [q for q in hospital["qi"] if q != HOSPITAL_SA2]
    hosp_sas = [hospital["sensitive"], HOSPITAL_SA2]
    # The re-audit's second set: the first five QIs with the attributes the first set left out
    # (capital gain and loss, and income, the first audit's sensitive column) in place of race,
    # sex and native country. Not the unique id, and not fnlwgt: the census's sampling weight
    # (a weight column, nearly unique per row), which no attacker knows.
    others = [c for c in header(adult["path"]) if c not in adult["qi"] + ["id", "fnlwgt"]]
    then_qi = adult["qi"][:8 - len(others)] + others

    audit_help = cli_help("audit")
    threads_flag = "--threads" in audit_help
    print("pseudolens: %s; DuckDB %s; %d runs each (medians)" % (
        "--threads 2 and 1" if threads_flag else "no --threads flag yet (one run per setting)",
        duckdb.__version__, ARGS.runs), flush=True)

    settings = []
    cases = [
        ("adult %s, 8 QIs" % short(rows), adult,
         ["--qi", ",".join(adult["qi"])], adult_sql(adult["path"], adult["qi"]), (adult["qi"], [])),
        ("hospital %s, 5 QIs + 2 SAs" % short(rows), hospital,
         ["--qi", ",".join(hosp_qis), "--sensitive", ",".join(hosp_sas)],
         hospital_sql(hospital["path"], hosp_qis, hosp_sas), (hosp_qis, hosp_sas)),
    ]
    for label, table, flags, sql, (qis, sas) in cases:
        base = [ARGS.cli, "audit", table["path"], *flags, "--json"]
        for threads in THREADS:
            name = "%s, %d thread%s" % (label, threads, "s" if threads > 1 else "")
            if threads_flag:
                s = paired(base + ["--threads", str(threads)], sql, (table["path"], qis, sas), threads, ARGS.runs)
            elif threads == 1:
                name += " (no --threads flag yet)"
                s = paired(base, sql, (table["path"], qis, sas), threads, ARGS.runs)
            else:
                s = duckdb_only(sql, threads, ARGS.runs)
            s.update(setting=name, threads=threads, bytes=table["bytes"], rows=table["rows"])
            if s.get("report") and table is adult:
                classes = metric(s["report"], "n_classes")
                s["check"] = "n_classes %s = DuckDB's %s = polars's %s" % (classes, s["duckdb_value"], s["polars_value"])
                if not classes == s["duckdb_value"] == s["polars_value"]:
                    print("WARNING: pseudolens n_classes %s, DuckDB's class count %s, polars's %s" % (
                        classes, s["duckdb_value"], s["polars_value"]), flush=True)
            s.pop("report", None)
            print("  %s: pseudolens %s, DuckDB %s, polars %s" % (
                name, fmt_s(s["pseudolens_s"]), fmt_s(s["duckdb_s"]), fmt_s(s.get("polars_s"))), flush=True)
            settings.append(s)

    # SUDA (issue 16): the adult audit with --suda against the same audit without it, the two
    # alternating, 2 threads; target: at most 1.5x the identity suite's time (issue 40).
    suda = None
    if "--suda" in audit_help and threads_flag:
        base = [ARGS.cli, "audit", adult["path"], "--qi", ",".join(adult["qi"]), "--json", "--threads", "2"]
        run_process(base + ["--suda"])
        plain, with_suda = [], []
        for _ in range(ARGS.runs):
            plain.append(run_process(base)[0])
            with_suda.append(run_process(base + ["--suda"])[0])
        suda = {"identity_s": median(plain), "suda_s": median(with_suda), "runs_identity_s": plain, "runs_suda_s": with_suda}
        suda["ratio"] = suda["suda_s"] / suda["identity_s"]
        print("  adult %s, 8 QIs, --suda, 2 threads: %s (without --suda %s, %.2fx)" % (
            short(rows), fmt_s(suda["suda_s"]), fmt_s(suda["identity_s"]), suda["ratio"]), flush=True)

    duck_peak = duckdb_peak(adult_sql(adult["path"], adult["qi"]), THREADS[0])

    profile = None
    if has_subcommand(cli_help(), "profile"):
        cmd = [ARGS.cli, "profile", adult["path"], "--json"]
        one = "--threads" in cli_help("profile")
        if one:
            cmd += ["--threads", "1"]
        peak = peak_mb(cmd)
        walls, cpus = zip(*[run_process(cmd) for _ in range(ARGS.runs)])
        profile = {"setting": "ingest + profile (adult)", "threads": 1 if one else "default",
                   "seconds": median(walls), "peak_mb": peak, "cpu_seconds": median(cpus),
                   "mb_per_s": adult["bytes"] / 1e6 / median(walls),
                   # per core: at --threads 1 the wall time; without the flag the CPU time
                   # (user + system) the process used
                   "mb_per_s_per_core": adult["bytes"] / 1e6 / (median(walls) if one else median(cpus))}

    reaudit = None
    if has_subcommand(cli_help("bench"), "reaudit"):
        cmd = [ARGS.cli, "bench", "reaudit", "--file", adult["path"], "--qi", ",".join(adult["qi"]),
               "--then-qi", ",".join(then_qi)]
        lines = []
        for _ in range(ARGS.runs):
            out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
            lines.append(json.loads([l for l in out.splitlines() if l.startswith("{")][-1]))
        reaudit = {"setting": "re-audit, 8 other QIs, retained table", "then_qi": then_qi,
                   "first_s": median([l["first_s"] for l in lines]),
                   "reaudit_s": median([l["reaudit_s"] for l in lines]), "rows": lines[0].get("rows")}

    result = {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "machine": {"cores": os.cpu_count(), "platform": platform.platform(),
                    "load_average_at_start": load_at_start, "load_average_at_end": os.getloadavg()},
        "duckdb_version": duckdb.__version__, "runs": ARGS.runs,
        "pseudolens_version": subprocess.run([ARGS.cli, "--version"], capture_output=True,
                                             text=True).stdout.strip(),
        "tables": {"adult": adult, "hospital": dict(hospital, qi=hosp_qis, sensitive=hosp_sas)},
        "threads_flag": threads_flag, "settings": settings, "duckdb_peak": duck_peak,
        "profile": profile, "reaudit": reaudit, "suda": suda,
    }
    for s in settings:
        s["ratio"] = s["pseudolens_s"] / s["duckdb_s"] if s["pseudolens_s"] else None
        s["ratio_polars"] = s["pseudolens_s"] / s["polars_s"] if s["pseudolens_s"] and s.get("polars_s") else None
    with open(os.path.join(ARGS.out, "bench.json"), "w") as f:
        json.dump(result, f, indent=2)
    print_table(result)


def fmt_s(x):
    return "-" if x is None else "%.2f s" % x


def print_table(r):
    w = max(len(s["setting"]) for s in r["settings"]) + 3
    print()
    print("%-*s%-12s%-15s%-8s%-10s%-9s%s" % (w, "setting", "pseudolens", "DuckDB native", "ratio", "polars", "ratio",
                                          "pseudolens peak"))
    for s in r["settings"]:
        print("%-*s%-12s%-15s%-8s%-10s%-9s%s" % (
            w, s["setting"], fmt_s(s["pseudolens_s"]), fmt_s(s["duckdb_s"]),
            "-" if s["ratio"] is None else "%.2fx" % s["ratio"], fmt_s(s.get("polars_s")),
            "-" if s.get("ratio_polars") is None else "%.2fx" % s["ratio_polars"],
            "-" if s.get("pseudolens_peak_mb") is None else "%.0f MB" % s["pseudolens_peak_mb"]))
    p = r["profile"]
    print("%-*s%s" % (w, "ingest + profile (adult)", "profile subcommand: not available yet" if p is None else
                      "%.0f MB/s per core (%s)" % (p["mb_per_s_per_core"], "--threads 1" if p["threads"] == 1
                                                    else "%.0f MB/s wall, per core from CPU time" % p["mb_per_s"])))
    a = r["reaudit"]
    print("%-*s%s" % (w, "re-audit, 8 other QIs, retained table", "re-audit: not available yet" if a is None else
                      "%.2f s (first audit %.2f s)" % (a["reaudit_s"], a["first_s"])))
    su = r.get("suda")
    print("%-*s%s" % (w, "adult + SUDA (--suda), 2 threads", "--suda: not available" if su is None else
                      "%.2f s (without --suda %.2f s: %.2fx; target at most 1.5x, issue 40)" % (su["suda_s"], su["identity_s"], su["ratio"])))
    d = r["duckdb_peak"]
    t = r["tables"]
    print()
    print("adult: QIs %s (sensitive %s, not passed); hospital: QIs %s, SAs %s"
          % (",".join(t["adult"]["qi"]), t["adult"]["sensitive"], ",".join(t["hospital"]["qi"]),
             " + ".join(t["hospital"]["sensitive"])))
    if a is not None:
        print("re-audit: then %s" % ",".join(a["then_qi"]))
    print("DuckDB peak memory, adult query, %d threads, one run: %.0f MB for the process "
          "(Python with duckdb imported: %.0f MB before the query)" % (THREADS[0], d["peak_mb"], d["after_import_mb"]))
    print("ratio = pseudolens / peer (the whole pseudolens process vs DuckDB's connect-to-result and polars's "
          "collect); both peers read every column as text (all_varchar, infer_schema=False), as pseudolens does.")
    print("issue 40's targets (2 threads, adult): at most 0.6x DuckDB and at most 1x polars.")
    checks = [s["check"] for s in r["settings"] if s.get("check")]
    if checks:
        print("cross-check: " + "; ".join(sorted(set(checks))))
    m = r["machine"]
    print("%d cores; load average (1 min) %.1f at the start, %.1f at the end; figures: %s" % (
        m["cores"], m["load_average_at_start"][0], m["load_average_at_end"][0],
        os.path.join(ARGS.out, "bench.json")))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--duckdb-peak":
        duckdb_peak_child(sys.argv[2], int(sys.argv[3]))
        sys.exit(0)
    if len(sys.argv) == 5 and sys.argv[1] == "--polars-serve":
        polars_serve(sys.argv[2], json.loads(sys.argv[3]), json.loads(sys.argv[4]))
        sys.exit(0)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", required=True)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--gen", required=True)
    ARGS = ap.parse_args()
    main()
