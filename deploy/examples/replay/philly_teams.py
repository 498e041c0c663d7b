#!/usr/bin/env python3
"""Writes the teams file of the Philly replay scenario (docs/replay.md) for a cluster of GPUS GPUs.

Guarantees are proportional to the VC sizes of philly_vc_nodes.csv and sum to the cluster (largest remainders
rounded up); a VC of the trace without a size is guaranteed 0 (it only borrows).

    python3 philly_teams.py PHILLY_DIR 464 > philly-teams-464.yaml
    python3 philly_teams.py PHILLY_DIR 328 --idle > philly-teams-328-idle.yaml
    python3 philly_teams.py PHILLY_DIR 328 --idle-preempt > philly-teams-328-idle-preempt.yaml

PHILLY_DIR is the folder holding philly_vc_nodes.csv (the Philly data is not shipped: see docs/replay.md). With
--idle every VC with a guarantee also gets the idle policy of the notebook scenario (docs/replay.md, "Idle GPUs"):
its notebooks idle for 30 minutes are stopped when a waiting job would take their GPUs; with --idle-preempt they are
preempted and re-queued instead (action: preempt), waiting again as of their release.
"""
import csv
import sys
from pathlib import Path


IDLE = "{kinds: [notebook], after: 30m, warnAfter: 20m, threshold: 5%, onlyWhenOthersWait: true, action: ACTION}"
FLAGS = {"--idle": "stop", "--idle-preempt": "preempt"}
VERB = {"stop": "stops", "preempt": "preempts (re-queues)"}


def main(folder: str, gpus: int, idle: str | None = None) -> None:
    sizes = {r["vc"]: int(r["node num"]) for r in csv.DictReader(open(Path(folder) / "philly_vc_nodes.csv"))}
    teams = sorted({r["cluster"] for r in csv.DictReader(open(Path(folder) / "philly_jobs_2017-09_10.csv"))} | set(sizes))
    total = sum(sizes.values())
    exact = {t: gpus * sizes.get(t, 0) / total for t in teams}
    share = {t: int(x) for t, x in exact.items()}
    for t in sorted(teams, key=lambda t: (share[t] - exact[t], t))[: gpus - sum(share.values())]:
        share[t] += 1
    print(f"# The Philly replay scenario on {gpus} GPUs: guarantees proportional to philly_vc_nodes.csv, summing to")
    print("# the cluster; VCs without a size are guaranteed 0. Written by philly_teams.py.")
    if idle:
        flag = next(f for f, a in FLAGS.items() if a == idle)
        print(f"# {flag}: each VC with a guarantee {VERB[idle]} its notebooks idle for 30 minutes when another job waits.")
    print("teams:")
    for t in teams:
        # a VC name may start with a digit; quoted, so YAML never reads it as a number
        print(f'  - name: "{t}"\n    guaranteedGpus: {share[t]}')
        if idle and share[t] > 0:
            print(f"    idle: {IDLE.replace('ACTION', idle)}")


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4) or (len(sys.argv) == 4 and sys.argv[3] not in FLAGS):
        sys.exit("usage: philly_teams.py PHILLY_DIR GPUS [--idle | --idle-preempt]")
    main(sys.argv[1], int(sys.argv[2]), FLAGS[sys.argv[3]] if len(sys.argv) == 4 else None)
