#!/usr/bin/env python3
"""How few GPUs any placement could leave idle: a lower bound on the simulator's headline figure.

An analysis aid for the packing issue, not part of the build (Python 3 with SciPy: Debian's python3-scipy).
It answers: at arrived = 100 % (PACKING.md), with the pods that have arrived by then, what is the least
unallocated GPU % that *any* placement could reach, online or offline? `simulate` measures what a policy
reaches; the distance between the two is what is left to win.

The pods arrived at 100 % are, in expectation, every pod class of the trace scaled by capacity / the trace's GPU
demand (the protocol appends uniform draws, or drops random pods, and then stops at capacity), so the bound
depends on the trace, not on a seed. A pod class is (GPUs, GPU milli, CPU, memory, allowed models); a node
type is (CPU, memory, GPUs, model) with its node count. The linear programme maximises the GPU milli placed:

  x[t,p]  GPUs of type t filled with the fraction pattern p (a multiset of fraction sizes summing to <= 1000)
  v[t,c]  fraction pods of class c on type t, at most the slots of their size that the patterns open
  w[t,c]  whole-GPU pods of class c (k GPUs each) on type t, k <= the type's GPUs
  u[t,c]  CPU-only pods of class c on type t; all of them placed (as in the measured runs: none failed)
  per type: GPUs, CPU and memory summed over its nodes; per class: at most its expected count.

It relaxes the real problem (fractional counts, each type's resources pooled over its nodes, k-GPU pods only
limited by floor(GPUs / k) per node, no arrival order), so the true optimum lies at or above the figure printed.

  python3 plugin/bench/packing_bound.py [--by-type] ../shared/data/openb/openb_node_list_gpu_node.csv \\
          ../shared/data/openb/openb_pod_list_gpushare100.csv [more pod lists]
"""
import collections
import csv
import sys

import numpy as np
from scipy.optimize import linprog
from scipy.sparse import lil_matrix

WHOLE = 1000


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def node_types(path):
    types = collections.Counter()
    for r in read_rows(path):
        types[(int(r["cpu_milli"]), int(r["memory_mib"]), int(r["gpu"]), r["model"])] += 1
    return types


def pod_classes(path, capacity_milli):
    classes = collections.Counter()
    demand = 0
    for r in read_rows(path):
        gpus = int(r["num_gpu"])
        milli = int(r["gpu_milli"]) if gpus else 0
        spec = frozenset(m for m in (r.get("gpu_spec") or "").split("|") if m)
        classes[(gpus, milli, int(r["cpu_milli"]), int(r["memory_mib"]), spec)] += 1
        demand += gpus * milli
    scale = capacity_milli / demand
    return {c: n * scale for c, n in classes.items()}


def fraction_patterns(sizes, available):
    """Every multiset of fraction sizes that fits one GPU, no size more often than its pods could fill."""
    patterns = []

    def extend(start, left, current):
        if current:
            patterns.append(tuple(current))
        for i in range(start, len(sizes)):
            size = sizes[i]
            if size <= left and current.count(size) < available[size]:
                extend(i, left - size, current + [size])

    extend(0, WHOLE, [])
    return patterns


