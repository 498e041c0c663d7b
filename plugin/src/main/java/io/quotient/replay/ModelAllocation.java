package io.quotient.replay;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.PlacedJob;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The replay's GPU allocation per GPU model, for the mixed-model variant: what each model's nodes held over time, in
 * all and per team. A job is counted on the model of each node its replicas run on.
 */
final class ModelAllocation {

    private final Map<String, Integer> modelOfNode = new HashMap<>();
    private final List<String> models;
    private final long[] capacityMilli;
    private final long[] heldMilli;
    private final double[] heldMilliMs;
    private final double[] heldWhileWaitingMilliMs;
    private final Map<String, double[]> teamMilliMs = new TreeMap<>();
    private final Map<String, long[]> teamHeldMilli = new HashMap<>();
    private long spanMs;
    private long waitingMs;

    ModelAllocation(List<NodeSpec> nodes) {
        Map<String, Long> capacity = new TreeMap<>();
        nodes.stream()
                .filter(n -> n.gpuCount() > 0)
                .forEach(n -> capacity.merge(n.gpuModel(), n.gpuCount() * 1000L, Long::sum));
        this.models = List.copyOf(capacity.keySet());
        this.capacityMilli =
                capacity.values().stream().mapToLong(Long::longValue).toArray();
        this.heldMilli = new long[models.size()];
        this.heldMilliMs = new double[models.size()];
        this.heldWhileWaitingMilliMs = new double[models.size()];
        nodes.stream()
                .filter(n -> n.gpuCount() > 0)
                .forEach(n -> modelOfNode.put(n.name(), models.indexOf(n.gpuModel())));
    }

    /** The team's job holds ({@code sign} 1) or gives back (-1) what {@code p} places on each of its nodes. */
    void holds(String team, PlacedJob p, int sign) {
        long[] own = teamHeldMilli.computeIfAbsent(team, t -> new long[models.size()]);
        for (PlacedJob.Replica r : p.replicas()) {
            Integer m = modelOfNode.get(r.node());
            if (m != null) {
                long milli = sign * (long) r.gpuIndices().size() * p.milliPerGpu();
                heldMilli[m] += milli;
                own[m] += milli;
            }
        }
    }

    /** {@code dt} ms pass with the holdings as they are; {@code waiting}: some job waits meanwhile. */
    void integrate(long dt, boolean waiting) {
        spanMs += dt;
        if (waiting) {
            waitingMs += dt;
        }
        for (int m = 0; m < models.size(); m++) {
            heldMilliMs[m] += (double) heldMilli[m] * dt;
            if (waiting) {
                heldWhileWaitingMilliMs[m] += (double) heldMilli[m] * dt;
            }
        }
        teamHeldMilli.forEach((team, held) -> {
            double[] integral = teamMilliMs.computeIfAbsent(team, t -> new double[models.size()]);
            for (int m = 0; m < models.size(); m++) {
                integral[m] += (double) held[m] * dt;
            }
        });
    }

    List<ModelUsage> result() {
        List<ModelUsage> usage = new ArrayList<>();
        for (int m = 0; m < models.size(); m++) {
            Map<String, Double> byTeam = new LinkedHashMap<>();
            for (Map.Entry<String, double[]> e : teamMilliMs.entrySet()) {
                if (e.getValue()[m] > 0) {
                    byTeam.put(e.getKey(), e.getValue()[m] / 1000.0 / HourlyFairness.HOUR_MS);
                }
            }
            usage.add(new ModelUsage(
                    models.get(m),
                    capacityMilli[m] / 1000,
                    percent(heldMilliMs[m], spanMs, capacityMilli[m]),
                    percent(heldWhileWaitingMilliMs[m], waitingMs, capacityMilli[m]),
                    byTeam));
        }
        return usage;
    }

    private static double percent(double milliMs, long ms, long capacityMilli) {
        return ms == 0 ? Double.NaN : 100.0 * milliMs / ((double) ms * capacityMilli);
    }
}
