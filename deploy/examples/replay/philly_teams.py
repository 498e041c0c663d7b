#!/usr/bin/env python3
"""Writes the teams file of the Philly replay scenario (docs/replay.md) for a cluster of GPUS GPUs.

Guarantees are proportional to the VC sizes of philly_vc_nodes.csv and sum to the cluster (largest remainders
rounded up); a VC of the trace without a size is guaranteed 0 (it only borrows).

    python3 philly_teams.py PHILLY_DIR 464 > philly-teams-464.yaml
    python3 philly_teams.py PHILLY_DIR 328 --idle > philly-teams-328-idle.yaml
    python3 philly_teams.py PHILLY_DIR 328 --idle-preempt > philly-teams-328-idle-preempt.yaml

With --models (the mixed-model variant, the same value as replay's --node-models) each VC's guarantee is split over
the GPU models in the fleet's proportions, as per-model guarantees (`guarantees: [{models: [M], gpus: N}, ...]`, one
group per model, in the order given, which is the order an unpinned job tries them in). The fleet is the one replay
generates: GPUS / --gpus-per-node nodes, each model's share of them rounded to whole nodes by largest remainders
(ties: the model given first). The split keeps both sums: each VC's groups sum to its guarantee, and each model's
guarantees over all VCs sum to that model's GPUs (a VC's share of a model is rounded down, then the GPUs left are
handed out one at a time to the largest remainders among the VCs and models that still lack some).

    python3 philly_teams.py PHILLY_DIR 328 --models H100-80GB:0.25,A100-SXM4-80GB:0.5,V100-32GB:0.25 \\
        > philly-teams-328-models.yaml

With --idle every VC with a guarantee also gets the idle policy of the notebook scenario (docs/replay.md, "Idle GPUs"):
its notebooks idle for 30 minutes are stopped when a waiting job would take their GPUs; with --idle-preempt they are
preempted and re-queued instead (action: preempt), waiting again as of their release.

PHILLY_DIR is the folder holding philly_vc_nodes.csv (the Philly data is not shipped: see docs/replay.md).
"""
import argparse
import csv
import json
import math
import sys
from pathlib import Path

IDLE = "{kinds: [notebook], after: 30m, warnAfter: 20m, threshold: 5%, onlyWhenOthersWait: true, action: ACTION}"
VERB = {"stop": "stops", "preempt": "preempts (re-queues)"}

def largest_remainders(total: int, weights: dict, order: list) -> dict:
    """Whole parts of total in proportion to weights: floors, then one more to the largest remainders (ties: order)."""
    whole = sum(weights.values())
    exact = {k: total * weights[k] / whole if whole else 0 for k in order}
    parts = {k: math.floor(exact[k]) for k in order}
    for k in sorted(order, key=lambda k: (parts[k] - exact[k], order.index(k)))[: total - sum(parts.values())]:
        parts[k] += 1
    return parts


def parse_models(spec: str) -> list:
    models = []
    for part in spec.split(","):
        name, _, fraction = part.strip().rpartition(":")
        if not name or not fraction:
            sys.exit(f"--models: '{part}' is not MODEL:FRACTION (e.g. H100-80GB:0.25,A100-SXM4-80GB:0.75)")
        try:
            f = float(fraction)
        except ValueError:
            sys.exit(f"--models: the fraction of {name} must be a number such as 0.25, was '{fraction}'")
        if not 0 < f <= 1:
            sys.exit(f"--models: the fraction of {name} must be above 0 and at most 1, was {fraction}")
        models.append((name, f))
    if abs(sum(f for _, f in models) - 1) > 1e-6:
        sys.exit("--models: the fractions must sum to 1")
    if len({m for m, _ in models}) != len(models):
        sys.exit("--models: a model is named twice")
    return models