def bound(node_file, pod_file):
    types = node_types(node_file)
    type_list = sorted(types)
    capacity = sum(n * t[2] * WHOLE for t, n in types.items())
    classes = pod_classes(pod_file, capacity)
    fraction = [c for c in classes if c[0] == 1 and c[1] < WHOLE]
    whole = [c for c in classes if c[0] >= 1 and c[1] >= WHOLE]
    cpu_only = [c for c in classes if c[0] == 0]
    available = collections.Counter()
    for c in fraction:
        available[c[1]] += classes[c]
    sizes = sorted(available)
    patterns = fraction_patterns(sizes, {s: int(np.ceil(available[s])) for s in sizes})

    def allowed(c, t):
        return not c[4] or t[3] in c[4]

    columns = []  # (kind, type index, item)
    for ti, t in enumerate(type_list):
        if t[2] > 0:
            columns += [("x", ti, p) for p in patterns]
            columns += [("v", ti, c) for c in fraction if allowed(c, t)]
            columns += [("w", ti, c) for c in whole if c[0] <= t[2] and allowed(c, t)]
        columns += [("u", ti, c) for c in cpu_only]
    index = {col: i for i, col in enumerate(columns)}
    objective = np.zeros(len(columns))
    upper = [None] * len(columns)
    for i, (kind, ti, item) in enumerate(columns):
        if kind == "v":
            objective[i] = -item[1]
        elif kind == "w":
            objective[i] = -item[0] * item[1]
            upper[i] = types[type_list[ti]] * (type_list[ti][2] // item[0])

    rows = []  # (coefficients by column, limit)
    equalities = []
    for ti, t in enumerate(type_list):
        gpus, cpu, memory = {}, {}, {}
        slots = collections.defaultdict(dict)
        for i, (kind, tj, item) in enumerate(columns):
            if tj != ti:
                continue
            if kind == "x":
                gpus[i] = 1
                for size in set(item):
                    slots[size][i] = -item.count(size)
            elif kind == "v":
                cpu[i], memory[i] = item[2], item[3]
                slots[item[1]][i] = 1
            elif kind == "w":
                gpus[i] = item[0]
                cpu[i], memory[i] = item[2], item[3]
            else:
                cpu[i], memory[i] = item[2], item[3]
        n = types[t]
        rows += [(gpus, n * t[2]), (cpu, n * t[0]), (memory, n * t[1])]
        rows += [(coefficients, 0) for coefficients in slots.values()]
    for c in fraction + whole:
        kind = "v" if c in fraction else "w"
        rows.append(({index[(kind, ti, c)]: 1 for ti in range(len(type_list)) if (kind, ti, c) in index},
                     classes[c]))
    for c in cpu_only:
        equalities.append(({index[("u", ti, c)]: 1 for ti in range(len(type_list))}, classes[c]))

    def matrix(spec):
        m = lil_matrix((len(spec), len(columns)))
        for r, (coefficients, _) in enumerate(spec):
            for i, a in coefficients.items():
                m[r, i] = a
        return m.tocsr(), [limit for _, limit in spec]

    a_ub, b_ub = matrix(rows)
    a_eq, b_eq = matrix(equalities) if equalities else (None, None)
    result = linprog(objective, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=b_eq,
                     bounds=[(0, u) for u in upper], method="highs")
    if result.status != 0:
        raise SystemExit(f"{pod_file}: the programme has no solution ({result.message}); "
                         "are the CPU-only pods more than the nodes' CPU or memory?")
    placed = -result.fun
    return 100 * (capacity - placed) / capacity, len(patterns), len(columns), by_type(result.x, columns, type_list, types)


def by_type(solution, columns, type_list, types):
    """Per node type: the optimum's idle GPU % and which pods it holds (what `--by-type` prints). The optimum is
    rarely unique: another solution of the same bound may spread the pods over the types differently."""
    lines = []
    for ti, t in enumerate(type_list):
        if t[2] == 0:
            continue
        placed = 0
        pods = collections.Counter()
        for i, (kind, tj, item) in enumerate(columns):
            if tj == ti and kind in ("v", "w") and solution[i] > 0:
                placed += solution[i] * item[0] * item[1]
                pods[item[1] if kind == "v" else f"{item[0]}x1000"] += solution[i]
        gpus = types[t] * t[2]
        lines.append(f"  {t[3]:8} {t[0] // 1000:3d} cores {t[2]} GPUs x {types[t]:3d}: "
                     f"{100 * (1 - placed / (gpus * WHOLE)):5.1f} % idle; pods "
                     + ", ".join(f"{size}: {n:.0f}" for size, n in pods.most_common(4)))
    return lines


def main(argv):
    show_types = "--by-type" in argv
    files = [a for a in argv[1:] if a != "--by-type"]
    if len(files) < 2:
        raise SystemExit(__doc__)
    for pod_file in files[1:]:
        unallocated, patterns, columns, lines = bound(files[0], pod_file)
        print(f"{pod_file}: unallocated GPU % at arrived 100 % >= {unallocated:.2f} "
              f"({patterns} fraction patterns, {columns} variables)")
        if show_types:
            print("\n".join(lines))


if __name__ == "__main__":
    main(sys.argv)
