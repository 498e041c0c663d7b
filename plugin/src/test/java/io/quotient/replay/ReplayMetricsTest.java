package io.quotient.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobKind;
import io.quotient.core.model.Team;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The metrics on traces small enough to compute by hand. */
class ReplayMetricsTest {

    private static final long T0 = 1_506_816_000_000L; // 2017-10-01T00:00:00Z
    private static final long HOUR = 3_600_000;

    private static ReplayJob job(String name, String team, long submitMs, long durationMs, int gpus) {
        return TrainingJobs.wholeGpus(name, team, submitMs, durationMs, gpus, ReplayJob.DEFAULT_CHECKPOINT_MS);
    }

    /** Teams a and b, in that order, guaranteed so many GPUs. */
    private static Map<String, Team> teams(int a, int b) {
        Map<String, Team> teams = new LinkedHashMap<>();
        teams.put("a", Team.of("a", a));
        teams.put("b", Team.of("b", b));
        return teams;
    }

    @Test
    void aSecondJobWaitingForTheOnlyGpuWaitsAnHourAtFullAllocation() {
        List<ReplayJob> jobs = List.of(job("first", "a", T0, HOUR, 1), job("second", "a", T0, HOUR, 1));
        ReplayResult r =
                Replay.run(Baselines.named("quotient"), ClusterSize.uniform(1, 1), Map.of("a", Team.of("a", 1)), jobs);
        Metrics m = r.overall();
        assertThat(m.finished()).isEqualTo(2);
        assertThat(m.queueDelaySeconds().p99()).isEqualTo(3600.0);
        assertThat(m.queueDelaySeconds().p50()).isEqualTo(0.0);
        assertThat(m.jctSeconds().p95()).isEqualTo(7200.0);
        assertThat(m.gpuAllocationPctWhileWaiting()).isEqualTo(100.0);
        assertThat(m.fragmentationDelayJobHours()).isZero();
        assertThat(m.deliveredGpuHours()).isCloseTo(2.0, within(1e-9));
        assertThat(m.guaranteeDeficitGpuHours()).isZero();
        assertThat(m.timeToGuaranteeSeconds().p50()).isNaN();
    }

    @Test
    void reclaimingABorrowedGpuCostsTheWorkSinceTheCheckpointAndTimesTheGuarantee() {
        // b borrows the GPU a is guaranteed; a's job arrives 45 minutes later and takes it back at once
        List<ReplayJob> jobs =
                List.of(job("borrower", "b", T0, 2 * HOUR, 1), job("owner", "a", T0 + 45 * 60_000, HOUR, 1));
        Map<String, Team> teams = teams(1, 0);
        ReplayResult r = Replay.run(Baselines.named("quotient"), ClusterSize.uniform(1, 1), teams, jobs);
        Metrics m = r.overall();
        assertThat(m.preemptions()).isEqualTo(1);
        assertThat(m.lostGpuHours()).isCloseTo(0.25, within(1e-9)); // 45 min run, checkpoint at 30
        assertThat(m.deliveredGpuHours()).isCloseTo(3.25, within(1e-9));
        assertThat(r.teams().get("a").queueDelaySeconds().p50()).isZero();
        // the borrower resumes from its checkpoint after the owner: 1.5 h left from 01:45
        assertThat(r.teams().get("b").jctSeconds().p50()).isEqualTo(3.25 * 3600);
        assertThat(m.timeToGuaranteeSeconds().p99()).isNaN(); // reclaimed at the arrival: no time below it

        ReplayResult borrow = Replay.run(Baselines.named("borrow"), ClusterSize.uniform(1, 1), teams, jobs);
        assertThat(borrow.overall().preemptions()).isZero();
        assertThat(borrow.overall().timeToGuaranteeSeconds().p99()).isEqualTo(75 * 60.0);
        assertThat(borrow.overall().guaranteeDeficitGpuHours()).isCloseTo(1.25, within(1e-9));
    }

    @Test
    void aJobWaitingWhileEnoughGpusAreFreeOnlyAcrossNodesCountsAsFragmentationDelay() {
        // two 2-GPU nodes each keep one GPU busy for two hours: a 2-GPU job waits although 2 GPUs are free
        List<ReplayJob> jobs = List.of(
                job("x", "a", T0, 2 * HOUR, 1), job("y", "a", T0, 2 * HOUR, 1), job("pair", "a", T0 + 1, HOUR, 2));
        ReplayResult r =
                Replay.run(Baselines.named("fifo"), ClusterSize.uniform(2, 2), Map.of("a", Team.of("a", 4)), jobs);
        assertThat(r.overall().queueDelaySeconds().p99()).isCloseTo(2 * 3600, within(1.0));
        assertThat(r.overall().fragmentationDelayJobHours()).isCloseTo(2.0, within(0.01));
    }

    @Test
    void theOfferedLoadCountsOnlyTheWorkWithinTheSpanOfTheSubmissions() {
        // over 10 hours of submissions: 2 GPUs for 5 of them, and 1 GPU for 100 hours of which 2 fall in the span
        List<ReplayJob> jobs = List.of(
                job("early", "a", T0, 5 * HOUR, 2),
                job("long", "a", T0 + 8 * HOUR, 100 * HOUR, 1),
                job("last", "a", T0 + 10 * HOUR, HOUR, 4));
        assertThat(ClusterSize.meanOfferedGpus(jobs, ClusterSize.uniform(1, 8))).isCloseTo(1.2, within(1e-9));
        assertThat(ClusterSize.forLoad(jobs, 0.1, 4)).hasSize(3);
    }

