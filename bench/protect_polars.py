"""The peer of `pseudolens protect` in the benchmark (run by bench/protect.py, scripts/bench.sh;
a benchmark, not a test): polars evaluates the same lattice node by node, each node a group-by
of the rows on the generalized quasi-identifiers, and picks the best node as spec protect.md
Sec 3-4 says. Each level's labels and each record's cost there are computed once (text keys as
categoricals); a node groups the rows by its QIs' label columns (a QI at its top level splits
nothing and is left out). Prints one JSON object: the best node (its levels per QI, records suppressed,
classes, k, loss), the lattice's counts and the read and search times.

    python bench/protect_polars.py FILE --qi age,workclass,education,marital_status --bands age=5,10,20 \
        --k 10 --max-suppression 0.01
    python bench/protect_polars.py adult.csv --delimiter ';' --qi age,sex,... \
        --hierarchy age=adult_hierarchy_age.csv ... --k 5 --max-suppression 0.01

The settings of the CLI that the benchmark uses, the same way: the QIs in the file's column
order; `--bands QI=W1,W2,...` (widths only: `[a,a+w)`, `a = floor(x / w) * w`),
`--hierarchy QI=FILE` (ARX's layout, `;` or `,`), any other QI (value, `*`); the top level `*`
added unless the last given level is already one label over the values of the file; the
criterion k and the suppression limit (`s <= floor(s_max * N)`, at least one record kept); the
loss is the normalized certainty penalty of Sec 4 (a suppressed record costs 1 per QI, a blank
cell 0, a value `(|G| - 1) / (|D| - 1)`); the best node: the smallest loss rounded to 12
decimals, then fewer suppressed, the lower height, the lexicographically smaller levels.
Cells as the spec reads them (README Sec 5): trimmed, the default missing tokens blank. A QI
cell made only of `*` (a suppressed cell) is not handled here: the script stops on one.
"""
import argparse
import itertools
import json
import math
import sys
import time

import polars as pl

MISSING_TOKENS = ["", "NA", "N/A", "NaN", "NULL", "null"]


def pair(s):
    name, _, value = s.partition("=")
    if not name or not value:
        raise argparse.ArgumentTypeError("expected NAME=VALUE, not %r" % s)
    return name.strip(), value.strip()


def rounded(x):
    """The loss rounded to 12 decimals as an integer key (half away from zero, as Rust's round)."""
    return int(math.copysign(math.floor(abs(x) * 1e12 + 0.5), x))


def hierarchy_rows(path):
    with open(path, encoding="utf-8") as f:
        lines = [l.rstrip("\r\n") for l in f if l.strip()]
    delim = ";" if ";" in lines[0] else ","
    return [[c.strip() for c in l.split(delim)] for l in lines]


class Ladder:
    """One QI's ladder over its distinct non-blank values `D`: per level, the column of the
    labels (the group-by's key; none at the top, which splits nothing) and the column of each
    record's cost there, both computed once for every row."""

    def __init__(self, q, values, bands=None, hierarchy=None):
        self.q = q
        d = len(values)
        # Each given level: value -> label (the labels of bands are their lower bounds).
        given, kinds = [], []
        if bands:
            numbers = {v: float(v) for v in values}
            for w in bands:
                given.append({v: math.floor(x / w) * w for v, x in numbers.items()})
                kinds.append(("bands", w))
        elif hierarchy:
            rows = hierarchy_rows(hierarchy)
            leaves = {r[0]: r for r in rows}
            unmapped = [v for v in values if v not in leaves]
            if unmapped:
                sys.exit("%s: %d value(s) are no leaf of %s: %s" % (q, len(unmapped), hierarchy, unmapped[:5]))
            for j in range(1, len(rows[0])):
                given.append({v: leaves[v][j] for v in values})
                kinds.append(("map", j))
        # The top: the last given level when it is one label over D, else `*` added.
        if given and len(set(given[-1].values())) == 1:
            given.pop()
            kinds.pop()
        self.height = len(given) + 2
        self.columns = [q] + ["__l%d_%s" % (j, q) for j in range(1, len(given) + 1)] + [None]
        self.costs = [None] + ["__c%d_%s" % (j, q) for j in range(1, len(given) + 2)]
        self.exprs = []
        for j, (labels, (kind, w)) in enumerate(zip(given, kinds), 1):
            if kind == "bands":
                label = (pl.col(q).cast(pl.Float64) / w).floor() * w
            else:
                label = pl.col(q).replace_strict(labels, default=None, return_dtype=pl.String)
            sizes = {}
            for x in labels.values():
                sizes[x] = sizes.get(x, 0) + 1
            # (|G(v)| - 1) / (|D| - 1) of each value; blank cells cost nothing.
            cost = {v: (sizes[x] - 1) / (d - 1) if d > 1 else 0.0 for v, x in labels.items()}
            self.exprs.append(label.alias(self.columns[j]))
            self.exprs.append(pl.col(q).replace_strict(cost, default=0.0, return_dtype=pl.Float64).alias(self.costs[j]))
        self.exprs.append((pl.col(q).is_not_null().cast(pl.Float64) * (1.0 if d > 1 else 0.0)).alias(self.costs[-1]))


