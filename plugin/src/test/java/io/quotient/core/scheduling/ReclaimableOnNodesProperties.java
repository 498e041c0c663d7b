package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.Allocation;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.cluster.ResourceDemand;
import io.quotient.core.model.DepartmentLimits;
import io.quotient.core.model.Gang;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.model.SchedulingSnapshot;
import io.quotient.core.model.Team;
import io.quotient.core.placement.PlacementPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * What the workspace keeps up to date by its own bookings equals what is read afresh from the jobs it holds, over
 * random sequences of jobs freed and booked again (as reclaim searches and gang trials do): the per-node summary of
 * preemptible jobs ({@link ReclaimableOnNodes}), the answer a reclaim search rules nodes out by (no node ruled out
 * holds a job that the rights let go or that could move), and the teams' largest preemptible jobs.
 */
class ReclaimableOnNodesProperties {

    private static final List<String> TEAMS = List.of("a", "b", "c", "unconfigured");
    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    @Property(tries = 200)
    void whatTheBookingsKeepEqualsWhatTheJobsHeldSay(
            @ForAll long seed,
            @ForAll @IntRange(min = 1, max = 6) int nodeCount,
            @ForAll @IntRange(min = 0, max = 40) int jobCount,
            @ForAll @IntRange(min = 1, max = 60) int steps) {
        Random random = new Random(seed);
        Workspace ws = workspace(random, nodeCount, jobCount);
        List<PlacedJob> freed = new ArrayList<>();
        List<List<Allocation>> freedHeld = new ArrayList<>();
        for (int s = 0; s < steps; s++) {
            List<PlacedJob> held = new ArrayList<>(ws.placed());
            if (!held.isEmpty() && (freed.isEmpty() || random.nextBoolean())) {
                PlacedJob job = held.get(random.nextInt(held.size()));
                freedHeld.add(List.copyOf(ws.allocations(job.id())));
                freed.add(ws.remove(job.id()));
            } else if (!freed.isEmpty()) {
                int i = random.nextInt(freed.size());
                ws.add(freed.remove(i), freedHeld.remove(i));
            }
            assertAgrees(ws, random);
        }
    }

    private static void assertAgrees(Workspace ws, Random random) {
        int nodeCount = ws.state().nodeCount();
        ReclaimableOnNodes afresh = new ReclaimableOnNodes(nodeCount);
        for (int n = 0; n < nodeCount; n++) {
            for (Workspace.Held held : ws.heldOnNow(n)) {
                afresh.add(n, held.job());
                assertThat(held.here())
                        .as(
                                "what %s holds on node %d, as kept beside it",
                                held.job().id(), n)
                        .isEqualTo(ws.allocationOn(held.job().id(), n).orElse(null));
            }
        }
        ReclaimRights rights = rights(random);
        boolean mayMove = random.nextBoolean();
        long mostFree = 1000L * random.nextInt(4);
        long[] allowances = ws.reclaimable().allowances(rights);
        for (int n = 0; n < nodeCount; n++) {
            assertThat(ws.reclaimable().summary(n)).as("node %d", n).isEqualTo(afresh.summary(n));
            boolean anyCandidate = false;
            for (PlacedJob j : ws.jobsOn(n)) {
                boolean movable = mayMove && !j.spec().gang().spansNodes() && j.gpuMilli() <= mostFree;
                anyCandidate |= j.spec().preemptible() && (rights.mayEvict(j) || movable);
            }
            assertThat(ws.reclaimable().mayHoldCandidate(n, allowances, mayMove, mostFree))
                    .as("node %d under %s", n, rights)
                    .isEqualTo(anyCandidate);
        }
        Map<String, Long> largest = new HashMap<>();
        ws.placed().stream()
                .filter(p -> p.spec().preemptible())
                .forEach(p -> largest.merge(p.spec().team(), p.gpuMilli(), Math::max));
        assertThat(ws.largestPreemptibleJobs()).isEqualTo(largest);
    }

    /**
     * A node the candidates say evictions cannot free enough on ({@link NodeReach#byEvictions}) has indeed no
     * set of candidates the rights let go, each other team within its allowance, after whose eviction the demand
     * fits there: the search passes over such nodes without looking.
     */
    @Property(tries = 300)
    void aNodeOutOfReachOfEvictionsHasNoEvictionsThatMakeRoom(
            @ForAll long seed,
            @ForAll @IntRange(min = 1, max = 4) int nodeCount,
            @ForAll @IntRange(min = 0, max = 30) int jobCount,
            @ForAll @IntRange(min = 1, max = 8) int gpus) {
        Random random = new Random(seed);
        Workspace ws = workspace(random, nodeCount, jobCount);
        ReclaimRights rights = rights(random);
        VictimStanding standing = new VictimStanding(ws::ledger, t -> 0L, 1000);
        ReclaimCandidates candidates = new ReclaimCandidates(ws, NOW, true, Set.of());
        ResourceDemand demand = ResourceDemand.gpus(1000, 1024, gpus, ResourceDemand.WHOLE, Set.of());
        SearchTeams teams = new SearchTeams(ws, rights, standing);
        for (int n = 0; n < nodeCount; n++) {
            NodeCandidates c = candidates.on(n, demand, rights, 8_000, teams, PlacementPolicy.NodeFilter.ANY);
            if (c != null && !c.reach().byEvictions()) {
                assertThat(anyEvictionsMakeRoom(
                                ws,
                                n,
                                c.jobs().stream().map(Workspace.Held::job).toList(),
                                demand,
                                rights))
                        .as("node %d under %s", n, rights)
                        .isFalse();
            }
        }
    }