    @Test
    void aJobLargerThanItsTeamsGuaranteeLeavesTheTeamAtItsWholeJobTarget() {
        // a is guaranteed 3 of 8 GPUs and asks 4 at once while b borrows all 8: no placement within 3 GPUs exists
        List<ReplayJob> jobs = List.of(job("borrower", "b", T0, 4 * HOUR, 8), job("large", "a", T0 + HOUR, HOUR, 4));
        Map<String, Team> teams = teams(3, 5);
        ReplayResult r = Replay.run(Baselines.named("borrow"), ClusterSize.uniform(1, 8), teams, jobs);

        assertThat(r.teams().get("a").queueDelaySeconds().p50()).isEqualTo(3 * 3600.0);
        assertThat(r.overall().guaranteeDeficitGpuHours()).isZero();
        assertThat(r.overall().timeToGuaranteeSeconds().p99()).isNaN();
    }

    @Test
    void aTeamWhoseWaitingJobIsLargerThanItsGapIsNotBelowItsTarget() {
        // a holds 9 of its 10 in 2-, 4- and 3-GPU jobs and then asks 8: 8 + 2 = 10 only without its own 4 and 3
        List<ReplayJob> jobs = List.of(
                job("two", "a", T0, 3 * HOUR, 2),
                job("four", "a", T0, 2 * HOUR, 4),
                job("three", "a", T0, 3 * HOUR, 3),
                job("eight", "a", T0 + HOUR, HOUR, 8));
        ReplayResult r = Replay.run(Baselines.named("quotient"), ClusterSize.uniform(2, 8), teams(10, 6), jobs);

        assertThat(r.teams().get("a").queueDelaySeconds().p99()).isEqualTo(3600.0); // until the 4-GPU job ends
        assertThat(r.overall().guaranteeDeficitGpuHours()).isZero();
        assertThat(r.overall().timeToGuaranteeSeconds().p99()).isNaN();
    }

    @Test
    void aTeamWithAWaitingJobWithinItsGapIsBelowItsTargetUntilTheJobIsPlaced() {
        // a holds 6 of its 10 while b borrows the rest (never taken back under borrow); a's 4-GPU job waits an hour
        List<ReplayJob> jobs = List.of(
                job("held", "a", T0, 4 * HOUR, 6),
                job("b8", "b", T0, 2 * HOUR, 8),
                job("b2", "b", T0, 2 * HOUR, 2),
                job("four", "a", T0 + HOUR, HOUR, 4));
        ReplayResult r = Replay.run(Baselines.named("borrow"), ClusterSize.uniform(2, 8), teams(10, 6), jobs);

        assertThat(r.teams().get("a").timeToGuaranteeSeconds().p99()).isEqualTo(3600.0);
        assertThat(r.teams().get("a").guaranteeDeficitGpuHours()).isCloseTo(4.0, within(1e-9));
    }

    @Test
    void aDeficitOnlyAMinimumRuntimeCausesIsReportedApart() {
        // b borrows the GPU a is guaranteed with a job protected for its first 2 hours; a asks for it after 1 hour
        ReplayJob protectedJob = new ReplayJob(
                "protected",
                "b",
                T0,
                3 * HOUR,
                new GpuRequest.WholeGpus(1),
                0,
                0,
                Set.of(),
                1,
                JobKind.TRAIN,
                0,
                true,
                ReplayJob.DEFAULT_CHECKPOINT_MS,
                Duration.ofHours(2),
                IdleProfile.BUSY);
        List<ReplayJob> jobs = List.of(protectedJob, job("owner", "a", T0 + HOUR, HOUR, 1));
        Map<String, Team> teams = teams(1, 0);
        ReplayResult r = Replay.run(Baselines.named("quotient"), ClusterSize.uniform(1, 1), teams, jobs);

        // reclaimed at the first pass after the minimum runtime (a tick of at most 5 s)
        assertThat(r.overall().preemptions()).isEqualTo(1);
        assertThat(r.overall().guaranteeDeficitGpuHours()).isCloseTo(1.0, within(0.01));
        assertThat(r.overall().guaranteeDeficitBlockedGpuHours()).isCloseTo(1.0, within(1e-6));
        assertThat(r.teams().get("a").guaranteeDeficitBlockedGpuHours()).isCloseTo(1.0, within(1e-6));
    }

    @Test
    void aDeficitAPreemptibleBorrowerCausesIsNotBlocked() {
        List<ReplayJob> jobs = List.of(job("borrower", "b", T0, 2 * HOUR, 1), job("owner", "a", T0 + HOUR, HOUR, 1));
        Map<String, Team> teams = teams(1, 0);
        ReplayResult r = Replay.run(Baselines.named("borrow"), ClusterSize.uniform(1, 1), teams, jobs);

        assertThat(r.overall().guaranteeDeficitGpuHours()).isCloseTo(1.0, within(1e-6));
        assertThat(r.overall().guaranteeDeficitBlockedGpuHours()).isZero();
    }
}
