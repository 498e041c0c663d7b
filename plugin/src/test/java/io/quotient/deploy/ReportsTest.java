package io.quotient.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.scheduling.Plan;
import io.quotient.core.scheduling.PlanAction;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReportsTest {

    private final ScriptedScheduler scheduler = new ScriptedScheduler();
    private final ServiceHarness h = new ServiceHarness(scheduler, ScriptedScheduler.SIMPLE_VALIDATOR);

    private void placeNext(String node, List<Integer> gpus, int milli, QuotaState quota) {
        scheduler.onSchedule = (s, spec) ->
                new Plan(List.of(new PlanAction.Place(PlanApplicationTest.at(s, spec, node, gpus, milli, quota))));
    }

    @Test
    void teamsShowInQuotaAndBorrowedGpusAndWaitingJobs() {
        placeNext("gpu-node-1", List.of(0, 1, 2), 1000, QuotaState.IN_QUOTA);
        h.deployments.deploy(JobFixtures.wholeGpus("team-a", "a1", 3));
        placeNext("gpu-node-2", List.of(0), 250, QuotaState.OVER_QUOTA);
        h.deployments.deploy(JobFixtures.fraction("team-a", "a2", 0.25));
        scheduler.onSchedule = (s, spec) -> new Plan(List.of(new PlanAction.KeepPending(spec.id(), "full")));
        h.deployments.deploy(JobFixtures.wholeGpus("team-b", "b1", 8));

        // in quota is what A holds now against its guarantee of 20, whatever the plan recorded at placement
        assertThat(h.reports.teams())
                .extracting(t -> t.team().name() + " " + t.allocatedMilli() + " " + t.inQuotaMilli() + " "
                        + t.overQuotaMilli() + " " + t.fairShareMilli() + " " + t.pendingJobs())
                .containsExactlyInAnyOrder("team-a 3250 3250 0 3250 0", "team-b 0 0 0 8000 1");
    }

    @Test
    void clusterShowsSharesPerGpuAndFragmentation() {
        placeNext("gpu-node-1", List.of(0), 300, QuotaState.IN_QUOTA);
        h.deployments.deploy(JobFixtures.fraction("team-a", "f1", 0.3));
        placeNext("gpu-node-1", List.of(1, 2, 3, 4, 5, 6, 7, 8, 9), 1000, QuotaState.IN_QUOTA);
        h.deployments.deploy(JobFixtures.wholeGpus("team-a", "w9", 9));

        Reports.ClusterUsage usage = h.reports.cluster();

        assertThat(usage.totalMilli()).isEqualTo(40_000);
        assertThat(usage.freeMilli()).isEqualTo(40_000 - 9_300);
        assertThat(usage.wholeFreeGpus()).isEqualTo(30);
        assertThat(usage.wholeFreeNodes()).isEqualTo(3);
        Reports.NodeUsage node1 = usage.nodes().get(0);
        assertThat(node1.freeMilli()).isEqualTo(700);
        assertThat(node1.gpus().get(0).holders())
                .extracting(g -> g.job().name() + "=" + g.milli())
                .containsExactly("f1=300");
        assertThat(node1.gpus().get(0).reservationUuid()).startsWith("GPU-");
        assertThat(node1.gpus().get(0).freeMilli()).isEqualTo(700);
        // the 0.7 left on node 1 is stranded for every shape bigger than 0.7 or needing 2+ GPUs
        assertThat(node1.fragmentedMilli()).isGreaterThan(0).isLessThanOrEqualTo(700);
        assertThat(usage.nodes().get(1).fragmentedMilli()).isLessThan(10_000 * 0.2);
        double sum = usage.nodes().stream()
                .mapToDouble(Reports.NodeUsage::fragmentedMilli)
                .sum();
        assertThat(usage.fragmentationAmountPercent()).isCloseTo(100 * sum / 40_000, within(1e-9));
        assertThat(usage.fragmentationRatioPercent()).isCloseTo(100 * sum / (40_000 - 9_300), within(1e-9));
    }

    @Test
    void clusterShowsEveryReplicaOfAGangAsHeld() {
        // issue 31 finding 13: the view showed only the first replica; the others' GPUs looked free with no holder
        scheduler.onSchedule = (s, spec) -> new Plan(List.of(new PlanAction.Place(new PlacedJob(
                spec,
                "gpu-node-1",
                List.of(0, 1),
                1000,
                QuotaState.IN_QUOTA,
                s.now(),
                List.of(
                        new PlacedJob.Replica("gpu-node-2", List.of(2, 3)),
                        new PlacedJob.Replica("gpu-node-3", List.of(4, 5)))))));
        h.deployments.deploy(JobFixtures.wholeGpus("team-a", "ddp", 2));

        Reports.ClusterUsage usage = h.reports.cluster();

        assertThat(usage.freeMilli()).isEqualTo(40_000 - 6_000);
        assertThat(usage.wholeFreeNodes()).isEqualTo(1);
        assertThat(usage.nodes())
                .extracting(Reports.NodeUsage::freeMilli)
                .containsExactly(8_000L, 8_000L, 8_000L, 10_000L);
        for (int n = 0; n < 3; n++) {
            Reports.NodeUsage node = usage.nodes().get(n);
            assertThat(node.gpus().get(2 * n).holders())
                    .extracting(g -> g.job().name() + "=" + g.milli())
                    .containsExactly("ddp=1000");
            assertThat(node.gpus().get(2 * n + 1).freeMilli()).isZero();
        }
    }
}
