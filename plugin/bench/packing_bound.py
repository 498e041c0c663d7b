#!/usr/bin/env python3
"""How few GPUs any placement could leave idle: a lower bound on the simulator's headline figure.

An analysis aid for the packing issue, not part of the build (Python 3 with SciPy: Debian's python3-scipy).
It answers: at arrived = 100 % (docs/research/packing.md), with the pods that have arrived by then, what is the least
unallocated GPU % that *any* placement could reach, online or offline? `simulate` measures what a policy
reaches; the distance between the two is what is left to win.

The pods arrived at 100 % are, in expectation, every pod class of the trace scaled by capacity / the trace's GPU
demand (the protocol appends uniform draws, or drops random pods, and then stops at capacity), so the bound
depends on the trace, not on a seed. A pod class is (GPUs, GPU milli, CPU, memory, allowed models); a node
type is (CPU, memory, GPUs, model) with its node count. The linear programme maximises the GPU milli placed:

  x[t,p]  GPUs of type t filled with the fraction pattern p (a multiset of fraction sizes summing to <= 1000)
  v[t,c]  fraction pods of class c on type t, at most the slots of their size that the patterns open
  w[t,c]  whole-GPU pods of class c (k GPUs each) on type t, k <= the type's GPUs
  u[t,c]  CPU-only pods of class c on type t
  per type: GPUs, CPU and memory summed over its nodes; per class: at most its expected count.

It relaxes the real problem (fractional counts, each type's resources pooled over its nodes, k-GPU pods only
limited by floor(GPUs / k) per node, no arrival order), so the true optimum lies at or above the figure printed.

--place-if-fits bounds the placements the protocol allows: every pod that fits somewhere is placed. Once a pod of
a class fits nowhere it never will again (no pod leaves), nor will a pod of a class that asks at least as much of
everything ("dominates" it). So each class's placed pods are the arrivals before some point, a share t[c] of them,
and t[c] <= t[k] whenever c dominates k; the programme gets t as variables with those rows. It cannot fail an
810-milli pod while whole-GPU pods that came after it are placed, which the plain bound may.

--first-refusal answers another question: how late can the first refusal of a GPU pod come? Up to it, a placement
has placed every GPU pod, so its allocation equals the arrived demand; after it, it places only what its gaps still
take. The latest arrived share at which all GPU pods arrived so far (in expected counts) can still be placed
together, CPU-only pods placed or not, is found by bisection over the same programme with every GPU class's count
placed exactly; no placement, online or offline, refuses its first GPU pod later (up to how far a seed's arrivals
stray from the expected counts). A placement that places nothing after that refusal leaves at least the rest of
the capacity (100 % less that share) unallocated at arrived 100 %.

  python3 plugin/bench/packing_bound.py [--by-type] [--place-if-fits | --first-refusal] \\
          data/openb/openb_node_list_gpu_node.csv data/openb/openb_pod_list_gpushare100.csv [more]
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


class Programme:
    """The linear programme for one trace: pod classes and node types in, the least unallocated GPU % out."""

    def __init__(self, types, classes, place_if_fits=False, place_all=False):
        self.types = types
        self.type_list = sorted(types)
        self.capacity = capacity(types)
        self.classes = classes
        fraction = [c for c in classes if c[0] == 1 and c[1] < WHOLE]
        whole = [c for c in classes if c[0] >= 1 and c[1] >= WHOLE]
        available = collections.Counter()
        for c in fraction:
            available[c[1]] += classes[c]
        sizes = sorted(available)
        self.patterns = fraction_patterns(sizes, {s: int(np.ceil(available[s])) for s in sizes})
        self.columns = self._columns(fraction, whole, [c for c in classes if c[0] == 0])
        if place_if_fits:
            self.columns += [("t", -1, c) for c in classes]
        index = {col: i for i, col in enumerate(self.columns)}
        self.objective = np.zeros(len(self.columns))
        self.upper = [None] * len(self.columns)
        for i, (kind, ti, item) in enumerate(self.columns):
            if kind == "t":
                self.upper[i] = 1
            elif kind == "v":
                self.objective[i] = -item[1]
            elif kind == "w":
                self.objective[i] = -item[0] * item[1]
                self.upper[i] = types[self.type_list[ti]] * (self.type_list[ti][2] // item[0])
        # per class, the columns that count its placed pods, one per node type it may run on
        placed = {c: [index[(k, ti, c)] for ti in range(len(self.type_list)) for k in "vwu" if (k, ti, c) in index]
                  for c in classes}
        self.rows = self._resource_rows()
        if place_if_fits:
            self.rows += self._prefix_rows(index, placed)
        # per class: at most its expected count placed (CPU-only pods too: where CPU runs short, as in cpu30, they fail)
        self.rows += [({i: 1 for i in placed[c]}, classes[c]) for c in classes]
        if place_all:
            # and at least its count for every GPU class: solve() then finds no solution unless every arrived GPU pod
            # can be placed; CPU-only pods may still fail (a placement may refuse them first and keep their CPU)
            self.rows += [({i: -1 for i in placed[c]}, -classes[c]) for c in classes if c[0] >= 1]

    def _columns(self, fraction, whole, cpu_only):
        def allowed(c, t):
            return not c[4] or t[3] in c[4]

        columns = []  # (kind, type index, item)
        for ti, t in enumerate(self.type_list):
            if t[2] > 0:
                columns += [("x", ti, p) for p in self.patterns]
                columns += [("v", ti, c) for c in fraction if allowed(c, t)]
                columns += [("w", ti, c) for c in whole if c[0] <= t[2] and allowed(c, t)]
            columns += [("u", ti, c) for c in cpu_only]
        return columns

    def _resource_rows(self):
        rows = []  # (coefficients by column, limit)
        for ti, t in enumerate(self.type_list):
            gpus, cpu, memory = {}, {}, {}
            slots = collections.defaultdict(dict)
            for i, (kind, tj, item) in enumerate(self.columns):
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
            n = self.types[t]
            rows += [(gpus, n * t[2]), (cpu, n * t[0]), (memory, n * t[1])]
            rows += [(coefficients, 0) for coefficients in slots.values()]
        return rows

    def _prefix_rows(self, index, placed):
        """What placing every pod that fits implies (the protocol of docs/research/packing.md): no pod leaves and free resources only
        shrink, so once a pod of a class fits on no node it never will again, and neither will a pod of any class
        that dominates it. A placement thus places a prefix of each class's arrivals, a share t[c] of them (the
        counts are expected counts, so a prefix in time holds that share), and a dominating class stops no later:
        t[c] <= t[k]. Without these rows the optimum may fail an 810-milli pod while placing the whole-GPU pods that
        came after it, which no such placement can do."""
        rows = []
        for c in self.classes:
            share = index[("t", -1, c)]
            rows.append(({**{i: 1 for i in placed[c]}, share: -self.classes[c]}, 0))
            rows.append(({**{i: -1 for i in placed[c]}, share: self.classes[c]}, 0))
            rows += [({share: 1, index[("t", -1, k)]: -1}, 0) for k in self.classes if dominates(c, k)]
        return rows

    def by_type(self, solution):
        """Per node type: the optimum's idle GPU % and which pods it holds (what `--by-type` prints). The optimum is
        rarely unique: another solution of the same bound may spread the pods over the types differently."""
        lines = []
        for ti, t in enumerate(self.type_list):
            if t[2] == 0:
                continue
            placed = 0
            pods = collections.Counter()
            for i, (kind, tj, item) in enumerate(self.columns):
                if tj == ti and kind in ("v", "w") and solution[i] > 0:
                    placed += solution[i] * item[0] * item[1]
                    pods[item[1] if kind == "v" else f"{item[0]}x1000"] += solution[i]
            gpus = self.types[t] * t[2]
            lines.append(f"  {t[3]:8} {t[0] // 1000:3d} cores {t[2]} GPUs x {self.types[t]:3d}: "
                         f"{100 * (1 - placed / (gpus * WHOLE)):5.1f} % idle; pods "
                         + ", ".join(f"{size}: {n:.0f}" for size, n in pods.most_common(4)))
        return lines

    def solve(self):
        """The least unallocated GPU % and the solution that reaches it; None, None if there is none."""
        matrix = lil_matrix((len(self.rows), len(self.columns)))
        for r, (coefficients, _) in enumerate(self.rows):
            for i, a in coefficients.items():
                matrix[r, i] = a
        result = linprog(self.objective, A_ub=matrix.tocsr(), b_ub=[limit for _, limit in self.rows],
                         bounds=[(0, u) for u in self.upper], method="highs")
        if result.status != 0:
            return None, None
        return 100 * (self.capacity + result.fun) / self.capacity, result.x


def capacity(types):
    """The cluster's GPU milli."""
    return sum(n * t[2] * WHOLE for t, n in types.items())


