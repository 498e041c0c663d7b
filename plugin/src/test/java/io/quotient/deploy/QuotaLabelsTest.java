package io.quotient.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.QuotaState;
import io.quotient.core.placement.TargetWorkload;
import io.quotient.core.scheduling.QuotaScheduler;
import io.quotient.deploy.port.JobRecord;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The quota state stored with a placed job follows the recomputed one (the smallest set of its team's jobs covering
 * the guarantee): the leader's re-queue pass rewrites the labels that changed.
 */
class QuotaLabelsTest {

    private final AtomicBoolean leader = new AtomicBoolean(true);
    private final ServiceHarness h = new ServiceHarness(
            new QuotaScheduler("quotient", 0, TargetWorkload.typical()),
            ScriptedScheduler.SIMPLE_VALIDATOR,
            ServiceHarness.fourNodesOfTenGpus(),
            ServiceHarness.twoTeamsOfTwenty(),
            gateway -> gateway,
            leader::get);

    @Test
    void theReQueuePassRewritesLabelsTheCoverNoLongerMatches() {
        JobRecord small = h.deployments.deploy(JobFixtures.wholeGpus("team-a", "small", 2));
        JobRecord first = h.deployments.deploy(JobFixtures.wholeGpus("team-a", "first", 10));
        JobRecord second = h.deployments.deploy(JobFixtures.wholeGpus("team-a", "second", 10));
        assertThat(stored(small)).as("stored at its placement").isEqualTo(QuotaState.IN_QUOTA);
        assertThat(h.reports.currentQuotaStates().get(small.id()))
                .as("the two 10-GPU jobs cover the guarantee of 20")
                .isEqualTo(QuotaState.OVER_QUOTA);

        h.decisions.requeuePending();

        assertThat(stored(small)).isEqualTo(QuotaState.OVER_QUOTA);
        assertThat(stored(first)).isEqualTo(QuotaState.IN_QUOTA);
        assertThat(stored(second)).isEqualTo(QuotaState.IN_QUOTA);
        h.decisions.requeuePending();
        assertThat(stored(small)).as("stable once current").isEqualTo(QuotaState.OVER_QUOTA);
    }

    @Test
    void aFollowerRewritesNoLabel() {
        JobRecord small = h.deployments.deploy(JobFixtures.wholeGpus("team-a", "small", 2));
        h.deployments.deploy(JobFixtures.wholeGpus("team-a", "first", 10));
        h.deployments.deploy(JobFixtures.wholeGpus("team-a", "second", 10));

        leader.set(false);
        h.decisions.requeuePending();

        assertThat(stored(small)).isEqualTo(QuotaState.IN_QUOTA);
    }

    private QuotaState stored(JobRecord job) {
        return h.store.find(job.id()).orElseThrow().status().quotaState();
    }
}
