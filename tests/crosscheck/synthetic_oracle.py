"""Runs sdnist 2.4 and sdmetrics 0.32.0 (the oracles of spec synthetic.md Sec 14) on CSV tables
for the synthetic cross-checks, in the virtual environment .venv-sdnist. Reads one JSON job from
standard input, writes the list of results as JSON to standard output.

Job: a list of {"tables": {"original": path, "released": path, "holdout": path or absent},
"calls": [{"measure": name, ...arguments}]}; each measure is a function below, given the tables
as pandas DataFrames and the call's arguments. Output: per job, the list of its calls' results
(one process for many tables: importing sdnist takes seconds).
"""
import json
import sys

import sdnist.report  # noqa: F401  (first: sdnist.metrics.kmarginal has a circular import)
import pandas as pd

MEASURES = {}


def measure(fn):
    """Registers a measure under its function's name."""
    MEASURES[fn.__name__] = fn
    return fn


@measure
def k_marginal(t, binned=(), group=None):
    """Sec 2 and 14: the percentile binning of `binned`, then KMarginal's score, ungrouped and
    grouped by `group` (renamed PUMA, as sdnist requires)."""
    from sdnist.metrics.kmarginal import KMarginal
    from sdnist.report.dataset.binning import add_bin_for_NA, percentile_rank_synthetic, percentile_rank_target

    o, p = t["original"], t["released"]
    binned = list(binned)
    ob = add_bin_for_NA(percentile_rank_target(o.copy(), binned), o, binned)
    pb = add_bin_for_NA(percentile_rank_synthetic(p.copy(), o, ob, binned), p, binned)
    if group:
        ob, pb = ob.rename(columns={group: "PUMA"}), pb.rename(columns={group: "PUMA"})
        plain = KMarginal(ob.drop(columns=["PUMA"]), pb.drop(columns=["PUMA"]))
        plain.compute_score()
        grouped = KMarginal(ob, pb, ["PUMA"])
        grouped.compute_score()
        return {"ungrouped": plain.score, "grouped": grouped.score}
    km = KMarginal(ob, pb)
    km.compute_score()
    return {"ungrouped": km.score}


@measure
def unique_exact_matches(t):
    """Sec 3: (matched, pct_matched, unique_target, pct_unique)."""
    from sdnist.metrics.unique_exact_matches import unique_exact_matches as uem

    matched, pct_matched, unique, pct_unique = uem(t["original"], t["released"])
    return {"matched": int(matched), "pct_matched": float(pct_matched), "unique": int(unique), "pct_unique": float(pct_unique)}


@measure
def apparent_match(t, quasi):
    """Sec 4: cellchange's matched records and their match percentages (sorted)."""
    from sdnist.metrics.apparent_match_dist import cellchange

    pct, _, _, matched = cellchange(t["released"], t["original"], quasi=list(quasi), exclude_cols=[])
    return {"matched": int(len(matched)), "match_pct": sorted(float(x) for x in pct)}


def run(job):
    tables = {name: pd.read_csv(path) for name, path in job["tables"].items() if path}
    out = []
    for call in job["calls"]:
        args = {k: v for k, v in call.items() if k != "measure"}
        out.append(MEASURES[call["measure"]](tables, **args))
    return out


def main():
    json.dump([run(job) for job in json.load(sys.stdin)], sys.stdout)


if __name__ == "__main__":
    main()