def bound(node_file, pod_file, place_if_fits=False):
    """The programme for a trace on a node list, its least unallocated GPU % and the solution that reaches it."""
    types = node_types(node_file)
    programme = Programme(types, pod_classes(pod_file, capacity(types)), place_if_fits)
    unallocated, solution = programme.solve()
    if unallocated is None:
        raise SystemExit(f"{pod_file}: the programme has no solution; is the node list empty?")
    return programme, unallocated, solution


def latest_first_refusal(types, classes_at, resolution=0.0005):
    """The largest share of the cluster's GPU capacity (0..1, to the resolution) whose arrived GPU pods, in expected
    counts (classes_at(share): the pod classes arrived by then), can all be placed together: the latest arrived share
    at which any placement can refuse its first GPU pod."""

    def all_placed(share):
        unallocated, _ = Programme(types, classes_at(share), place_all=True).solve()
        return unallocated is not None

    if all_placed(1.0):
        return 1.0
    placed, refused = 0.0, 1.0
    while refused - placed > resolution:
        middle = (placed + refused) / 2
        if all_placed(middle):
            placed = middle
        else:
            refused = middle
    return placed


def dominates(c, key):
    """Whether a pod of class c fits nowhere once a pod of the key class fits nowhere: it asks at least the key's CPU
    and memory and, if the key asks a GPU share, at least that share of each of its GPUs on no model the key does not
    allow. (A CPU-only key fits nowhere when no node has its CPU and memory.)"""
    if c == key or c[2] < key[2] or c[3] < key[3]:
        return False
    if key[0] == 0:
        return True
    return c[0] >= 1 and c[1] >= key[1] and (not key[4] or (bool(c[4]) and c[4] <= key[4]))


