package io.quotient.core.idle;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.IdleAction;
import io.quotient.core.model.IdlePolicy;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobKind;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PendingJob;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.model.SchedulingSnapshot;
import io.quotient.core.model.Team;
import io.quotient.core.scheduling.QuotaScheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The idle pass the service's leader and the replay share: samples of watched jobs only, due only after {@code after},
 * and a released job forgotten, so that placed again it is not released for the same stretch at the next pass.
 * A node of one GPU: team lab's notebook holds it; team queue's job waits for it.
 */
class IdlePassTest {

    private static final Instant T0 = Instant.parse("2026-12-02T10:00:00Z");
    private static final NodeSpec NODE = new NodeSpec("node-0", 64_000, 262_144, 1, "A100", 81_920);
    private static final JobId NB = new JobId("lab", "nb");
    private static final Map<String, Team> TEAMS = Map.of(
            "lab",
            new Team("lab", 1000, Team.UNLIMITED, 1, 0)
                    .withIdle(new IdlePolicy(
                            Set.of(JobKind.NOTEBOOK),
                            Duration.ofMinutes(30),
                            Duration.ofMinutes(20),
                            0.05,
                            true,
                            IdleAction.STOP)),
            "queue",
            new Team("queue", 0, Team.UNLIMITED, 1, 0));

    private final IdlePass pass = new IdlePass(new IdleDecider(QuotaScheduler.withDefaults()));

    private static JobSpec spec(JobId id, JobKind kind) {
        return new JobSpec(id, new GpuRequest.WholeGpus(1), 0, 0, Set.of(), 0, true, Duration.ZERO, null, kind);
    }

    private static SchedulingSnapshot at(long minutes, JobKind kind) {
        PlacedJob nb = new PlacedJob(spec(NB, kind), NODE.name(), List.of(0), 1000, QuotaState.IN_QUOTA, T0);
        PendingJob waiter = new PendingJob(spec(new JobId("queue", "waiter"), JobKind.TRAIN), T0);
        return new SchedulingSnapshot(
                List.of(NODE), Set.of(), List.of(nb), List.of(waiter), TEAMS, T0.plus(Duration.ofMinutes(minutes)));
    }

    private static JobUtilisation idle(long fromMinutes, long toMinutes) {
        return new JobUtilisation(
                NB, T0.plus(Duration.ofMinutes(fromMinutes)), T0.plus(Duration.ofMinutes(toMinutes)), 0.01);
    }

    @Test
    void anIdleNotebookIsDueAfterItsLimitReleasedForTheWaiterThenForgotten() {
        assertThat(pass.record(at(10, JobKind.NOTEBOOK), List.of(idle(0, 10)))).containsOnlyKeys(NB);
        assertThat(pass.anyDue(at(10, JobKind.NOTEBOOK))).isFalse();
        pass.record(at(30, JobKind.NOTEBOOK), List.of(idle(10, 30)));
        assertThat(pass.anyDue(at(29, JobKind.NOTEBOOK))).isFalse();
        assertThat(pass.anyDue(at(30, JobKind.NOTEBOOK))).isTrue();

        List<IdleVerdict> verdicts = pass.decide(at(30, JobKind.NOTEBOOK), job -> false);
        assertThat(verdicts).singleElement().satisfies(v -> {
            assertThat(v.state()).isEqualTo(IdleState.RELEASE);
            assertThat(v.waiter()).contains(new JobId("queue", "waiter"));
        });
        // placed again in the same pass, it starts from busy: not due, and no verdict but busy at the next pass
        assertThat(pass.anyDue(at(31, JobKind.NOTEBOOK))).isFalse();
        assertThat(pass.decide(at(31, JobKind.NOTEBOOK), job -> false))
                .singleElement()
                .extracting(IdleVerdict::state)
                .isEqualTo(IdleState.BUSY);
    }

    @Test
    void aJobItsTeamDoesNotWatchIsNeitherRecordedNorDecided() {
        SchedulingSnapshot training = at(40, JobKind.TRAIN);
        assertThat(pass.record(training, List.of(idle(0, 40)))).isEmpty();
        assertThat(pass.anyDue(training)).isFalse();
        assertThat(pass.decide(training, job -> false)).isEmpty();
    }
}
