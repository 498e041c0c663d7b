package io.quotient.sim;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Derives a {@link TraceFamily} member from a base openb pod list, deterministically per seed, the way the FGD
 * paper's variants were made from {@code default}:
 * <ol>
 *   <li><b>GPU demand mix</b> (gpushare, multi-GPU): the GPU pods are split into three pools: a fraction of one
 *   GPU, one whole GPU, several GPUs. The number of GPU pods stays; each pool gets the count whose expected
 *   demand (count × the pool's mean demand) makes its target share, keeping the base's own pods first (a random
 *   subset when fewer are needed) and drawing more from the pool with replacement when more are needed.</li>
 *   <li><b>CPU-only share</b> (cpuNNN): CPU-only pods are removed or drawn again the same way until they are
 *   the target share of all pods; the GPU pods do not change.</li>
 *   <li><b>gpu_spec share</b> (gpuspecNN): that share of the GPU pods, chosen at random, is constrained to GPU
 *   models, among the models with a node that can hold the pod (enough GPUs, CPU and memory), so that no
 *   constraint makes a pod impossible. By the cluster's mix: one model, or (for {@value #MULTI_MODEL_PCT} % of
 *   them) two to four, drawn without replacement with weights by the cluster's GPUs per model. By the trace's
 *   mix: a constraint of the base trace drawn uniformly (gpuspec05's are 55 % T4-only, on a cluster with 14 %
 *   of its GPUs T4), so the published families' skew toward scarce models is kept. Base constraints are
 *   cleared first.</li>
 * </ol>
 * Pods are then shuffled and named {@code openb-pod-NNNN}; the protocol sorts by name and shuffles again per
 * simulation seed, so names carry no order of their own.
 */
public final class TraceGenerator {

    /** Share of constrained pods allowed on several models (gpuspec05 has 55 of 369). */
    static final int MULTI_MODEL_PCT = 15;

    private static final int MAX_MODELS = 4;

    private final List<TracePod> base;
    private final List<NodeSpec> nodes;
    private final Map<String, Integer> gpusByModel = new LinkedHashMap<>();
    private final List<Set<String>> baseSpecs;

    public TraceGenerator(List<TracePod> base, List<NodeSpec> nodes) {
        if (base.isEmpty()) {
            throw new IllegalArgumentException("the base trace has no pods");
        }
        this.base = base.stream().sorted(Comparator.comparing(TracePod::name)).toList();
        this.nodes = List.copyOf(nodes);
        this.baseSpecs = this.base.stream()
                .map(p -> p.demand().allowedModels())
                .filter(m -> !m.isEmpty())
                .toList();
        nodes.stream()
                .filter(n -> n.gpuCount() > 0)
                .sorted(Comparator.comparing(NodeSpec::gpuModel))
                .forEach(n -> gpusByModel.merge(n.gpuModel(), n.gpuCount(), Integer::sum));
    }

    /** The family member for this seed. */
    public List<TracePod> generate(TraceFamily family, long seed) {
        Random random = new Random(seed);
        boolean clearSpecs = family.gpuSpecShare() != null;
        List<TracePod> cpuOnly = pool(Kind.CPU_ONLY, clearSpecs);
        List<TracePod> gpuPods = gpuMix(family, random, clearSpecs);
        List<TracePod> pods = new ArrayList<>(gpuPods);
        if (family.cpuOnlyShare() == null) {
            pods.addAll(cpuOnly);
        } else {
            double c = family.cpuOnlyShare();
            int wanted = (int) Math.round(c * gpuPods.size() / (1 - c));
            pods.addAll(take(cpuOnly, wanted, "CPU-only", random));
        }
        if (family.gpuSpecShare() != null) {
            constrain(pods, family.gpuSpecShare(), family.modelMix(), random);
        }
        Collections.shuffle(pods, random);
        int digits = Math.max(4, String.valueOf(pods.size() - 1).length());
        List<TracePod> named = new ArrayList<>(pods.size());
        for (int i = 0; i < pods.size(); i++) {
            named.add(new TracePod(
                    String.format("openb-pod-%0" + digits + "d", i), pods.get(i).demand()));
        }
        return named;
    }

    private enum Kind {
        CPU_ONLY,
        FRACTIONAL,
        WHOLE,
        MULTI
    }

    private static Kind kind(ResourceDemand d) {
        if (d.gpuCount() == 0) {
            return Kind.CPU_ONLY;
        }
        if (d.gpuCount() > 1) {
            return Kind.MULTI;
        }
        return d.gpuMilli() < ResourceDemand.WHOLE ? Kind.FRACTIONAL : Kind.WHOLE;
    }

    private List<TracePod> pool(Kind kind, boolean clearSpecs) {
        return base.stream()
                .filter(p -> kind(p.demand()) == kind)
                .map(p -> clearSpecs && !p.demand().allowedModels().isEmpty() ? withModels(p, Set.of()) : p)
                .toList();
    }

