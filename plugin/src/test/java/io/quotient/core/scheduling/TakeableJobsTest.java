package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.model.Demands;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.model.SchedulingSnapshot;
import io.quotient.core.model.Team;
import io.quotient.core.model.WithinTeamPreemption;
import io.quotient.core.placement.PlacementPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A reclaim search that {@link ReclaimCandidates#nothingToTake} rules out finds nothing, and what it is ruled out on
 * ({@link TakeableJobs}) follows the workspace as it books and frees jobs: answered on the jobs of an earlier booking,
 * it would take a job that is gone or miss one that came.
 */
class TakeableJobsTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    private static JobSpec job(String team, String name, int gpus, int priority) {
        return new JobSpec(
                new JobId(team, name),
                new GpuRequest.WholeGpus(gpus),
                1000,
                1024,
                Set.of(),
                priority,
                true,
                Duration.ZERO);
    }

    private static PlacedJob running(JobSpec spec, String node, int firstGpu) {
        List<Integer> gpus = new ArrayList<>();
        for (int g = 0; g < ((GpuRequest.WholeGpus) spec.gpu()).count(); g++) {
            gpus.add(firstGpu + g);
        }
        return new PlacedJob(spec, node, gpus, 1000, QuotaState.OVER_QUOTA, NOW.minus(Duration.ofHours(1)));
    }

    /** Two 4-GPU nodes: team-a (lower-priority preemption) on node-1, team-b on node-2, each job given. */
    private static Workspace cluster(List<PlacedJob> placed) {
        List<NodeSpec> nodes = ClusterRun.nodes(2, 4);
        Map<String, Team> teams = Map.of(
                "team-a",
                new Team("team-a", 4000, Team.UNLIMITED, 1, 0)
                        .withPreemptWithinTeam(WithinTeamPreemption.LOWER_PRIORITY),
                "team-b",
                Team.of("team-b", 4000));
        return Workspace.of(new SchedulingSnapshot(nodes, Set.of(), placed, List.of(), teams, NOW));
    }

    private static List<PlacedJob> fullCluster(int priorityOfA0) {
        List<PlacedJob> placed = new ArrayList<>();
        placed.add(running(job("team-a", "a0", 1, priorityOfA0), "node-1", 0));
        for (int i = 1; i < 4; i++) {
            placed.add(running(job("team-a", "a" + i, 1, 5), "node-1", i));
        }
        for (int i = 0; i < 4; i++) {
            placed.add(running(job("team-b", "b" + i, 1, 5), "node-2", i));
        }
        return placed;
    }

    private record Probe(ReclaimCandidates candidates, ReclaimSearch search, ReclaimRights rights) {}

    private static Probe probe(Workspace ws, JobSpec claimant) {
        VictimStanding standing = new VictimStanding(ws::ledger, t -> 0L, 1000);
        ReclaimCandidates candidates = new ReclaimCandidates(ws, NOW, true, Set.of(), standing);
        ReclaimSearch search = new ReclaimSearch(ws, NOW, 4, j -> PlacementPolicy.NodeFilter.ANY, Set.of(), standing);
        ReclaimRights rights = new ReclaimRules(ws.ledger(), Map.of(), ReclaimSettings.DEFAULTS)
                .priority(claimant, 0)
                .orElseThrow();
        return new Probe(candidates, search, rights);
    }

    private static long free(Workspace ws) {
        return ws.state().totalGpuMilli() - ws.state().allocatedGpuMilli();
    }

    private static long mostFree(Workspace ws) {
        long most = 0;
        for (int n = 0; n < ws.state().nodeCount(); n++) {
            most = Math.max(most, ws.state().gpuFreeOnNode(n));
        }
        return most;
    }

    @Test
    void aTeamWithNoLowerPriorityJobOnAFullClusterHasNothingToTake() {
        Workspace ws = cluster(fullCluster(5));
        JobSpec claimant = job("team-a", "new", 1, 5);
        Probe p = probe(ws, claimant);
        ResourceDemand demand = Demands.of(claimant);

        assertThat(p.candidates().nothingToTake(p.rights(), demand, mostFree(ws), free(ws)))
                .isTrue();
        assertThat(p.search().best(demand, PlacementPolicy.NodeFilter.ANY, p.rights()))
                .isEmpty();
    }

    @Test
    void aLowerPriorityJobBookedLaterIsTakenAndOneFreedLaterIsNot() {
        Workspace ws = cluster(fullCluster(5));
        JobSpec claimant = job("team-a", "new", 1, 5);
        Probe p = probe(ws, claimant);
        ResourceDemand demand = Demands.of(claimant);
        assertThat(p.candidates().nothingToTake(p.rights(), demand, mostFree(ws), free(ws)))
                .isTrue();

        // a0 is replaced by a lower-priority job: the same round's next search must see it
        PlacedJob a0 = ws.placed(new JobId("team-a", "a0")).orElseThrow();
        var held = ws.allocation(a0.id()).orElseThrow();
        ws.remove(a0.id());
        PlacedJob low = running(job("team-a", "low", 1, 1), "node-1", 0);
        ws.add(low, held);

        assertThat(p.candidates().nothingToTake(p.rights(), demand, mostFree(ws), free(ws)))
                .isFalse();
        assertThat(p.search()
                        .best(demand, PlacementPolicy.NodeFilter.ANY, p.rights())
                        .orElseThrow()
                        .evictions())
                .containsExactly(low);

        // and once it is freed, a 2-GPU job has nothing to take again: the one free GPU holds no more than itself
        ws.remove(low.id());
        JobSpec twoGpus = job("team-a", "two", 2, 5);
        Probe q = probe(ws, twoGpus);
        ResourceDemand two = Demands.of(twoGpus);
        assertThat(q.candidates().nothingToTake(q.rights(), two, mostFree(ws), free(ws)))
                .isTrue();
        assertThat(p.candidates().nothingToTake(q.rights(), two, mostFree(ws), free(ws)))
                .isTrue();
        assertThat(p.search().best(two, PlacementPolicy.NodeFilter.ANY, q.rights()))
                .isEmpty();
    }

    @Test
    void movesOntoEnoughFreeGpusAreNotRuledOut() {
        // node-2 has two free GPUs: a 2-GPU job of team-a fits on node-1 once two of its jobs move there
        List<PlacedJob> placed = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            placed.add(running(job("team-a", "a" + i, 1, 5), "node-1", i));
        }
        placed.add(running(job("team-b", "b0", 1, 5), "node-2", 0));
        placed.add(running(job("team-b", "b1", 1, 5), "node-2", 1));
        Workspace ws = cluster(placed);
        JobSpec claimant = job("team-a", "two", 2, 5);
        Probe p = probe(ws, claimant);
        ResourceDemand demand = Demands.of(claimant);

        assertThat(p.candidates().nothingToTake(p.rights(), demand, mostFree(ws), free(ws)))
                .isFalse();
        // node-2 holds the demand as it is; on node-1 alone only moves can make room
        ReclaimSearch.Choice onNodeOne = p.search()
                .best(demand, (s, n) -> s.node(n).name().equals("node-1"), p.rights())
                .orElseThrow();
        assertThat(onNodeOne.moves()).hasSize(2);
        assertThat(onNodeOne.evictions()).isEmpty();
    }
}