def main(argv):
    show_types = "--by-type" in argv
    place_if_fits = "--place-if-fits" in argv
    first_refusal = "--first-refusal" in argv
    files = [a for a in argv[1:] if a not in ("--by-type", "--place-if-fits", "--first-refusal")]
    if len(files) < 2 or (place_if_fits and first_refusal):
        raise SystemExit(__doc__)
    types = node_types(files[0]) if first_refusal else None
    for pod_file in files[1:]:
        if first_refusal:
            # the expected counts at arrived share s are those at 100 % times s: read the pod list once
            full = pod_classes(pod_file, capacity(types))
            share = 100 * latest_first_refusal(types, lambda s: {c: n * s for c, n in full.items()})
            print(f"{pod_file}: first refusal at arrived <= {share:.2f} %; a placement that places nothing after it "
                  f"leaves >= {100 - share:.2f} % unallocated", flush=True)
            continue
        programme, unallocated, solution = bound(files[0], pod_file, place_if_fits)
        rule = ", placing every pod that fits" if place_if_fits else ""
        print(f"{pod_file}: unallocated GPU % at arrived 100 %{rule} >= {unallocated:.2f} "
              f"({len(programme.patterns)} fraction patterns, {len(programme.columns)} variables)", flush=True)
        if show_types:
            print("\n".join(programme.by_type(solution)))


if __name__ == "__main__":
    main(sys.argv)