def fleet(gpus: int, gpus_per_node: int, models: list) -> dict:
    """The GPUs of each model in the cluster replay generates with --node-models (NodeModels.assign)."""
    if gpus % gpus_per_node:
        sys.exit(f"GPUS ({gpus}) must be a multiple of --gpus-per-node ({gpus_per_node}): the fleet is whole nodes")
    order = [m for m, _ in models]
    nodes = largest_remainders(gpus // gpus_per_node, dict(models), order)
    return {m: nodes[m] * gpus_per_node for m in order}


def split(guarantees: dict, capacity: dict) -> dict:
    """guarantees[team] split over the models so that rows sum to the guarantees and columns to the capacities."""
    total = sum(capacity.values())
    exact = {(t, m): g * capacity[m] / total for t, g in guarantees.items() for m in capacity}
    cells = {k: math.floor(x) for k, x in exact.items()}
    row = {t: g - sum(cells[t, m] for m in capacity) for t, g in guarantees.items()}
    col = {m: c - sum(cells[t, m] for t in guarantees) for m, c in capacity.items()}
    teams, models = list(guarantees), list(capacity)
    by_remainder = sorted(exact, key=lambda k: (cells[k] - exact[k], teams.index(k[0]), models.index(k[1])))
    while any(row.values()):
        # the largest remainder whose team and model both still lack GPUs; the sums match, so one always exists
        t, m = next(k for k in by_remainder if row[k[0]] > 0 and col[k[1]] > 0)
        cells[t, m] += 1
        row[t] -= 1
        col[m] -= 1
        by_remainder.remove((t, m))
        by_remainder.append((t, m))
    return {t: {m: cells[t, m] for m in models} for t in teams}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", help="the folder holding philly_vc_nodes.csv and philly_jobs_2017-09_10.csv")
    parser.add_argument("gpus", type=int, help="the cluster's GPUs")
    parser.add_argument("--models", help="split each guarantee over these models (replay's --node-models value)")
    idle = parser.add_mutually_exclusive_group()
    idle.add_argument("--idle", dest="idle", action="store_const", const="stop",
                      help="give every VC with a guarantee the notebook idle policy (action: stop)")
    idle.add_argument("--idle-preempt", dest="idle", action="store_const", const="preempt",
                      help="the same policy with action: preempt (re-queue)")
    parser.add_argument("--gpus-per-node", type=int, default=8, help="replay's --gpus-per-node (default 8)")
    args = parser.parse_args()
    folder, gpus = Path(args.folder), args.gpus
    sizes = {r["vc"]: int(r["node num"]) for r in csv.DictReader(open(folder / "philly_vc_nodes.csv"))}
    teams = sorted({r["cluster"] for r in csv.DictReader(open(folder / "philly_jobs_2017-09_10.csv"))} | set(sizes))
    share = largest_remainders(gpus, {t: sizes.get(t, 0) for t in teams}, teams)
    print(f"# The Philly replay scenario on {gpus} GPUs: guarantees proportional to philly_vc_nodes.csv, summing to")
    print("# the cluster; VCs without a size are guaranteed 0. Written by philly_teams.py.")
    if args.idle:
        flag = "--idle" if args.idle == "stop" else "--idle-preempt"
        print(f"# {flag}: each VC with a guarantee {VERB[args.idle]} its notebooks idle for 30 minutes when another"
              " job waits.")
    groups = None
    if args.models:
        capacity = fleet(gpus, args.gpus_per_node, parse_models(args.models))
        groups = split(share, capacity)
        print(f"# Split per GPU model (--models {args.models}): " + ", ".join(f"{m} {c}" for m, c in capacity.items())
              + " GPUs.")
    print("teams:")
    for t in teams:
        # names and models are written as JSON strings (valid YAML), so YAML never reads a VC name as a number
        print(f"  - name: {json.dumps(t)}")
        if groups is None or share[t] == 0:
            print(f"    guaranteedGpus: {share[t]}")
        else:
            print("    guarantees:")
            for m, n in groups[t].items():
                print(f"      - models: [{json.dumps(m)}]\n        gpus: {n}")
        if args.idle and share[t] > 0:
            print(f"    idle: {IDLE.replace('ACTION', args.idle)}")


if __name__ == "__main__":
    main()
