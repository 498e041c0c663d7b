package io.quotient.core.scheduling;

import static io.quotient.core.model.WithinTeamPreemption.LOWER_PRIORITY;
import static io.quotient.core.model.WithinTeamPreemption.NEVER;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.Department;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.ModelGroup;
import io.quotient.core.model.ModelGuarantee;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.model.Team;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * The pieces the Kueue cases of {@link KueueExtraScenariosTest} and {@link KueueScheduleForFairSharingScenariosTest}
 * share: ClusterQueues and cohorts as teams and departments, admitted and protected workloads, counts.
 */
final class KueueExtraScenarios {

    private KueueExtraScenarios() {}
    /** A ClusterQueue: nominal, borrowing limit (null: none), fair weight, whether it takes part in fair sharing. */
    static Team cq(String name, int nominal, Integer borrowingLimit, double weight, boolean fairShare) {
        long max = borrowingLimit == null ? Team.UNLIMITED : (nominal + borrowingLimit) * 1000L;
        return new Team(name, nominal * 1000L, max, weight, 0, LOWER_PRIORITY, fairShare, null);
    }

    /** A ClusterQueue without preemption (Kueue's default policies): no fair-share reclaim, no preemption within. */
    static Team plain(String name, int nominal) {
        return new Team(name, nominal * 1000L, Team.UNLIMITED, 1, 0, NEVER, false, null);
    }

    static Department dept(String name, int subtreeQuota, double weight) {
        return new Department(name, subtreeQuota * 1000L, Team.UNLIMITED, weight);
    }

    /** A running workload Kueue's case cannot preempt (no preemption policy): inside a two-hour minimum runtime. */
    static void protectedAdmitted(Scenario s, String team, String name, int gpus) {
        JobSpec spec = new JobSpec(
                new JobId(team, name),
                new GpuRequest.WholeGpus(gpus),
                1000,
                1024,
                Set.of(),
                0,
                true,
                Duration.ofHours(2));
        place(s, spec, s.run.nodes.get(0).name());
    }

    /** Places {@code spec} on the first free GPUs of {@code node}, running for an hour. */
    static void place(Scenario s, JobSpec spec, String node) {
        NodeSpec n = s.run.nodes.stream()
                .filter(x -> x.name().equals(node))
                .findFirst()
                .orElseThrow();
        Set<Integer> used = new HashSet<>();
        s.run.placed
                .values()
                .forEach(p -> p.replicas().stream()
                        .filter(r -> r.node().equals(node))
                        .forEach(r -> used.addAll(r.gpuIndices())));
        List<Integer> free = IntStream.range(0, n.gpuCount())
                .filter(g -> !used.contains(g))
                .boxed()
                .toList();
        int gpus = ((GpuRequest.WholeGpus) spec.gpu()).count();
        KaiScenarios.put(
                s,
                new PlacedJob(
                        spec,
                        node,
                        new ArrayList<>(free.subList(0, gpus)),
                        1000,
                        QuotaState.OVER_QUOTA,
                        s.run.now.minus(Duration.ofHours(1))));
    }

    static JobSpec pinned(String team, String name, int gpus, String model) {
        return KueueFlavorScenarios.pinned(team, name, gpus, 0, model);
    }

    static long count(Scenario s, String team) {
        return s.run.placed.keySet().stream().filter(j -> j.team().equals(team)).count();
    }

    static long pendingOf(Scenario s, String team) {
        return s.run.pending.keySet().stream()
                .filter(j -> j.team().equals(team))
                .count();
    }

    static void finish(Scenario s, String team, int jobs) {
        List<JobId> running = s.run.placed.keySet().stream()
                .filter(j -> j.team().equals(team))
                .limit(jobs)
                .toList();
        running.forEach(j -> s.run.finish(j.team(), j.name()));
    }

    // ---- model groups ----

    static ModelGuarantee group(String model, int gpus, long maxGpus) {
        return new ModelGuarantee(
                ModelGroup.of(model), gpus * 1000L, maxGpus == Team.UNLIMITED ? Team.UNLIMITED : maxGpus * 1000L);
    }
}
