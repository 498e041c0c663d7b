package io.quotient.sim;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * The order in which one simulated run submits pods (docs/research/packing.md): sort by name, shuffle with the run's
 * seed, then inflate by appending pods drawn uniformly with replacement from the (name-sorted) trace until
 * the total GPU request reaches {@code ratio} × the cluster's GPU milli (or drop random pods when the
 * trace already exceeds it).
 */
public final class ArrivalOrder {

    private ArrivalOrder() {}

    public static List<TracePod> of(List<TracePod> trace, long seed, long clusterGpuMilli, double ratio) {
        Random random = new Random(seed);
        List<TracePod> byName = new ArrayList<>(trace);
        byName.sort(Comparator.comparing(TracePod::name));
        List<TracePod> pods = new ArrayList<>(byName);
        Collections.shuffle(pods, random);
        long target = (long) Math.ceil(ratio * clusterGpuMilli);
        long total = pods.stream().mapToLong(TracePod::gpuMilli).sum();
        if (total > target) {
            while (total > target) {
                TracePod dropped = pods.remove(random.nextInt(pods.size()));
                total -= dropped.gpuMilli();
            }
            return pods;
        }
        boolean anyGpu = trace.stream().anyMatch(p -> p.gpuMilli() > 0);
        while (anyGpu && total < target) {
            TracePod extra = byName.get(random.nextInt(byName.size()));
            pods.add(extra);
            total += extra.gpuMilli();
        }
        return pods;
    }
}