    private List<TracePod> gpuMix(TraceFamily family, Random random, boolean clearSpecs) {
        List<TracePod> fractional = pool(Kind.FRACTIONAL, clearSpecs);
        List<TracePod> whole = pool(Kind.WHOLE, clearSpecs);
        List<TracePod> multi = pool(Kind.MULTI, clearSpecs);
        if (family.fractionalShare() == null && family.multiGpuShare() == null) {
            List<TracePod> all = new ArrayList<>(fractional);
            all.addAll(whole);
            all.addAll(multi);
            return all;
        }
        double total = demand(fractional) + demand(whole) + demand(multi);
        if (total == 0) {
            throw new IllegalArgumentException("the base trace has no GPU pods to mix");
        }
        double f = family.fractionalShare() != null ? family.fractionalShare() : demand(fractional) / total;
        double m = family.multiGpuShare() != null ? family.multiGpuShare() : demand(multi) / total;
        // a share kept from the base may not leave room for the other target: scale the kept one down
        if (f + m > 1) {
            if (family.fractionalShare() == null) {
                f = 1 - m;
            } else {
                m = 1 - f;
            }
        }
        double w = Math.max(0, 1 - f - m);
        double perF = weight(f, fractional, "fractional");
        double perW = weight(w, whole, "whole-GPU");
        double perM = weight(m, multi, "multi-GPU");
        int count = fractional.size() + whole.size() + multi.size();
        double sum = perF + perW + perM;
        int nF = (int) Math.round(count * perF / sum);
        int nM = (int) Math.round(count * perM / sum);
        int nW = w == 0 ? 0 : Math.max(0, count - nF - nM);
        List<TracePod> pods = new ArrayList<>(take(fractional, nF, "fractional", random));
        pods.addAll(take(whole, nW, "whole-GPU", random));
        pods.addAll(take(multi, nM, "multi-GPU", random));
        return pods;
    }

    /** Pods per unit of demand share: share / mean demand of the pool. */
    private static double weight(double share, List<TracePod> pool, String what) {
        if (share == 0) {
            return 0;
        }
        if (pool.isEmpty()) {
            throw new IllegalArgumentException("the base trace has no " + what + " pods, so no share of "
                    + TraceFamily.percent(share) + " can be drawn from it; use a base trace that has some");
        }
        return share / (demand(pool) / pool.size());
    }

    private static double demand(List<TracePod> pods) {
        return pods.stream().mapToLong(TracePod::gpuMilli).sum();
    }

    /** {@code wanted} pods of the pool: its own first (a random subset if fewer), then drawn with replacement. */
    private static List<TracePod> take(List<TracePod> pool, int wanted, String what, Random random) {
        if (wanted > 0 && pool.isEmpty()) {
            throw new IllegalArgumentException("the base trace has no " + what + " pods to draw " + wanted + " from");
        }
        List<TracePod> shuffled = new ArrayList<>(pool);
        Collections.shuffle(shuffled, random);
        List<TracePod> taken = new ArrayList<>(shuffled.subList(0, Math.min(wanted, shuffled.size())));
        while (taken.size() < wanted) {
            taken.add(pool.get(random.nextInt(pool.size())));
        }
        return taken;
    }

    private void constrain(List<TracePod> pods, double share, TraceFamily.ModelMix mix, Random random) {
        if (mix == TraceFamily.ModelMix.TRACE && baseSpecs.isEmpty()) {
            throw new IllegalArgumentException("the base trace has no gpu_spec constraints to draw models from; use a "
                    + "base that has some (such as gpuspec05) or draw models by the cluster's mix");
        }
        List<Integer> gpuIndices = new ArrayList<>();
        for (int i = 0; i < pods.size(); i++) {
            if (pods.get(i).demand().needsGpu()) {
                gpuIndices.add(i);
            }
        }
        Collections.shuffle(gpuIndices, random);
        int constrained = (int) Math.round(share * gpuIndices.size());
        for (int i : gpuIndices.subList(0, constrained)) {
            TracePod pod = pods.get(i);
            List<String> feasible = feasibleModels(pod.demand());
            if (feasible.isEmpty()) {
                continue; // fits no node at all; a constraint would change nothing
            }
            if (mix == TraceFamily.ModelMix.TRACE) {
                List<Set<String>> fitting = baseSpecs.stream()
                        .filter(set -> set.stream().anyMatch(feasible::contains))
                        .toList();
                if (!fitting.isEmpty()) {
                    pods.set(i, withModels(pod, fitting.get(random.nextInt(fitting.size()))));
                }
                continue;
            }
            int models = random.nextInt(100) < MULTI_MODEL_PCT
                    ? Math.min(feasible.size(), 2 + random.nextInt(MAX_MODELS - 1))
                    : 1;
            pods.set(i, withModels(pod, drawModels(feasible, models, random)));
        }
    }

    private List<String> feasibleModels(ResourceDemand d) {
        Set<String> models = new LinkedHashSet<>();
        for (NodeSpec n : nodes) {
            if (n.gpuCount() >= d.gpuCount() && n.cpuMilli() >= d.cpuMilli() && n.memoryMib() >= d.memoryMib()) {
                models.add(n.gpuModel());
            }
        }
        return gpusByModel.keySet().stream().filter(models::contains).toList();
    }

    /** {@code count} distinct models, each drawn with probability proportional to its GPUs in the cluster. */
    private Set<String> drawModels(List<String> feasible, int count, Random random) {
        List<String> left = new ArrayList<>(feasible);
        Set<String> chosen = new LinkedHashSet<>();
        while (chosen.size() < count) {
            long total = left.stream().mapToLong(gpusByModel::get).sum();
            long pick = (long) (random.nextDouble() * total);
            for (String model : left) {
                pick -= gpusByModel.get(model);
                if (pick < 0) {
                    chosen.add(model);
                    left.remove(model);
                    break;
                }
            }
        }
        return chosen;
    }

    private static TracePod withModels(TracePod pod, Set<String> models) {
        ResourceDemand d = pod.demand();
        return new TracePod(
                pod.name(), ResourceDemand.gpus(d.cpuMilli(), d.memoryMib(), d.gpuCount(), d.gpuMilli(), models));
    }
}
