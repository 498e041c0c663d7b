package io.quotient.sim;

import io.quotient.core.cluster.NodeSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * Runs several placements over generated trace families and compares each with the first (the reference,
 * FGD): for every family and seed, the member generated with that seed is simulated with that seed, so a
 * family's figure is the mean over as many different traces as seeds.
 */
public final class FamilyBenchmark {

    /**
     * One family of the grid: the shipped variant it derives from and the shares it sets; with
     * {@link TraceFamily#BASE} (no share set) the base pod list itself, as published.
     */
    public record Family(String base, TraceFamily family) {

        /** A pod list measured as it is: every seed replays it as {@code simulate} does; no member is generated. */
        public static Family asPublished(String podList) {
            return new Family(podList, TraceFamily.BASE);
        }

        public boolean published() {
            return family.equals(TraceFamily.BASE);
        }

        public String name() {
            if (published()) {
                return PodLists.variant(Path.of(base));
            }
            return family.name() + (base.equals("default") ? "" : " (from " + base + ")");
        }
    }

    /** One placement's results on one family: unallocated GPU % at 100 % arrived per seed, and speed. */
    public record Result(String placement, List<Double> unallocatedBySeed, double placementsPerSecond) {
        public double mean() {
            return unallocatedBySeed.stream()
                    .mapToDouble(Double::doubleValue)
                    .average()
                    .orElseThrow();
        }
    }

    /** A family's row: every placement's result, the reference first. */
    public record Row(Family family, List<Long> seeds, List<Result> results) {

        public Result reference() {
            return results.get(0);
        }

        /** Mean unallocated % of the placement over the reference's. */
        public double ratio(Result r) {
            return r.mean() / reference().mean();
        }

        /** The largest per-seed ratio to the reference: above 1 means it lost on that seed. */
        public double worstSeedRatio(Result r) {
            double worst = 0;
            for (int i = 0; i < seeds.size(); i++) {
                worst = Math.max(
                        worst,
                        r.unallocatedBySeed().get(i)
                                / reference().unallocatedBySeed().get(i));
            }
            return worst;
        }

        /** The seed of {@link #worstSeedRatio}. */
        public long worstSeed(Result r) {
            int worst = 0;
            for (int i = 1; i < seeds.size(); i++) {
                if (r.unallocatedBySeed().get(i)
                                / reference().unallocatedBySeed().get(i)
                        > r.unallocatedBySeed().get(worst)
                                / reference().unallocatedBySeed().get(worst)) {
                    worst = i;
                }
            }
            return seeds.get(worst);
        }
    }

    private final List<NodeSpec> nodes;
    private final Function<String, List<TracePod>> baseTraces;
    private final List<Placement> placements;
    private final List<Long> seeds;
    private final ExecutorService pool;
    private final Map<String, TraceGenerator> generators = new LinkedHashMap<>();

    /**
     * @param baseTraces the pod list of a shipped variant by name
     * @param placements the reference first
     * @param pool       runs the seeds of a family; one thread gives placements per second on one core
     */
    public FamilyBenchmark(
            List<NodeSpec> nodes,
            Function<String, List<TracePod>> baseTraces,
            List<Placement> placements,
            List<Long> seeds,
            ExecutorService pool) {
        if (placements.size() < 2 || seeds.isEmpty()) {
            throw new IllegalArgumentException("a family benchmark needs a reference and another placement, and seeds");
        }
        this.nodes = List.copyOf(nodes);
        this.baseTraces = baseTraces;
        this.placements = List.copyOf(placements);
        this.seeds = List.copyOf(seeds);
        this.pool = pool;
    }

