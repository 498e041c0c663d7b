package io.quotient.sim;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.placement.QuotientSettings;
import io.quotient.core.placement.TieBreak;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Quotient against FGD over the robustness grid of generated trace families ({@link FamilyBenchmark#grid()}) on the
 * full openb cluster, seeds 42..51: per family FGD's mean unallocated GPU % at 100 % arrived, then for Quotient's
 * policy, the policy as the service wraps it (with the trace's workload) and as the service runs it (the workload
 * learned from the pods that arrived so far, typical until a few hundred have): the mean, the ratio to FGD, the worst
 * seed's ratio and placements per second.
 * Prints the table and the JSON ({@code target/robustness.json}); the sensitivity test varies Quotient's three
 * constants on a subset. One thread unless {@code -Dbenchmark.threads=N}.
 * Run: {@code mvn -B -Pbenchmarks -pl plugin test -Dtest=RobustnessBenchmark -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("benchmark")
class RobustnessBenchmark {

    private static final Path DATA = Path.of(System.getProperty("quotient.data.dir", "../data/openb"));
    /** Seeds 42..51 by default; {@code -Dbenchmark.seeds=52..61} measures members never looked at while choosing. */
    private static final List<Long> SEEDS =
            Seeds.parse(System.getProperty("benchmark.seeds", "42..51"), "benchmark.seeds");

    private static final Map<String, List<TracePod>> BASES = new ConcurrentHashMap<>();

    /** A shipped variant by name ({@code default}), or a pod list by its path (a published family's file). */
    private static List<TracePod> base(String variant) {
        return BASES.computeIfAbsent(variant, v -> TraceReader.readPods(PodLists.resolve(v, () -> DATA)));
    }

    private static List<FamilyBenchmark.Row> run(
            List<Placement> placements, List<Long> seeds, List<FamilyBenchmark.Family> families) {
        return run(TraceReader.readNodes(DATA.resolve("openb_node_list_gpu_node.csv")), placements, seeds, families);
    }

    private static List<FamilyBenchmark.Row> run(
            List<NodeSpec> nodes, List<Placement> placements, List<Long> seeds, List<FamilyBenchmark.Family> families) {
        ExecutorService pool = Executors.newFixedThreadPool(Integer.getInteger("benchmark.threads", 1));
        try {
            FamilyBenchmark benchmark = new FamilyBenchmark(nodes, RobustnessBenchmark::base, placements, seeds, pool);
            List<FamilyBenchmark.Row> rows = new ArrayList<>();
            for (FamilyBenchmark.Family family : families) {
                rows.add(benchmark.run(family));
                System.out.print(FamilyReport.text(rows.subList(rows.size() - 1, rows.size()))
                                .lines()
                                .skip(1)
                                .findFirst()
                                .orElse("")
                        + "\n");
            }
            return rows;
        } finally {
            pool.shutdownNow();
        }
    }

    private static void report(String name, List<FamilyBenchmark.Row> rows) throws IOException {
        System.out.println();
        System.out.print(FamilyReport.text(rows));
        String json = FamilyReport.json(rows);
        Path file = Path.of("target", name + ".json");
        Files.createDirectories(file.getParent());
        Files.writeString(file, json + "\n");
        System.out.println(json);
    }

    @Test
    void quotientAgainstFgdOnEveryFamilyOfTheGrid() throws IOException {
        report("robustness", run(gridPlacements(), SEEDS, FamilyBenchmark.grid()));
    }

    /** FGD (the reference), Quotient's policy, and the service's placement with the trace's and the learned workload. */
    private static List<Placement> gridPlacements() {
        return List.of(
                Placement.policy("fgd", TieBreak.FIXED_ORDER),
                Placement.policy("quotient", TieBreak.FIXED_ORDER),
                Placement.service("quotient", Placement.ServiceWorkload.TRACE, TieBreak.FIXED_ORDER),
                Placement.service("quotient", Placement.ServiceWorkload.LEARNED, TieBreak.FIXED_ORDER));
    }

    /**
     * The same placements on the model-pinned families ({@link FamilyBenchmark#pinned()}) generated on the nodes of
     * {@code -Dbenchmark.nodes=FILE}, a node list in the openb format such as the Alibaba PAI 2020 machines
     * ({@code pai2020_node_list_gpu_node.csv}, docs/research/packing.md, "Model pins on small machines"); the pods are
     * drawn from the shipped openb variants, their pins by that cluster's GPUs per model.
     */
    @Test
    void quotientAgainstFgdOnModelPinnedFamilies() throws IOException {
        String file = System.getProperty("benchmark.nodes");
        if (file == null) {
            throw new IllegalArgumentException("pass the cluster to pin on as -Dbenchmark.nodes=FILE (a node list "
                    + "sn,cpu_milli,memory_mib,gpu,model such as the PAI 2020 machines)");
        }
        List<NodeSpec> nodes = TraceReader.readNodes(Path.of(file));
        report("robustness-pinned", run(nodes, gridPlacements(), SEEDS, FamilyBenchmark.pinned()));
    }

    /**
     * The same placements on pod lists as published, each replayed as {@code simulate} replays it: every
     * {@code openb_pod_list_*.csv} of {@code -Dbenchmark.published=DIR}, by default the shipped variants. Pointed at
     * alibaba/clusterdata's {@code cluster-trace-gpu-v2023/csv} it measures the published {@code gpuspec} and
     * {@code multigpu} families, which are not shipped here (docs/research/packing.md, "The published families").
     */
    @Test
    void quotientAgainstFgdOnPublishedPodLists() throws IOException {
        Path folder = Path.of(System.getProperty("benchmark.published", DATA.toString()));
        List<FamilyBenchmark.Family> families;
        try (Stream<Path> files = Files.list(folder)) {
            families = files.filter(PodLists::isPodList)
                    .map(Path::toString)
                    .sorted()
                    .map(FamilyBenchmark.Family::asPublished)
                    .toList();
        }
        if (families.isEmpty()) {
            throw new IllegalArgumentException("no openb_pod_list_*.csv in " + folder.toAbsolutePath()
                    + "; point -Dbenchmark.published at a folder of openb pod lists");
        }
        report("robustness-published", run(gridPlacements(), SEEDS, families));
    }

    /** Each constant moved on its own around the default, on one family per axis (or those named), five seeds. */
    @Test
    void sensitivityOfQuotientsConstants() throws IOException {
        List<Placement> placements = new ArrayList<>(List.of(Placement.policy("fgd", TieBreak.FIXED_ORDER)));
        QuotientSettings chosen = QuotientSettings.DEFAULT;
        placements.add(Placement.quotient(chosen, TieBreak.FIXED_ORDER));
        // -Dsensitivity.axes=fragmentation moves only that constant (the others' rows cost a run each)
        List<String> axes = List.of(System.getProperty("sensitivity.axes", "reserve,rare,fragmentation")
                .split(","));
        for (double weight : axes.contains("reserve") ? new double[] {0, 0.5, 2, 4} : new double[0]) {
            placements.add(Placement.quotient(
                    new QuotientSettings(weight, chosen.rareSizeShare(), chosen.fragmentationWeight()),
                    TieBreak.FIXED_ORDER));
        }
        for (double rare : axes.contains("rare") ? new double[] {0, 0.015, 0.05, 0.08} : new double[0]) {
            placements.add(Placement.quotient(
                    new QuotientSettings(chosen.reserveWeight(), rare, chosen.fragmentationWeight()),
                    TieBreak.FIXED_ORDER));
        }
        for (double fragmentation :
                axes.contains("fragmentation") ? new double[] {0, 0.02, 0.1, 0.25, 1} : new double[0]) {
            placements.add(Placement.quotient(
                    new QuotientSettings(chosen.reserveWeight(), chosen.rareSizeShare(), fragmentation),
                    TieBreak.FIXED_ORDER));
        }
        List<FamilyBenchmark.Family> families = new ArrayList<>();
        // -Dsensitivity.families=cpu30 re-measures one column (a change that moves only that family)
        for (String name : System.getProperty(
                        "sensitivity.families",
                        "spec33,tspec20,tspec33,share40,share80,share100-multi0,multi50,cpu30,share80-multi20")
                .split(",")) {
            families.add(FamilyBenchmark.grid().stream()
                    .filter(f -> f.family().name().equals(name))
                    .findFirst()
                    .orElseThrow());
        }
        report("robustness-sensitivity", run(placements, SEEDS.subList(0, 5), families));
    }
}
