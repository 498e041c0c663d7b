package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.ModelGroup;
import io.quotient.core.model.ModelGuarantee;
import io.quotient.core.model.Team;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * How Kueue's flavor cases ({@code pkg/scheduler/flavorassigner/flavorassigner_test.go} and the multi-flavor cases
 * of {@code pkg/scheduler/scheduler_test.go}) are translated, and the pieces they share.
 *
 * <p>Mapping: a ResourceFlavor is a GPU model group of one model: flavor one (Kueue's {@code one}, {@code uno},
 * {@code on-demand}) is H100, two ({@code two}, {@code due}, {@code spot}) A100, three ({@code three}, {@code tre})
 * L40S. A ClusterQueue is a team whose guarantee is split by group: its nominal quota in a flavor is its guarantee in
 * the group, nominal plus borrowingLimit the group's {@code maxGpus} (unlimited without a borrowing limit). Kueue's
 * one resource (CPU in most cases, {@code gpu} in {@code TestReclaimBeforePriorityPreemption}) is GPUs. A cohort
 * without quota of its own is the cluster: one node per flavor with as many GPUs as the cohort's quota in it (Kueue
 * checks quota, not nodes). The classic tests run without fair sharing, so the teams opt out of fair-share reclaim;
 * withinClusterQueue is LowerPriority. Workloads are single-pod-set jobs on one node, admitted an hour ago.
 *
 * <p>Quotient's fungibility rule (docs/fairness.md, "Guarantees per GPU model") is Kueue's {@code whenCanBorrow:
 * TryNextFlavor, whenCanPreempt: TryNextFlavor} with no setting for the others: a case run with {@code Borrow},
 * {@code Preempt} or {@code MayStopSearch} where Kueue stops at an earlier flavor is marked {@code DIFFERENCE} and
 * asserts Quotient's flavor. Kueue's assigner tests mock the preemption oracle; where a case only gives the mode
 * ({@code Preempt}), the translation runs real jobs and asserts what that preemption evicts.
 */
final class KueueFlavorScenarios {

    static final String H100 = ModelGuaranteeScenariosTest.H100;
    static final String A100 = ModelGuaranteeScenariosTest.A100;
    static final String L40S = "L40S-48GB";

    private KueueFlavorScenarios() {}

    /** A flavor's quota of a ClusterQueue; {@code borrowingLimit} null: unlimited. */
    record Quota(String model, int nominal, Integer borrowingLimit) {}

    static Quota quota(String model, int nominal) {
        return new Quota(model, nominal, null);
    }

    static Quota quota(String model, int nominal, int borrowingLimit) {
        return new Quota(model, nominal, borrowingLimit);
    }

    /** The cluster: nodes h-0 (H100), a-0 (A100), l-0 (L40S) of the given GPUs; 0 leaves the node out. */
    static Scenario flavors(int h100, int a100, int l40s) {
        List<NodeSpec> nodes = new ArrayList<>();
        addNode(nodes, "h-0", h100, H100);
        addNode(nodes, "a-0", a100, A100);
        addNode(nodes, "l-0", l40s, L40S);
        return Scenario.on(nodes);
    }

    private static void addNode(List<NodeSpec> nodes, String name, int gpus, String model) {
        if (gpus > 0) {
            nodes.add(new NodeSpec(name, 1_024_000, 8_388_608, gpus, model, 81_920));
        }
    }

    /** A ClusterQueue of the classic tests: per-flavor guarantees and maxima, fair-share reclaim off. */
    static Team cq(String name, Quota... quotas) {
        List<ModelGuarantee> groups = new ArrayList<>();
        for (Quota q : quotas) {
            long max = q.borrowingLimit() == null ? Team.UNLIMITED : (q.nominal() + q.borrowingLimit()) * 1000L;
            groups.add(new ModelGuarantee(ModelGroup.of(q.model()), q.nominal() * 1000L, max));
        }
        return ModelGuaranteeScenariosTest.grouped(name, false, groups);
    }

    /** A workload that may run on the given models only (a node selector naming a flavor's label). */
    static JobSpec pinned(String team, String name, int gpus, int priority, String... models) {
        return new JobSpec(
                new JobId(team, name),
                new GpuRequest.WholeGpus(gpus),
                1000,
                1024,
                Set.of(models),
                priority,
                true,
                Duration.ZERO);
    }

    /** An admitted workload on the flavor's node, running for an hour. */
    static void admitted(Scenario s, String team, String name, String model, int gpus, int priority) {
        NodeSpec node = s.run.nodes.stream()
                .filter(n -> n.gpuModel().equals(model))
                .findFirst()
                .orElseThrow();
        List<Integer> free = KueueScenarios.freeGpus(s, node);
        if (free.size() < gpus) {
            throw new IllegalStateException("no " + gpus + " free GPUs of " + model + " for " + team + "/" + name);
        }
        KueueScenarios.putAdmitted(s, Scenario.job(team, name, gpus, priority), node, free.subList(0, gpus));
    }

    /** {@code count} one-GPU workloads named prefix1, prefix2, ... on the flavor's node. */
    static void units(Scenario s, String team, String prefix, String model, int count, int priority) {
        for (int i = 1; i <= count; i++) {
            admitted(s, team, prefix + i, model, 1, priority);
        }
    }

    /** The workload runs on the flavor's model. */
    static void runsOn(Scenario s, String team, String name, String model) {
        assertThat(s.run.isPlaced(team, name))
                .as(() -> KaiScenarios.state(s) + " reasons " + s.run.reasons)
                .isTrue();
        String node = s.run.placement(team, name).node();
        String got = s.run.nodes.stream()
                .filter(n -> n.name().equals(node))
                .findFirst()
                .orElseThrow()
                .gpuModel();
        assertThat(got).as(() -> KaiScenarios.state(s)).isEqualTo(model);
    }

    /** The job, deployed, runs on the flavor's model and nothing is evicted. */
    static void landsWithoutEviction(Scenario s, JobSpec job, String model) {
        s.deploy(job);
        runsOn(s, job.team(), job.id().name(), model);
        assertThat(KueueScenarios.evicted(s)).as(() -> KaiScenarios.state(s)).isEmpty();
    }
}
