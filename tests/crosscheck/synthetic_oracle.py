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


def coded(o, p):
    """Sec 1.4 (after sdnist/report/dataset/transform.py:4-34): a text column's values become
    their integers when every one reads as an integer, else their 0-based rank in the byte-wise
    sorted distinct values of both tables; missing -1. Numeric columns stay as they are."""
    o, p = o.copy(), p.copy()
    for col in o.columns:
        if o[col].dtype != object and p[col].dtype != object:
            continue
        values = sorted({str(v) for v in pd.concat([o[col], p[col]]).dropna()}, key=lambda v: v.encode())
        try:
            code = {v: int(v) for v in values}
        except ValueError:
            code = {v: i for i, v in enumerate(values)}
        for df in (o, p):
            df[col] = df[col].map(lambda v: -1 if pd.isna(v) else code[str(v)])
    return o, p


@measure
def pmse(t, seeds=20):
    """Sec 5 and 14: the seeded equivalent of sdnist's propensity.py:58-93 (sklearn's
    DecisionTreeClassifier(max_depth=6, random_state=r) fitted on O over P, coded by Sec 1.4,
    predicted in-sample) for r in 0..seeds-1: the envelope of Sec 5.6 (b) and every value."""
    from sklearn import tree

    o, p = coded(t["original"], t["released"])
    n = pd.concat([o.assign(i=0), p.assign(i=1)]).reset_index(drop=True)
    f = list(o.columns)
    c = len(p) / len(n)
    values = []
    for r in range(seeds):
        clf = tree.DecisionTreeClassifier(max_depth=6, random_state=r).fit(n[f].values, n["i"].values)
        prob = clf.predict_proba(n[f].values)[:, 1]
        values.append(float(((prob - c) ** 2).mean()))
    return {"min": min(values), "max": max(values), "values": values}


def _metadata(kinds):
    """SDMetrics' metadata of Sec 14: numeric columns `numerical`, the others `categorical`."""
    return {"columns": {c: {"sdtype": "numerical" if k == "numeric" else "categorical"} for c, k in kinds.items()}}


@measure
def dcr(t, kinds):
    """Sec 10: calculate_dcr P->O and P->H, their medians and 20-bin histograms over [0, 1],
    and DCROverfittingProtection.compute_breakdown."""
    import warnings

    from sdmetrics.single_table import DCROverfittingProtection
    from sdmetrics.single_table.privacy.dcr_utils import calculate_dcr

    warnings.filterwarnings("ignore")
    o, p, h, md = t["original"], t["released"], t["holdout"], _metadata(kinds)
    to_o, to_h = calculate_dcr(p, o, md), calculate_dcr(p, h, md)

    def hist(v):
        return [int(sum(1 for x in v if min(int(x * 20), 19) == b)) for b in range(20)]

    ov = DCROverfittingProtection.compute_breakdown(o, p, h, md, None)
    return {"median_training": float(to_o.median()), "median_holdout": float(to_h.median()), "histogram_training": hist(to_o),
            "histogram_holdout": hist(to_h), "score": float(ov["score"]),
            "closer_to_training": float(ov["synthetic_data_percentages"]["closer_to_training"])}


@measure
def cap(t, known, sensitive, method, continuous, bins):
    """Sec 11: DisclosureProtection.compute_breakdown."""
    import warnings

    from sdmetrics.single_table import DisclosureProtection

    warnings.filterwarnings("ignore")
    r = DisclosureProtection.compute_breakdown(t["original"], t["released"], known_column_names=known, sensitive_column_names=sensitive,
                                               computation_method=method, continuous_column_names=continuous or None, num_discrete_bins=bins)
    return {k: float(v) for k, v in r.items()}

def _nan_to_none(rows):
    """A matrix as lists, NaN as None (JSON null)."""
    return [[None if v != v else float(v) for v in row] for row in rows]


@measure
def correlations(t, features):
    """Sec 6 and 14: PearsonCorrelationDifference (P - O) and correlation_difference for
    Kendall tau-b (synthetic first, P - O), on `features`."""
    from sdnist.metrics.pearson_correlation import PearsonCorrelationDifference
    from sdnist.report.plots.correlation import correlation_difference

    t = dict(zip(("original", "released"), coded(t["original"], t["released"])))
    o, p = t["original"][features], t["released"][features]
    d = PearsonCorrelationDifference(o, p, features)
    d.compute()
    k = correlation_difference(p, o, features)
    return {"pearson": _nan_to_none(d.pp_corr_diff.values.tolist()), "kendall": _nan_to_none(k.values.tolist())}


@measure
def pca(t, features):
    """Sec 7 and 14: PCAMetric's components (k x d; each row's sign arbitrary)."""
    from sdnist.metrics.pca import PCAMetric

    t = dict(zip(("original", "released"), coded(t["original"], t["released"])))
    m = PCAMetric(t["original"][features], t["released"][features])
    m.compute_pca()
    return {"loadings": m.comp_df.values.tolist()}


@measure
def linear_regression(t, x, y, groups=()):
    """Sec 8 and 14: LinearRegressionMetric with x renamed EDU and y PINCP_DECILE (codes
    0..K-1), on all rows and on each combination of `groups` values the original holds; null
    where sdnist fits no line (it prints 0)."""
    import tempfile
    from pathlib import Path

    from sdnist.metrics.regression import LinearRegressionMetric

    o, p = t["original"], t["released"]

    def fit(a, b):
        a = a.rename(columns={x: "EDU", y: "PINCP_DECILE"})
        b = b.rename(columns={x: "EDU", y: "PINCP_DECILE"})
        values = lambda c: {str(v): str(v) for v in sorted(set(a[c]) | set(b[c]))}
        dd = {"EDU": {"values": values("EDU")}, "PINCP_DECILE": {"values": values("PINCP_DECILE")}}
        with tempfile.TemporaryDirectory() as d:
            lr = LinearRegressionMetric(a, b, dd, Path(d))
            lr.compute()
        def line(s):
            ok = s.shape[0] > 1 and s["EDU"].nunique() > 1
            return lr_line(s) if ok else None
        return {
            "original": line(a),
            "released": line(b),
            "rounded": [lr.t_slope, lr.t_intercept, lr.s_slope, lr.s_intercept],
            "rows": [len(a), len(b)],
            "diff": lr.diff.values.tolist(),
        }

    def lr_line(s):
        from scipy import stats
        r = stats.linregress(s["EDU"].astype(float), s["PINCP_DECILE"].astype(float))
        return {"slope": float(r.slope), "intercept": float(r.intercept)}

    out = {"total": fit(o, p), "subgroups": []}
    if groups:
        for key, part in o.groupby(list(groups)):
            key = key if isinstance(key, tuple) else (key,)
            mask = (p[list(groups)] == pd.Series(key, index=list(groups))).all(axis=1)
            out["subgroups"].append({"values": [str(v) for v in key], **fit(part, p[mask])})
    return out


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