    /** Tries every subset of the candidates the rights let go within the allowances; changes nothing. */
    private static boolean anyEvictionsMakeRoom(
            Workspace ws, int node, List<PlacedJob> jobs, ResourceDemand demand, ReclaimRights rights) {
        List<PlacedJob> evictable = jobs.stream()
                .filter(j -> rights.mayEvict(j) && !ws.ledger().keptInGroup(j, rights.claimantTeam()))
                .toList();
        for (int mask = 0; mask < 1 << evictable.size(); mask++) {
            Map<String, Long> taken = new HashMap<>();
            List<Allocation> released = new ArrayList<>();
            for (int i = 0; i < evictable.size(); i++) {
                if ((mask & 1 << i) != 0) {
                    PlacedJob j = evictable.get(i);
                    if (!j.spec().team().equals(rights.claimantTeam())) {
                        taken.merge(j.spec().team(), j.gpuMilli(), Long::sum);
                    }
                    released.add(ws.allocationOn(j.id(), node).orElseThrow());
                }
            }
            boolean withinAllowances = taken.entrySet().stream()
                    .allMatch(e -> e.getValue() <= rights.teamAllowance().getOrDefault(e.getKey(), 0L));
            released.forEach(ws.state()::release);
            boolean fits = ws.state().fits(node, demand);
            released.forEach(ws.state()::allocate);
            if (withinAllowances && fits) {
                return true;
            }
        }
        return false;
    }

    /** A workspace of 8-GPU nodes holding random jobs of the first three teams (guaranteed 8 GPUs each) and another. */
    private static Workspace workspace(Random random, int nodeCount, int jobCount) {
        List<NodeSpec> nodes = new ArrayList<>();
        for (int n = 0; n < nodeCount; n++) {
            nodes.add(new NodeSpec("node-" + n, 128_000, 1_048_576, 8, ClusterRun.MODEL, ClusterRun.GPU_MIB));
        }
        List<PlacedJob> placed = new ArrayList<>();
        for (int i = 0; i < jobCount; i++) {
            placed.add(job(random, i, nodeCount));
        }
        Map<String, Team> teams = new HashMap<>();
        for (String t : TEAMS.subList(0, 3)) {
            teams.put(t, new Team(t, 8_000, Team.UNLIMITED, 1, 0));
        }
        return Workspace.of(new SchedulingSnapshot(nodes, Set.of(), placed, List.of(), teams, NOW));
    }

    /** Rights that may take some teams' jobs up to an allowance, and the claimant's own any preemptible job. */
    private static ReclaimRights rights(Random random) {
        Map<String, Long> allowance = new HashMap<>();
        for (String t : TEAMS) {
            if (random.nextBoolean()) {
                allowance.put(t, 500L * random.nextInt(6));
            }
        }
        return new ReclaimRights(
                ReclaimStep.GUARANTEE,
                allowance,
                DepartmentLimits.NONE,
                TEAMS.get(random.nextInt(TEAMS.size())),
                j -> true,
                0,
                random.nextInt(4) != 0,
                random.nextBoolean());
    }

    /** A whole-GPU job, a fraction or a CPU-only job, sometimes a gang over two nodes, sometimes two replicas on one. */
    private static PlacedJob job(Random random, int i, int nodeCount) {
        int kind = random.nextInt(4);
        GpuRequest gpu = kind == 0
                ? new GpuRequest.WholeGpus(0)
                : kind == 1 ? new GpuRequest.Fraction(500, 500, 1) : new GpuRequest.WholeGpus(1 + random.nextInt(3));
        boolean gang = random.nextInt(5) == 0;
        String team = TEAMS.get(random.nextInt(TEAMS.size()));
        JobSpec spec = new JobSpec(
                new JobId(team, "job-" + i),
                gpu,
                1000,
                1024,
                Set.of(),
                random.nextInt(3),
                random.nextInt(4) != 0,
                Duration.ZERO,
                gang ? Gang.of(2) : Gang.SINGLE);
        int devices = kind == 0 ? 0 : kind == 1 ? 1 : ((GpuRequest.WholeGpus) gpu).count();
        int milli = kind == 1 ? 500 : 1000;
        String node = "node-" + random.nextInt(nodeCount);
        List<PlacedJob.Replica> others = gang
                ? List.of(new PlacedJob.Replica("node-" + random.nextInt(nodeCount), gpus(random, devices)))
                : List.of();
        return new PlacedJob(spec, node, gpus(random, devices), milli, QuotaState.OVER_QUOTA, NOW, others);
    }

    private static List<Integer> gpus(Random random, int devices) {
        List<Integer> gpus = new ArrayList<>();
        int first = random.nextInt(8 - devices + 1);
        for (int g = 0; g < devices; g++) {
            gpus.add(first + g);
        }
        return gpus;
    }
}
