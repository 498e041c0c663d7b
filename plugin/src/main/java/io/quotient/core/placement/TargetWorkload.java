package io.quotient.core.placement;

import io.quotient.core.cluster.ResourceDemand;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.ToLongFunction;

/**
 * The "target workload" M of the FGD paper: the task shapes a cluster expects, each with its
 * probability. Fragmentation is measured against it: idle GPU capacity counts as fragmented for a
 * shape when that shape could not use it.
 *
 * @param shapes the shapes, probabilities summing to 1 (normalised on construction)
 */
public record TargetWorkload(List<Shape> shapes) {

    /** Share of pods the most frequent shapes must cover (docs/research/packing.md: smallest prefix covering 95 %). */
    public static final double COVERAGE = 0.95;

    /**
     * One task shape. Memory is not part of a shape (the FGD definition ignores it).
     *
     * @param gpuMilli      per-GPU share, 0 for CPU-only shapes
     * @param allowedModels GPU models the shape may use; empty means any
     */
    public record Shape(long cpuMilli, int gpuCount, int gpuMilli, Set<String> allowedModels, double probability) {

        /** The per-GPU share of a whole GPU. */
        public static final int WHOLE = ResourceDemand.WHOLE;

        public Shape {
            allowedModels = allowedModels == null ? Set.of() : Set.copyOf(allowedModels);
            if (cpuMilli < 0 || gpuCount < 0 || gpuMilli < 0 || gpuMilli > ResourceDemand.WHOLE || probability < 0) {
                throw new IllegalArgumentException("invalid workload shape: cpu=" + cpuMilli + " gpus=" + gpuCount
                        + " milli=" + gpuMilli + " p=" + probability);
            }
            if (gpuCount > 0 && gpuMilli == 0) {
                throw new IllegalArgumentException("a GPU shape needs a per-GPU share in 1..1000");
            }
        }

        public boolean cpuOnly() {
            return gpuCount == 0;
        }

        public boolean allowsModel(String model) {
            return allowedModels.isEmpty() || allowedModels.contains(model);
        }

        /**
         * The shape of one demand, probability 0 (a key for counting).
         *
         * @throws IllegalArgumentException for a share in GPU MiB: it is only known in milli on a chosen node
         */
        public static Shape of(ResourceDemand d) {
            if (d.gpuCount() > 0 && d.gpuMemoryMib() > 0) {
                throw new IllegalArgumentException("target workload needs GPU shares in milli, not MiB: " + d);
            }
            return new Shape(d.cpuMilli(), d.gpuCount(), d.gpuCount() == 0 ? 0 : d.gpuMilli(), d.allowedModels(), 0);
        }

        Shape withProbability(double p) {
            return new Shape(cpuMilli, gpuCount, gpuMilli, allowedModels, p);
        }
    }

    /** The FGD simulator's order of shapes with equal counts, ascending (the workload takes them descending). */
    private static final Comparator<Shape> SHAPE_ORDER = Comparator.comparingLong(Shape::cpuMilli)
            .thenComparingInt(Shape::gpuMilli)
            .thenComparingInt(Shape::gpuCount)
            .thenComparing(s -> String.join("|", new TreeSet<>(s.allowedModels())));

    public TargetWorkload {
        if (shapes == null || shapes.isEmpty()) {
            throw new IllegalArgumentException("a target workload needs at least one shape");
        }
        double total = shapes.stream().mapToDouble(Shape::probability).sum();
        if (!(total > 0)) {
            throw new IllegalArgumentException("target workload probabilities must sum to more than 0");
        }
        shapes = shapes.stream()
                .map(s -> s.withProbability(s.probability() / total))
                .toList();
    }

    /**
     * The workload of a trace: count shapes (cpu, per-GPU share, GPU count, allowed models), most
     * frequent first, keep the smallest prefix covering {@link #COVERAGE} of the demands, renormalise.
     * Ties in count go to the larger shape (CPU, then per-GPU share, GPU count, models), as the FGD
     * simulator orders them, so the result does not depend on the order of the trace.
     * MiB demands are not representable without a node and must be converted by the caller.
     */
    public static TargetWorkload fromDemands(List<ResourceDemand> trace) {
        if (trace.isEmpty()) {
            throw new IllegalArgumentException("cannot derive a target workload from an empty trace");
        }
        Map<Shape, Integer> counts = new LinkedHashMap<>();
        for (ResourceDemand d : trace) {
            counts.merge(Shape.of(d), 1, Integer::sum);
        }
        return fromCounts(counts);
    }

