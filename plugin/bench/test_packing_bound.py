"""Checks of packing_bound.py on clusters small enough to solve by hand: python3 -m unittest plugin/bench/test_packing_bound.py
(run from the repository root; needs SciPy, so it is not part of the Maven build)."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from packing_bound import Programme, dominates, latest_first_refusal  # noqa: E402

# ten nodes of one GPU, plenty of CPU and memory
NODES = {(64_000, 256_000, 1, "T4"): 10}
ANY = frozenset()


def pod(gpus, milli, cpu, memory=1024, models=ANY):
    return gpus, milli, cpu, memory, models


class PackingBoundTest(unittest.TestCase):

    def test_the_plain_bound_fails_810s_and_places_every_whole_gpu_pod(self):
        # 10 x 810 and 5 x 1000 on 10 GPUs: the best packing places the five whole pods and five 810s
        classes = {pod(1, 810, 1000): 10, pod(1, 1000, 2000): 5}
        unallocated, _ = Programme(NODES, classes).solve()
        self.assertAlmostEqual(100 - (5 * 1000 + 5 * 810) / 100, unallocated, places=6)

    def test_placing_what_fits_ties_whole_gpu_pods_to_the_810s_they_dominate(self):
        # the whole-GPU pods ask more of everything, so they stop fitting no later than the 810s: a share a of both
        # is placed, 10a + 5a GPUs <= 10, hence a = 2/3 and 13,100 milli x 2/3 placed
        classes = {pod(1, 810, 1000): 10, pod(1, 1000, 2000): 5}
        unallocated, _ = Programme(NODES, classes, place_if_fits=True).solve()
        self.assertAlmostEqual(100 - 13_100 * 2 / 3 / 100, unallocated, places=6)

    def test_a_whole_gpu_pod_with_less_cpu_is_not_tied_to_the_810s(self):
        # it may still fit where an 810 no longer does (the 810 lacks CPU there), so the plain optimum stands
        classes = {pod(1, 810, 4000): 10, pod(1, 1000, 2000): 5}
        unallocated, _ = Programme(NODES, classes, place_if_fits=True).solve()
        self.assertAlmostEqual(100 - (5 * 1000 + 5 * 810) / 100, unallocated, places=6)

    def test_the_first_refusal_comes_when_the_arrived_pods_need_more_gpus_than_there_are(self):
        # per unit of arrivals, 10 x 810 and 5 x 1000 (13,100 milli): all of them fit while 15k <= 10 GPUs, so at
        # most k = 2/3 of a unit, 2/3 x 13,100 milli of the 10,000 arrived
        share = latest_first_refusal(NODES, lambda s: {pod(1, 810, 1000): 10 * s * 10_000 / 13_100,
                                                       pod(1, 1000, 2000): 5 * s * 10_000 / 13_100})
        self.assertAlmostEqual(2 / 3 * 13_100 / 10_000, share, delta=0.001)

    def test_the_first_refusal_counts_the_gpu_pods_cpu_and_lets_cpu_only_pods_fail(self):
        # ten 2-GPU nodes of 4 cores, per unit 5 whole-GPU pods of 3 cores: the 20 GPUs would hold 4 units, the 40
        # cores 40 / 15 units, i.e. 2/3 of the 20,000 milli. The CPU-only pods, which would take the cores sooner,
        # may be refused first
        nodes = {(4_000, 256_000, 2, "T4"): 10}
        share = latest_first_refusal(nodes, lambda s: {pod(1, 1000, 3000): 5 * s * 20_000 / 5_000,
                                                       pod(0, 0, 2000): 5 * s * 20_000 / 5_000})
        self.assertAlmostEqual(2 / 3, share, delta=0.001)

    def test_dominance_asks_at_least_as_much_of_everything_on_no_other_model(self):
        key = pod(1, 810, 1000, 1024, frozenset({"T4"}))
        self.assertTrue(dominates(pod(8, 1000, 1000, 1024, frozenset({"T4"})), key))
        self.assertFalse(dominates(pod(1, 1000, 1000, 1024), key))  # may run on another model
        self.assertFalse(dominates(pod(1, 470, 1000, 1024, frozenset({"T4"})), key))
        self.assertFalse(dominates(pod(1, 1000, 1000, 512, frozenset({"T4"})), key))
        self.assertFalse(dominates(pod(0, 0, 2000, 2048), key))  # a CPU-only pod needs no GPU
        self.assertTrue(dominates(pod(1, 100, 2000, 2048), pod(0, 0, 1000, 1024)))
        self.assertFalse(dominates(key, key))


if __name__ == "__main__":
    unittest.main()