def read(path, qis, delimiter):
    """The QI columns of the file as text, in its column order, cells read as the spec reads
    them; and each QI's distinct non-blank values."""
    header = pl.read_csv(path, separator=delimiter, n_rows=0, infer_schema=False).columns
    missing = [q for q in qis if q not in header]
    if missing:
        sys.exit("no column %s in %s" % (missing, path))
    ordered = [c for c in header if c in qis]
    df = pl.read_csv(path, separator=delimiter, columns=ordered, infer_schema=False, null_values=MISSING_TOKENS[1:])
    distinct = {}
    for q in ordered:
        values = df.get_column(q).drop_nulls().unique().to_list()
        if any(v != v.strip() for v in values):
            df = df.with_columns(pl.col(q).str.strip_chars())
            df = df.with_columns(pl.when(pl.col(q).is_in(MISSING_TOKENS)).then(None).otherwise(pl.col(q)).alias(q))
            values = df.get_column(q).drop_nulls().unique().to_list()
        if any(v and set(v) == {"*"} for v in values):
            sys.exit("%s: a cell made only of '*' (suppressed): not handled by this peer" % q)
        distinct[q] = values
    return df, ordered, distinct


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file")
    ap.add_argument("--qi", required=True)
    ap.add_argument("--bands", action="append", default=[], type=pair, metavar="QI=W1,W2")
    ap.add_argument("--hierarchy", action="append", default=[], type=pair, metavar="QI=FILE")
    ap.add_argument("--k", type=int, required=True)
    ap.add_argument("--max-suppression", type=float, default=0.0)
    ap.add_argument("--delimiter", default=",")
    a = ap.parse_args()
    start = time.perf_counter()
    qis = [q.strip() for q in a.qi.split(",") if q.strip()]
    bands = {q: [float(w) for w in ws.split(",")] for q, ws in a.bands}
    hierarchies = dict(a.hierarchy)
    df, qis, distinct = read(a.file, qis, a.delimiter)
    n = df.height
    m = len(qis)
    ladders = []
    for q in qis:
        values = distinct[q]
        if q in bands:
            bad = [v for v in values if not _is_number(v)]
            if bad:
                sys.exit("%s: not a number: %r" % (q, bad[0]))
        ladders.append(Ladder(q, values, bands.get(q), hierarchies.get(q)))
    df = df.with_columns([e for l in ladders for e in l.exprs])
    # The text keys as categoricals (a code per distinct text): polars's group-by on them is
    # 2-3 times faster than on the strings.
    keys = [c for l in ladders for c in l.columns if c is not None]
    df = df.with_columns([pl.col(c).cast(pl.Categorical) for c in keys if df.schema[c] == pl.String])
    read_s = time.perf_counter() - start

    limit = math.floor(a.max_suppression * n + 1e-9)
    frame = df.lazy()
    kept = pl.col("__n") >= a.k
    nodes = []
    for levels in itertools.product(*[range(l.height) for l in ladders]):
        active = [(l, j) for l, j in zip(ladders, levels) if j + 1 < l.height]
        top = [l for l, j in zip(ladders, levels) if j + 1 == l.height]
        # Per class: its records, the cost of a record at each active QI's level (the same for
        # every record of the class), the costs of the QIs at their top summed.
        aggs = ([pl.len().alias("__n")] + [pl.col(l.costs[j]).first() for l, j in active if j > 0]
                + [pl.col(l.costs[-1]).sum() for l in top])
        keys = [l.columns[j] for l, j in active]
        classes = frame.group_by(keys).agg(aggs) if keys else frame.select(aggs)
        per_class = pl.sum_horizontal([pl.col(l.costs[j]) * pl.col("__n") for l, j in active if j > 0]
                                      + [pl.col(l.costs[-1]) for l in top] + [pl.lit(0.0)])
        row = classes.select(
            pl.col("__n").filter(~kept).sum().alias("s"), pl.col("__n").filter(kept).sum().alias("kept"),
            kept.sum().alias("classes"), pl.col("__n").filter(kept).min().alias("k"),
            per_class.filter(kept).sum().alias("penalty"),
        ).collect().row(0, named=True)
        s, kept_n = int(row["s"] or 0), int(row["kept"] or 0)
        penalty = m * s + float(row["penalty"] or 0.0)
        nodes.append({
            "levels": dict(zip(qis, levels)), "height": sum(levels), "records_suppressed": s,
            "classes": int(row["classes"]), "k": int(row["k"]) if kept_n else None,
            "loss": penalty / (m * n) if n and m else 0.0, "feasible": s <= limit and kept_n > 0,
            "key": list(levels),
        })
    search_s = time.perf_counter() - start - read_s
    feasible = [x for x in nodes if x["feasible"]]
    best = min(feasible, key=lambda x: (rounded(x["loss"]), x["records_suppressed"], x["height"], x["key"]), default=None)
    closest = None if feasible else min(nodes, key=lambda x: (x["records_suppressed"], x["height"], x["key"]))
    strip = lambda x: x and {k: v for k, v in x.items() if k not in ("feasible", "key", "height")}
    print(json.dumps({
        "qi": qis, "records": n, "suppression_limit_records": limit,
        "nodes_total": len(nodes), "nodes_feasible": len(feasible),
        "best": strip(best), "closest": strip(closest),
        "ladder_heights": {l.q: l.height for l in ladders},
        "read_s": read_s, "search_s": search_s, "polars": pl.__version__,
    }))


def _is_number(v):
    try:
        return math.isfinite(float(v))
    except ValueError:
        return False


if __name__ == "__main__":
    main()
