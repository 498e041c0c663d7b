#!/usr/bin/env python3
"""Writes a synthetic trace in the replay's general format (docs/replay.md) that uses every column at once: whole
GPUs, fractions with and without a burst limit, GPU memory, gangs, model pins, the three job kinds, priorities,
non-preemptible jobs, checkpoints, minimum runtimes and idle profiles, for the teams of synthetic-teams.yaml
(departments, maxima, per-model guarantees, idle policies). Not a model of any cluster: a stress input on which
every rule meets every other, for the robustness figures of docs/research/replay.md and for trying the replay on a
trace that is not Philly's.

    python3 synthetic_trace.py --seed 1 --jobs 500 > synthetic-1.csv
    java -jar plugin/target/quotient.jar replay --jobs synthetic-1.csv \\
        --teams deploy/examples/replay/synthetic-teams.yaml --load 1.2 \\
        --node-models H100-80GB:0.25,A100-SXM4-80GB:0.5,V100-32GB:0.25 --policy all

Jobs arrive as a Poisson stream (mean gap --gap seconds) with exponential running times (mean --mean-duration
seconds); the same seed writes the same file.
"""
import argparse
import csv
import random
import sys

TEAMS = ["vision", "nlp", "speech", "ads", "infra", "guest"]
MODELS = ["H100-80GB", "A100-SXM4-80GB", "V100-32GB"]
COLUMNS = ["name", "submit", "duration", "team", "gpus", "gpu_fraction", "gpu_limit_fraction", "gpu_mib", "cpu",
           "memory_mib", "model", "replicas", "kind", "priority", "preemptible", "checkpoint_minutes",
           "min_runtime_minutes", "idle_profile"]


def gpu_columns(r):
    """A fifth of the jobs share GPUs (by fraction or memory), a tenth are gangs, the rest whole GPUs."""
    x = r.random()
    if x < 0.15:
        fraction = r.choice(["0.25", "0.5", "0.75", "0.1"])
        return {"gpu_fraction": fraction, "gpu_limit_fraction": r.choice(["", fraction, "1"])}
    if x < 0.2:
        return {"gpu_mib": str(r.choice([8192, 16384, 20000]))}
    if x < 0.3:
        return {"gpus": str(r.choice([8, 4])), "replicas": str(r.choice([2, 3]))}
    return {"gpus": str(r.choice([1, 1, 1, 2, 4, 8, 16]))}


def idle_profile(r):
    if r.random() < 0.5:
        return ""
    return "busy:%dm|idle:%dm|%d%%:%dm" % (r.randint(1, 60), r.randint(1, 120), r.randint(0, 20), r.randint(1, 30))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=500)
    parser.add_argument("--gap", type=float, default=120.0, help="mean seconds between submissions")
    parser.add_argument("--mean-duration", type=float, default=5400.0, help="mean running seconds")
    args = parser.parse_args()
    r = random.Random(args.seed)
    out = csv.DictWriter(sys.stdout, fieldnames=COLUMNS, lineterminator="\n")
    out.writeheader()
    submit = 0.0
    for i in range(args.jobs):
        submit += r.expovariate(1 / args.gap)
        row = {c: "" for c in COLUMNS}
        row.update(gpu_columns(r))
        row.update({
            "name": "j%d" % i,
            "submit": int(submit),
            "duration": int(r.expovariate(1 / args.mean_duration)) + 1,
            "team": r.choice(TEAMS),
            "kind": r.choices(["train", "notebook", "inference"], [6, 3, 1])[0],
            "model": "" if r.random() < 0.6 else "|".join(r.sample(MODELS, r.choice([1, 1, 2]))),
            "cpu": r.choice(["", "2", "8"]),
            "memory_mib": r.choice(["", "4096"]),
            "priority": r.choice([0, 0, 1, 2]),
            "preemptible": "" if r.random() < 0.7 else r.choice(["true", "false"]),
            "checkpoint_minutes": r.choice(["", "0", "10"]),
            "min_runtime_minutes": r.choice(["", "0", "20"]),
            "idle_profile": idle_profile(r),
        })
        out.writerow(row)


if __name__ == "__main__":
    main()