    /**
     * The workload of shapes counted elsewhere (keys with any probability; {@link WorkloadLearner}): as
     * {@link #fromDemands}, the most frequent shapes covering {@link #COVERAGE} of the count, in an order that does
     * not depend on the map's.
     */
    public static TargetWorkload fromCounts(Map<Shape, Integer> counts) {
        long total = counts.values().stream().mapToLong(Integer::longValue).sum();
        if (total <= 0) {
            throw new IllegalArgumentException("cannot derive a target workload from no demands");
        }
        List<Map.Entry<Shape, Integer>> sorted = new ArrayList<>(counts.entrySet());
        sorted.sort(Map.Entry.<Shape, Integer>comparingByValue()
                .thenComparing(Map.Entry::getKey, SHAPE_ORDER)
                .reversed());
        List<Shape> kept = new ArrayList<>();
        long covered = 0;
        for (Map.Entry<Shape, Integer> e : sorted) {
            kept.add(e.getKey().withProbability(e.getValue()));
            covered += e.getValue();
            if (covered >= COVERAGE * total) {
                break;
            }
        }
        return new TargetWorkload(kept);
    }

    /**
     * What the GPU jobs ask per job of the workload, weighted by probability: CPU milli and GPU milli (count × share).
     * The forecast's CPU per GPU milli, the CPU-only excess and the service's CPU fitting all start from it.
     */
    public record GpuDemand(double cpuMilli, double gpuMilli) {

        /** CPU milli per GPU milli; 0 without GPU demand. */
        public double cpuPerMilli() {
            return gpuMilli == 0 ? 0 : cpuMilli / gpuMilli;
        }
    }

    /** The GPU jobs' demand of this workload. */
    public GpuDemand gpuDemand() {
        return gpuDemand(shapes);
    }

    /** The GPU jobs' demand of these shapes (CPU-only shapes count for nothing). */
    static GpuDemand gpuDemand(List<Shape> shapes) {
        double cpu = 0;
        double gpu = 0;
        for (Shape s : shapes) {
            if (!s.cpuOnly()) {
                cpu += s.probability() * s.cpuMilli();
                gpu += s.probability() * s.gpuCount() * s.gpuMilli();
            }
        }
        return new GpuDemand(cpu, gpu);
    }

    /**
     * This workload with every GPU shape asking for at most {@code capOf(shape)} CPU milli; shapes asking for less,
     * and CPU-only shapes, are unchanged ({@link ClusterFittedWorkload}).
     */
    TargetWorkload withCpuAtMost(ToLongFunction<Shape> capOf) {
        return new TargetWorkload(shapes.stream()
                .map(s -> {
                    long cap = capOf.applyAsLong(s);
                    return s.cpuOnly() || s.cpuMilli() <= cap
                            ? s
                            : new Shape(cap, s.gpuCount(), s.gpuMilli(), s.allowedModels(), s.probability());
                })
                .toList());
    }

    /**
     * A default for a live service that has not observed its own workload yet: mostly single GPUs
     * and halves/quarters, some multi-GPU training jobs and CPU-only pods, loosely following the
     * openb production trace.
     */
    public static TargetWorkload typical() {
        return new TargetWorkload(List.of(
                new Shape(8_000, 1, 1000, Set.of(), 0.30),
                new Shape(4_000, 1, 500, Set.of(), 0.15),
                new Shape(4_000, 1, 250, Set.of(), 0.15),
                new Shape(2_000, 1, 100, Set.of(), 0.05),
                new Shape(16_000, 2, 1000, Set.of(), 0.08),
                new Shape(32_000, 4, 1000, Set.of(), 0.07),
                new Shape(64_000, 8, 1000, Set.of(), 0.05),
                new Shape(4_000, 0, 0, Set.of(), 0.15)));
    }
}
