package io.quotient.sim;

import java.util.List;

/**
 * The outcome of simulating one policy over several seeds: the runs, their mean and the mean curve.
 *
 * @param pods the trace's own pod count (before inflation)
 */
public record SimulationReport(String policy, int nodes, int gpus, int pods, double inflation, List<RunResult> runs) {

    /**
     * Means over the runs of the headline figures.
     *
     * @param firstRefusalArrivedPct the mean of the runs' first refusals, NaN unless every run refused a GPU pod (a
     *                               mean over some runs only would hide the others)
     */
    public record Mean(
            double unallocatedGpuPctAt100,
            double fragAmountPctAt100,
            double fragRatioPctAt100,
            double placementsPerSecond,
            double firstRefusalArrivedPct) {}

    public SimulationReport {
        runs = List.copyOf(runs);
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("a report needs at least one run");
        }
    }

    public Mean mean() {
        return new Mean(
                runs.stream()
                        .mapToDouble(RunResult::unallocatedGpuPctAt100)
                        .average()
                        .orElseThrow(),
                runs.stream()
                        .mapToDouble(RunResult::fragAmountPctAt100)
                        .average()
                        .orElseThrow(),
                runs.stream()
                        .mapToDouble(RunResult::fragRatioPctAt100)
                        .average()
                        .orElseThrow(),
                runs.stream()
                        .mapToDouble(RunResult::placementsPerSecond)
                        .average()
                        .orElseThrow(),
                runs.stream().allMatch(RunResult::refusedAny)
                        ? runs.stream()
                                .mapToDouble(RunResult::firstRefusalArrivedPct)
                                .average()
                                .orElseThrow()
                        : Double.NaN);
    }

    public Curve curve() {
        return Curve.mean(runs.stream().map(RunResult::curve).toList());
    }
}
