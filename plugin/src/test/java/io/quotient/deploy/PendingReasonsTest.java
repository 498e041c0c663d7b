package io.quotient.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PendingReasonsTest {

    @Test
    void aPreemptedJobKeepsSayingSoWhileTheWaitReasonChanges() {
        String preempted = "Preempted by team-b reclaiming its guarantee";
        String first = PendingReasons.merge(preempted, "no node with 4 free GPUs");
        String second = PendingReasons.merge(first, "team-a is at its maxGpus");

        assertThat(first).isEqualTo(preempted + "; still waiting: no node with 4 free GPUs");
        assertThat(second).isEqualTo(preempted + "; still waiting: team-a is at its maxGpus");
    }

    @Test
    void otherJobsShowTheLatestReason() {
        assertThat(PendingReasons.merge("recorded; waiting", "no node with 4 free GPUs"))
                .isEqualTo("no node with 4 free GPUs");
        assertThat(PendingReasons.merge(null, "quota")).isEqualTo("quota");
    }
}
