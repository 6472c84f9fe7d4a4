"""The synthetic measures against their oracles, sdnist 2.4 and sdmetrics 0.32.0, in one run
(issue 39; run by scripts/bench.sh --synthetic in .venv-sdnist; a benchmark, not a test).

Tables: three Adult-like tables from shared/bench/gen.py (seeds 1, 2, 3: the original O, the
release P, the holdout H), their 10 QI columns, every label coded as an integer (sdnist's
tables are integer codes); 100k rows each for k-marginal, unique exact matches, apparent match,
pMSE and correlations, their first 10k rows for DCR and CAP (SDMetrics' DCR is quadratic).

Ours: `pseudolens bench synthetic`, each measure computed alone in-process on the tables read
into memory once beforehand, as the oracles' DataFrames are, and their columns joined in one
value space once (`joined`, the work every measure shares in an audit; its own row in the
table, and the ratio with it added is printed too). The k-marginal includes its sampling-equivalent baseline (Sec 2.5) on both
sides. Theirs: each oracle call timed
in-process after pandas read the CSVs, as synthetic.md Sec 14 calls it. Medians of RUNS
(PEER_RUNS for the peers' quadratic DCR); the ratio is ours / theirs.

    .venv-sdnist/bin/python bench/synthetic.py --rows 100000 --runs 5 --out bench-out \
        --cli target/release/pseudolens --gen ../shared/bench/gen.py
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import sdnist.report  # noqa: F401  (first: sdnist.metrics.kmarginal has a circular import)
import pandas as pd

COLUMNS = ["age", "workclass", "education", "marital_status", "occupation", "race", "sex", "native_country", "relationship", "hours_per_week"]
NUMERIC = ["age", "hours_per_week"]
QUASI = ["sex", "race", "marital_status", "relationship"]
SENSITIVE = ["occupation"]
BIG = ["k_marginal", "unique_exact_matches", "apparent_match", "pmse", "correlation_difference"]
SMALL = ["dcr_baseline_protection", "dcr_overfitting_protection", "disclosure_protection"]


def tables(gen, out, rows):
    """O, P and H with rows and with their first 10k rows, coded: paths by size and name."""
    raw = {}
    for name, seed in (("o", 1), ("p", 2), ("h", 3)):
        path = os.path.join(out, f"synthetic-raw-{name}-{rows}.csv")
        if not os.path.exists(path):
            subprocess.run([sys.executable, gen, "--rows", str(rows), "--seed", str(seed), "--qis", "10", "--out", path], check=True, capture_output=True)
        raw[name] = pd.read_csv(path, usecols=COLUMNS, dtype=str, keep_default_na=False)[COLUMNS]
    # One code per label over the three tables (sorted), as synthetic.md Sec 1.4 ranks them.
    for c in COLUMNS:
        if c in NUMERIC:
            continue
        labels = sorted(set().union(*(set(t[c]) for t in raw.values())))
        code = {v: i for i, v in enumerate(labels)}
        for t in raw.values():
            t[c] = t[c].map(code)
    paths = {}
    for size in (rows, min(rows, 10000)):
        for name, t in raw.items():
            path = os.path.join(out, f"synthetic-{name}-{size}.csv")
            t.head(size).to_csv(path, index=False)
            paths.setdefault(size, {})[name] = path
    return paths


def settings(out):
    path = os.path.join(out, "synthetic-settings.json")
    kinds = {c: {"kind": "numeric" if c in NUMERIC else "categorical"} for c in COLUMNS}
    # The oracles compute no permutation null (a pseudolens extension, Sec 5.4): none here.
    doc = {"quasi_identifiers": QUASI, "attributes": kinds, "synthetic": {"cap_known": QUASI, "cap_sensitive": SENSITIVE, "pmse_null_perms": 0}}
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def ours(cli, paths, settings_path, measures, runs):
    cmd = [cli, "bench", "synthetic", "--release", paths["p"], "--original", paths["o"], "--holdout", paths["h"],
           "--settings", settings_path, "--measures", ",".join(measures), "--runs", str(runs)]
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)


def timed(fn, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def theirs(paths, measure):
    """The oracle call of `measure` on the tables at `paths` (synthetic.md Sec 14)."""
    o, p, h = (pd.read_csv(paths[n]) for n in "oph")
    if measure == "k_marginal":
        from sdnist.metrics.kmarginal import KMarginal
        from sdnist.report.dataset.binning import add_bin_for_NA, percentile_rank_synthetic, percentile_rank_target

        def run():
            ob = add_bin_for_NA(percentile_rank_target(o.copy(), NUMERIC), o, NUMERIC)
            pb = add_bin_for_NA(percentile_rank_synthetic(p.copy(), o, ob, NUMERIC), p, NUMERIC)
            KMarginal(ob, pb).compute_score()
            # The sampling-equivalent of SDNist's report (kmarginal_subsamples), which the
            # k_marginal measure includes: 11 samples of O scored against O.
            for f in [1, 5] + [i * 10 for i in range(1, 10)]:
                KMarginal(ob, ob.sample(frac=f * 0.01)).compute_score()
        return run
    if measure == "unique_exact_matches":
        from sdnist.metrics.unique_exact_matches import unique_exact_matches
        return lambda: unique_exact_matches(o, p)
    if measure == "apparent_match":
        from sdnist.metrics.apparent_match_dist import cellchange
        return lambda: cellchange(p, o, quasi=QUASI, exclude_cols=[])
    if measure == "pmse":
        import sklearn.tree

        def run():
            n = pd.concat([o.assign(i=0), p.assign(i=1)]).reset_index(drop=True)
            x = n[COLUMNS].values
            pr = sklearn.tree.DecisionTreeClassifier(max_depth=6, random_state=0).fit(x, n.i.values).predict_proba(x)[:, 1]
            ((pr - len(p) / len(n)) ** 2).mean()
        return run
    if measure == "correlation_difference":
        from sdnist.metrics.pearson_correlation import PearsonCorrelationDifference
        from sdnist.report.plots.correlation import correlation_difference

        def run():
            PearsonCorrelationDifference(o, p, COLUMNS).compute()
            correlation_difference(p, o, COLUMNS)
        return run
    md = {"columns": {c: {"sdtype": "numerical" if c in NUMERIC else "categorical"} for c in COLUMNS}}
    from sdmetrics.single_table import DCRBaselineProtection, DCROverfittingProtection, DisclosureProtection
    if measure == "dcr_baseline_protection":
        return lambda: DCRBaselineProtection.compute_breakdown(o, p, md, None, num_rows_subsample=None, num_iterations=1)
    if measure == "dcr_overfitting_protection":
        return lambda: DCROverfittingProtection.compute_breakdown(o, p, h, md, None)
    if measure == "disclosure_protection":
        return lambda: DisclosureProtection.compute_breakdown(o, p, known_column_names=QUASI, sensitive_column_names=SENSITIVE,
                                                              computation_method="cap", continuous_column_names=None, num_discrete_bins=10)
    raise ValueError(measure)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=100000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--peer-runs", type=int, default=None, help="runs of the peers' DCR (default: --runs)")
    ap.add_argument("--measures", default=",".join(BIG + SMALL))
    ap.add_argument("--out", default="bench-out")
    ap.add_argument("--cli", default="target/release/pseudolens")
    ap.add_argument("--gen", required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    paths = tables(a.gen, a.out, a.rows)
    s = settings(a.out)
    wanted = a.measures.split(",")
    rows = []
    for size, group in ((a.rows, [m for m in BIG if m in wanted]), (min(a.rows, 10000), [m for m in SMALL if m in wanted])):
        if not group:
            continue
        mine = ours(a.cli, paths[size], s, group, a.runs)
        for m in group:
            runs = a.peer_runs if (a.peer_runs and m.startswith("dcr")) else a.runs
            peer = statistics.median(timed(theirs(paths[size], m), runs))
            me, joined = statistics.median(mine["measures_s"][m]), statistics.median(mine["joined_s"])
            rows.append({"measure": m, "rows": size, "ours_s": me, "joined_s": joined, "theirs_s": peer, "ratio": me / peer,
                         "ratio_with_join": (me + joined) / peer, "status": mine["status"][m]})
    print("| measure | rows (O = P) | pseudolens (s) | columns joined (s) | oracle (s) | ratio | ratio with the join | status |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['measure']} | {r['rows']} | {r['ours_s']:.4f} | {r['joined_s']:.4f} | {r['theirs_s']:.3f} | {r['ratio']:.4f} | "
              f"{r['ratio_with_join']:.4f} | {r['status'][0]} |")
    with open(os.path.join(a.out, "synthetic-bench.json"), "w") as f:
        json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
