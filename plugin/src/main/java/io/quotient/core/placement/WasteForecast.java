package io.quotient.core.placement;

import io.quotient.core.cluster.NodeSpec;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * Quotient's measure of the GPU capacity a node is likely to lose for good, from its free resources and
 * the target workload. Three parts, all in GPU milli:
 * <ol>
 *   <li><b>Slivers.</b> For a GPU with {@code g} milli free, {@code W(g)} is the share expected to stay idle
 *   if the pod sizes of the workload keep arriving and each one that fits is placed there:
 *   {@code W(g) = Σ_d w_d · W(g − d) / Σ_d w_d} over the sizes d ≤ g, and {@code W(g) = g} when none fits.
 *   Fraction sizes making up less than {@value #RARE_SIZE_SHARE} of the fractional demand are not counted on
 *   to fill a gap: in a cluster thousands of gaps compete for those few pods, so a gap only they fit stays
 *   idle (without this, an 810-milli pod looks harmless because a rare 160-milli pod "could" fill its 190
 *   leftover). Rarity is measured among the fractions only, because only they can fill a partly used GPU:
 *   how many whole-GPU jobs a trace has must not change which fractions count as common.
 *   Unlike FGD's F, which asks only whether one more pod of each shape fits, W follows a GPU to the end of
 *   its life and so prefers leftovers that combine well (two 470s, three 320s) over ones that do not.
 *   On a GPU model, the sizes are those that may land on it, in the proportions of the whole workload's fractions:
 *   with pods pinned to models, the workload's most frequent shapes leave out the rarer (size, model) pairs, and a
 *   model's own proportions would overstate its commonest sizes.</li>
 *   <li><b>Shapes the node cannot host.</b> The probability mass of the GPU shapes the node lacks CPU for,
 *   or (multi-GPU shapes) lacks enough GPUs with the share free for, times the idle GPU not already
 *   counted as slivers (FGD's test, without counting twice): whole free nodes stay whole for large jobs.</li>
 *   <li><b>CPU too small for the GPUs.</b> {@code max(0, R − freeCpu/ρ)} with ρ the CPU per GPU milli that
 *   future jobs take from GPU nodes: GPUs left without the CPU that jobs typically bring along. FGD only notices
 *   when a single pod no longer fits; this sees a GPU-dense node being drained of CPU by CPU-heavy or CPU-only
 *   pods early. ρ is the GPU jobs' CPU per GPU milli, plus, on a cluster whose spare CPU (beyond what its GPUs'
 *   jobs need) cannot hold the CPU-only jobs' demand, the excess spread over its GPUs ({@link #forCluster}):
 *   those jobs will then take CPU that GPU jobs would need, and the forecast must see it coming. On such a
 *   cluster CPU decides which GPU jobs still fit, and one figure for all of them is too coarse: the shortfall is
 *   then taken class by class over the milli the forecast expects to fill ({@link CpuShortfall}).</li>
 * </ol>
 * Tables are per GPU model (models restrict which shapes count) and built once per workload: a table costs some
 * twenty thousand steps (each gap against the few dozen sizes that fill gaps), and the service makes a policy for
 * every decision, so {@link #forWorkload} hands out the forecast of a recently used workload again. Thread-safe.
 */
final class WasteForecast implements NodeMeasure {

    /** Forecasts of the workloads used last (a service uses one, or a few while its nodes change). */
    private static final int RECENT_WORKLOADS = 8;

    private static final Map<Key, WasteForecast> RECENT =
            Collections.synchronizedMap(new LinkedHashMap<>(RECENT_WORKLOADS, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<Key, WasteForecast> eldest) {
                    return size() > RECENT_WORKLOADS;
                }
            });

    /** Fraction sizes below this share of the fractional demand are too rare to fill gaps (see the class comment). */
    static final double RARE_SIZE_SHARE = QuotientSettings.DEFAULT.rareSizeShare();

    /** An excess below this share of the GPU jobs' own CPU per milli is rounding, not a shortage. */
    private static final double FITTING_RESIDUE = 1e-3;

    private record Key(TargetWorkload workload, double rareSizeShare, double excessCpuPerMilli) {}

    private final double rareSizeShare;

    private final List<TargetWorkload.Shape> gpuShapes;
    private final CpuShortfall cpuShortfall;
    private final Map<String, double[]> slivers = new ConcurrentHashMap<>();
    private final Map<String, ShapeGroups> allowedShapes = new ConcurrentHashMap<>();
    // held, not passed as method references at the call: those are allocated on every call, and these run per score
    private final Function<String, double[]> sliverTable = this::sliverTable;
    private final Function<String, ShapeGroups> allowedOn;

    /** The forecast for this workload, shared with earlier callers of an equal workload (tables and all). */
    static WasteForecast forWorkload(TargetWorkload workload) {
        return forWorkload(workload, RARE_SIZE_SHARE);
    }

    /** The same with another rare-size share (the sensitivity table). */
    static WasteForecast forWorkload(TargetWorkload workload, double rareSizeShare) {
        return forWorkload(workload, rareSizeShare, 0);
    }

    /**
     * The forecast on these nodes: ρ also counts the CPU-only jobs' CPU that the nodes' spare CPU cannot hold. On
     * the openb cluster that is the case only from about a quarter of the pods CPU-only (the spare CPU is mostly on
     * the 2-GPU T4 nodes with 104 cores); below, the forecast is the same as without nodes.
     */
    static WasteForecast forCluster(TargetWorkload workload, double rareSizeShare, List<NodeSpec> nodes) {
        return forWorkload(workload, rareSizeShare, excessCpuPerMilli(workload, nodes));
    }

    private static WasteForecast forWorkload(TargetWorkload workload, double rareSizeShare, double excessCpuPerMilli) {
        return RECENT.computeIfAbsent(
                new Key(workload, rareSizeShare, excessCpuPerMilli),
                k -> new WasteForecast(k.workload(), k.rareSizeShare(), k.excessCpuPerMilli()));
    }

    /**
     * CPU milli per GPU milli that CPU-only jobs will take from the CPU GPU jobs need: their expected CPU for every
     * GPU milli of the cluster, less the spare CPU of the nodes (each node's CPU beyond its GPUs times the GPU
     * jobs' CPU per GPU milli), spread over the cluster's GPU milli; 0 when the spare CPU holds it all. With it ρ
     * rises at most to the cluster's CPU per GPU (all nodes' CPU over all their GPUs).
     */
    static double excessCpuPerMilli(TargetWorkload workload, List<NodeSpec> nodes) {
        TargetWorkload.GpuDemand demand = workload.gpuDemand();
        double gpu = demand.gpuMilli();
        double gpuCpuPerMilli = demand.cpuPerMilli();
        double cpuOnlyCpu = 0;
        for (TargetWorkload.Shape s : workload.shapes()) {
            cpuOnlyCpu += s.cpuOnly() ? s.probability() * s.cpuMilli() : 0;
        }
        double clusterGpu = 0;
        double clusterCpu = 0;
        double spare = 0;
        for (NodeSpec n : nodes) {
            double milli = (double) n.gpuCount() * TargetWorkload.Shape.WHOLE;
            clusterGpu += milli;
            clusterCpu += n.cpuMilli();
            spare += Math.max(0, n.cpuMilli() - gpuCpuPerMilli * milli);
        }
        if (gpu == 0 || clusterGpu == 0) {
            return 0;
        }
        double excess = Math.max(0, cpuOnlyCpu / gpu * clusterGpu - spare) / clusterGpu;
        // never above the cluster's own CPU per GPU milli: past it every node of a cluster of equal nodes looks short
        // of
        // CPU from the start, any GPU taken lowers the shortfall alike, and whole-GPU jobs spread over the nodes
        double capped = Math.max(0, Math.min(excess, clusterCpu / clusterGpu - gpuCpuPerMilli));
        // on a CPU-lean cluster the service fits the shapes' CPU to the cluster's and truncates each to whole milli,
        // which leaves the cap a residue of some 1e-4 of the GPU jobs' CPU per milli: no shortage (it would switch the
        // shortfall to its CPU-short form, CpuShortfall, on a cluster the fitting has just balanced)
        return capped < FITTING_RESIDUE * gpuCpuPerMilli ? 0 : capped;
    }

    WasteForecast(TargetWorkload workload) {
        this(workload, RARE_SIZE_SHARE);
    }

    WasteForecast(TargetWorkload workload, double rareSizeShare) {
        this(workload, rareSizeShare, 0);
    }

    private WasteForecast(TargetWorkload workload, double rareSizeShare, double excessCpuPerMilli) {
        this.rareSizeShare = rareSizeShare;
        gpuShapes = workload.shapes().stream().filter(s -> !s.cpuOnly()).toList();
        allowedOn = model -> ShapeGroups.allowedOn(gpuShapes, model);
        cpuShortfall = new CpuShortfall(gpuShapes, excessCpuPerMilli);
    }

    @Override
    public double of(String model, long freeCpu, int[] gpuFree, int gpuCount) {
        double[] w = slivers.computeIfAbsent(model, sliverTable);
        long idle = 0;
        double sliver = 0;
        for (int i = 0; i < gpuCount; i++) {
            idle += gpuFree[i];
            sliver += w[gpuFree[i]];
        }
        if (idle == 0) {
            return 0;
        }
        return sliver
                + unhostableShare(model, freeCpu, gpuFree, gpuCount) * (idle - sliver)
                + cpuShortfall.of(idle, sliver, freeCpu);
    }

    /**
     * The probability mass of the GPU shapes allowed on this model that the node cannot host at all:
     * too little CPU, or (for multi-GPU shapes) too few GPUs with the share free. Single-GPU shapes that
     * no GPU fits are already in the sliver part.
     */
    private double unhostableShare(String model, long freeCpu, int[] gpuFree, int gpuCount) {
        ShapeGroups groups = allowedShapes.computeIfAbsent(model, allowedOn);
        double share = 0;
        for (int g = 0; g < groups.size(); g++) {
            // one term per group, as in FragmentationMeasure: the whole mass if its GPUs do not fit
            share += groups.gpuCount(g) > 1 && groups.fittingGpus(g, gpuFree, gpuCount) < groups.gpuCount(g)
                    ? groups.mass(g)
                    : groups.massNeedingMoreCpu(g, freeCpu);
        }
        return share;
    }

    private double[] sliverTable(String model) {
        double[] weightBySize = new double[TargetWorkload.Shape.WHOLE + 1];
        double[] workloadFractions = new double[TargetWorkload.Shape.WHOLE + 1];
        double gapFillers = 0;
        for (TargetWorkload.Shape s : gpuShapes) {
            // a k-GPU shape takes d from k GPUs: k arrivals of size d from one GPU's point of view
            double arrivals = s.probability() * s.gpuCount();
            if (s.gpuMilli() < TargetWorkload.Shape.WHOLE) {
                workloadFractions[s.gpuMilli()] += arrivals;
            }
            if (s.allowsModel(model)) {
                weightBySize[s.gpuMilli()] += arrivals;
                if (s.gpuMilli() < TargetWorkload.Shape.WHOLE) {
                    gapFillers += arrivals;
                }
            }
        }
        inWorkloadProportions(weightBySize, workloadFractions, gapFillers);
        // the sizes counted on to fill gaps, ascending: a few dozen, so a table costs some twenty thousand steps
        final double threshold = rareSizeShare * gapFillers;
        int[] fillers = IntStream.rangeClosed(1, TargetWorkload.Shape.WHOLE)
                .filter(d -> weightBySize[d] > 0 && (d == TargetWorkload.Shape.WHOLE || weightBySize[d] >= threshold))
                .toArray();
        double[] w = new double[weightBySize.length];
        for (int g = 0; g < w.length; g++) {
            double weight = 0;
            double sum = 0;
            for (int i = 0; i < fillers.length && fillers[i] <= g; i++) {
                int d = fillers[i];
                weight += weightBySize[d];
                sum += weightBySize[d] * w[g - d];
            }
            w[g] = weight == 0 ? g : sum / weight;
        }
        return w;
    }

    /**
     * Spreads the model's fraction arrivals ({@code gapFillers}) over the fraction sizes that may land on it in the
     * proportions of the whole workload's fractions, in place; whole GPUs keep the model's own weight. Pins split each
     * size's count over the models and their combinations, and the workload keeps only the most frequent shapes
     * ({@link TargetWorkload#COVERAGE}): the (size, model) pairs it drops are those of the less common sizes, so a
     * model's own proportions overstate its commonest sizes, and sizes near the rare-size share fall on either side
     * of it by model. Which sizes can come stays the model's. Where every fraction shape may land on the model (a
     * workload without pins) nothing changes, to the last bit.
     */
    private static void inWorkloadProportions(double[] weightBySize, double[] workloadFractions, double gapFillers) {
        double present = 0;
        boolean same = true;
        for (int d = 1; d < TargetWorkload.Shape.WHOLE; d++) {
            if (weightBySize[d] > 0) {
                present += workloadFractions[d];
            }
            same &= weightBySize[d] == workloadFractions[d];
        }
        if (same || present == 0) {
            return;
        }
        for (int d = 1; d < TargetWorkload.Shape.WHOLE; d++) {
            if (weightBySize[d] > 0) {
                weightBySize[d] = gapFillers * workloadFractions[d] / present;
            }
        }
    }
}