    /**
     * Every placement on the family's member of each seed, simulated with that seed; a {@linkplain Family#published()
     * published} family's member is its pod list itself, so its figures are {@code simulate}'s on that file.
     */
    public Row run(Family family) {
        LongFunction<List<TracePod>> member;
        if (family.published()) {
            List<TracePod> podList = baseTraces.apply(family.base());
            member = seed -> podList;
        } else {
            TraceGenerator generator;
            synchronized (generators) {
                generator =
                        generators.computeIfAbsent(family.base(), b -> new TraceGenerator(baseTraces.apply(b), nodes));
            }
            member = seed -> generator.generate(family.family(), seed);
        }
        List<Future<List<RunResult>>> perSeed = new ArrayList<>();
        for (long seed : seeds) {
            perSeed.add(pool.submit(() -> {
                Simulator simulator = new Simulator(nodes, member.apply(seed), Simulator.DEFAULT_INFLATION);
                return placements.stream()
                        .map(p -> simulator.run(p, seed, Simulator.Progress.NONE))
                        .toList();
            }));
        }
        List<List<RunResult>> runs = new ArrayList<>();
        try {
            for (Future<List<RunResult>> f : perSeed) {
                runs.add(f.get());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while simulating " + family.name(), e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("simulating " + family.name() + " failed: " + e.getCause(), e.getCause());
        }
        List<Result> results = new ArrayList<>();
        for (int p = 0; p < placements.size(); p++) {
            int index = p;
            results.add(new Result(
                    placements.get(p).label(),
                    runs.stream()
                            .map(r -> r.get(index).unallocatedGpuPctAt100())
                            .toList(),
                    runs.stream()
                            .mapToDouble(r -> r.get(index).placementsPerSecond())
                            .average()
                            .orElseThrow()));
        }
        return new Row(family, seeds, results);
    }

    /**
     * The robustness grid: each axis of the published families swept from the {@code default} trace (gpu_spec
     * share with models by the cluster's mix and, from {@code gpuspec05}, by the trace's own skewed mix; the
     * fractional share of the GPU demand; the multi-GPU share; the CPU-only share), plus families that move
     * several axes at once, among them CPU-short clusters (30 % CPU-only) with fractions and with multi-GPU jobs.
     */
    public static List<Family> grid() {
        List<Family> grid = new ArrayList<>();
        for (double spec : new double[] {0, 0.10, 0.20, 0.33, 0.50}) {
            grid.add(new Family("default", new TraceFamily(spec, null, null, null)));
        }
        for (double spec : new double[] {0.10, 0.20, 0.33, 0.50}) {
            grid.add(new Family("gpuspec05", new TraceFamily(spec, null, null, null, TraceFamily.ModelMix.TRACE)));
        }
        for (double share : new double[] {0.20, 0.40, 0.60, 0.80, 1.0}) {
            grid.add(new Family("default", new TraceFamily(null, share, share == 1.0 ? 0.0 : null, null)));
        }
        for (double multi : new double[] {0.20, 0.35, 0.50}) {
            grid.add(new Family("default", new TraceFamily(null, null, multi, null)));
        }
        for (double cpu : new double[] {0, 0.15, 0.30}) {
            grid.add(new Family("default", new TraceFamily(null, null, null, cpu)));
        }
        grid.add(new Family("gpuspec05", new TraceFamily(0.20, 0.60, null, null, TraceFamily.ModelMix.TRACE)));
        grid.add(new Family("gpuspec05", new TraceFamily(0.33, null, 0.30, null, TraceFamily.ModelMix.TRACE)));
        grid.add(new Family("gpuspec05", new TraceFamily(0.20, null, null, 0.30, TraceFamily.ModelMix.TRACE)));
        grid.add(new Family("default", new TraceFamily(0.20, 0.40, 0.20, 0.20)));
        grid.add(new Family("default", new TraceFamily(null, 0.80, 0.20, null)));
        // CPU-short clusters with fractions and with many multi-GPU jobs
        grid.add(new Family("default", new TraceFamily(null, 0.60, null, 0.30)));
        grid.add(new Family("default", new TraceFamily(null, null, 0.35, 0.30)));
        return grid;
    }

    /**
     * Families pinned to GPU models by the cluster's mix (each pinned pod's models drawn with weights by the
     * cluster's GPUs per model, among the models with a node that holds it), for a cluster other than openb's, each
     * next to its unpinned form: the {@code default} mix with none, half and all of the GPU pods pinned, with 60 %
     * of the GPU demand fractional, with 35 % multi-GPU, and fractions only.
     */
    public static List<Family> pinned() {
        List<Family> families = new ArrayList<>();
        families.add(new Family("default", new TraceFamily(0.50, null, null, null)));
        for (double spec : new double[] {0, 1}) {
            families.add(new Family("default", new TraceFamily(spec, null, null, null)));
            families.add(new Family("default", new TraceFamily(spec, 0.60, null, null)));
            families.add(new Family("default", new TraceFamily(spec, null, 0.35, null)));
            families.add(new Family("default", new TraceFamily(spec, 1.0, 0.0, null)));
        }
        return families;
    }
}
