package io.quotient.core.usage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.quotient.core.model.JobId;
import io.quotient.core.model.QuotaState;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The accumulator against a scripted scenario whose ground truth is known: a node enforcer that reports every
 * {@link #PERIOD} seconds, jobs with known busy and idle periods and shares, a service that observes every
 * {@link #TICK} seconds, restarts, and misses reports.
 */
class UsageAccumulatorTest {

    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final int TICK = 5;
    private static final int PERIOD = 30;
    private static final JobId NOTEBOOK = new JobId("vision", "notebook");
    private static final JobId TRAINER = new JobId("nlp", "trainer");
    private static final UsageAccumulator.Settings SETTINGS = new UsageAccumulator.Settings(Duration.ofMinutes(2));

    /**
     * A fake enforcer: integrates a pod's utilization of each of its GPUs every second and publishes its totals,
     * one counter per GPU, every PERIOD.
     */
    private static final class Enforcer {
        final String podUid;
        final JobId job;
        final int gpus;
        Instant countingSince;
        double present;
        double busy;
        double memory;
        List<PodCounterReading> published = List.of();

        Enforcer(String podUid, JobId job, Instant start, int gpus) {
            this.podUid = podUid;
            this.job = job;
            this.countingSince = start;
            this.gpus = gpus;
        }

        /** One second at this utilization (percent of each GPU) and memory (MiB on each GPU). */
        void second(double utilizationPercent, double memoryMib) {
            present += 1;
            busy += utilizationPercent / 100;
            memory += memoryMib;
        }

        void publish() {
            List<PodCounterReading> readings = new ArrayList<>();
            for (int gpu = 0; gpu < gpus; gpu++) {
                readings.add(new PodCounterReading(
                        "node-a",
                        podUid,
                        "GPU-" + gpu,
                        job,
                        new PodCounters(countingSince, present, present, busy, memory)));
            }
            published = readings;
        }

        void restart(Instant at) {
            countingSince = at;
            present = 0;
            busy = 0;
            memory = 0;
            published = List.of();
        }
    }

    private static Instant at(long seconds) {
        return T0.plusSeconds(seconds);
    }

    private static List<PodCounterReading> reports(Enforcer... enforcers) {
        List<PodCounterReading> result = new ArrayList<>();
        for (Enforcer e : enforcers) {
            result.addAll(e.published);
        }
        return result;
    }

    private static UsageCounters total(UsageAccumulator accumulator, JobId job) {
        return accumulator.record(job).orElseThrow().total();
    }

    @Test
    void aNotebookBusyThenIdleIsAccountedAsItsGroundTruth() {
        UsageAccumulator accumulator = new UsageAccumulator(SETTINGS, List.of());
        JobAllocation half = new JobAllocation(NOTEBOOK, 0.5, 1, QuotaState.IN_QUOTA, 40_960);
        accumulator.observe(at(0), List.of(half), List.of());
        Enforcer enforcer = new Enforcer("pod-1", NOTEBOOK, at(1), 1);
        // 20 minutes: busy at 40 % of the GPU (80 % of its half) for 10, then idle
        for (int s = 1; s <= 1200; s++) {
            enforcer.second(s <= 600 ? 40 : 0, 2048);
            if (s % PERIOD == 0) {
                enforcer.publish();
            }
            if (s % TICK == 0) {
                accumulator.observe(at(s), List.of(half), reports(enforcer));
            }
        }

        UsageCounters usage = total(accumulator, NOTEBOOK);

        assertThat(usage.allocatedInQuotaGpuSeconds()).isCloseTo(600, within(1e-6)); // 0.5 GPU x 1200 s
        assertThat(usage.allocatedBorrowedGpuSeconds()).isZero();
        assertThat(usage.busyGpuSeconds()).isCloseTo(240, within(1e-6)); // 0.4 x 600 s
        assertThat(usage.usedGpuSeconds()).isCloseTo(240, within(1e-6));
        assertThat(usage.idleGpuSeconds()).isCloseTo(360, within(1e-6));
        assertThat(usage.utilization().orElseThrow()).isCloseTo(0.4, within(1e-6));
        assertThat(usage.reservedMemoryMibSeconds()).isCloseTo(40_960.0 * 1200, within(1e-3));
        assertThat(usage.usedMemoryMibSeconds()).isCloseTo(2048.0 * 1200, within(1e-3));
    }

    @Test
    void aRestartOfTheServiceNeitherDoubleCountsNorLeavesAGap() {
        JobAllocation borrowed = new JobAllocation(TRAINER, 2, 2, QuotaState.OVER_QUOTA, 0);
        UsageAccumulator first = new UsageAccumulator(SETTINGS, List.of());
        first.observe(at(0), List.of(borrowed), List.of());
        Enforcer enforcer = new Enforcer("pod-2", TRAINER, at(1), 2);
        List<JobUsageRecord> stored = List.of();
        UsageAccumulator current = first;
        for (int s = 1; s <= 900; s++) {
            enforcer.second(75, 0); // each of its two GPUs at 75 %
            if (s % PERIOD == 0) {
                enforcer.publish();
            }
            if (s == 400) {
                // the leader dies at 400 s having stored at 390 s; the next one starts from the store at 460 s
                current = null;
            } else if (s == 460) {
                current = new UsageAccumulator(SETTINGS, stored);
            }
            if (current != null && s % TICK == 0) {
                List<JobUsageRecord> changed = current.observe(at(s), List.of(borrowed), reports(enforcer));
                if (s % 30 == 0) {
                    stored = merge(stored, changed);
                }
            }
        }

        UsageCounters usage = total(current, TRAINER);

        assertThat(usage.allocatedBorrowedGpuSeconds())
                .as("2 GPUs x 900 s, the 70 s silence included")
                .isCloseTo(1800, within(1e-6));
        assertThat(usage.busyGpuSeconds()).as("1.5 GPUs busy x 900 s").isCloseTo(1350, within(1e-6));
        assertThat(usage.usedGpuSeconds()).isCloseTo(1350, within(1e-6));
    }

    @Test
    void anEnforcerRestartStartsNewCountersThatAreCountedWhole() {
        JobAllocation whole = new JobAllocation(NOTEBOOK, 1, 1, QuotaState.IN_QUOTA, 0);
        UsageAccumulator accumulator = new UsageAccumulator(SETTINGS, List.of());
        accumulator.observe(at(0), List.of(whole), List.of());
        Enforcer enforcer = new Enforcer("pod-1", NOTEBOOK, at(1), 1);
        for (int s = 1; s <= 600; s++) {
            if (s == 301) {
                enforcer.restart(at(301)); // the enforcer's totals restart from zero
            }
            enforcer.second(100, 0);
            if (s % PERIOD == 0) {
                enforcer.publish();
            }
            if (s % TICK == 0) {
                accumulator.observe(at(s), List.of(whole), reports(enforcer));
            }
        }

        assertThat(total(accumulator, NOTEBOOK).busyGpuSeconds()).isCloseTo(600, within(1e-6));
    }

    @Test
    void theSameReportTwiceAddsNothingAndAMissedOneCostsNothing() {
        JobAllocation whole = new JobAllocation(NOTEBOOK, 1, 1, QuotaState.IN_QUOTA, 0);
        UsageAccumulator accumulator = new UsageAccumulator(SETTINGS, List.of());
        accumulator.observe(at(0), List.of(whole), List.of());
        PodCounters at30 = new PodCounters(at(0), 30, 30, 12, 0);
        PodCounters at90 = new PodCounters(at(0), 90, 90, 50, 0);
        PodCounterReading first = new PodCounterReading("node-a", "pod-1", "GPU-0", NOTEBOOK, at30);

        accumulator.observe(at(30), List.of(whole), List.of(first));
        accumulator.observe(at(60), List.of(whole), List.of(first));
        accumulator.observe(
                at(90), List.of(whole), List.of(new PodCounterReading("node-a", "pod-1", "GPU-0", NOTEBOOK, at90)));

        assertThat(total(accumulator, NOTEBOOK).busyGpuSeconds()).isCloseTo(50, within(1e-9));
        assertThat(total(accumulator, NOTEBOOK).allocatedGpuSeconds()).isCloseTo(90, within(1e-9));
    }

    @Test
    void aReportBehindTheStoredBaselineIsIgnoredSoNothingIsCountedTwice() {
        JobAllocation whole = new JobAllocation(NOTEBOOK, 1, 1, QuotaState.IN_QUOTA, 0);
        UsageAccumulator accumulator = new UsageAccumulator(SETTINGS, List.of());
        accumulator.observe(at(0), List.of(whole), List.of());
        PodCounterReading at60 =
                new PodCounterReading("node-a", "pod-1", "GPU-0", NOTEBOOK, new PodCounters(at(0), 60, 60, 40, 0));
        PodCounterReading staleAt30 =
                new PodCounterReading("node-a", "pod-1", "GPU-0", NOTEBOOK, new PodCounters(at(0), 30, 30, 20, 0));
        PodCounterReading at90 =
                new PodCounterReading("node-a", "pod-1", "GPU-0", NOTEBOOK, new PodCounters(at(0), 90, 90, 55, 0));

        accumulator.observe(at(60), List.of(whole), List.of(at60));
        accumulator.observe(at(70), List.of(whole), List.of(staleAt30)); // a new leader's view, still behind
        accumulator.observe(at(90), List.of(whole), List.of(at90));

        assertThat(total(accumulator, NOTEBOOK).busyGpuSeconds())
                .as("the pod was busy 55 s in all, whatever order the reports came in")
                .isCloseTo(55, within(1e-9));
    }

    @Test
    void countersThatBeganBeforeTheJobWasTrackedAreABaselineOnly() {
        UsageAccumulator accumulator = new UsageAccumulator(SETTINGS, List.of());
        JobAllocation whole = new JobAllocation(NOTEBOOK, 1, 1, QuotaState.IN_QUOTA, 0);
        PodCounters old = new PodCounters(at(-3600), 3600, 3600, 3000, 0);

        accumulator.observe(
                at(0), List.of(whole), List.of(new PodCounterReading("node-a", "pod-1", "GPU-0", NOTEBOOK, old)));
        accumulator.observe(
                at(10),
                List.of(whole),
                List.of(new PodCounterReading(
                        "node-a", "pod-1", "GPU-0", NOTEBOOK, new PodCounters(at(-3600), 3610, 3610, 3004, 0))));

        assertThat(total(accumulator, NOTEBOOK).busyGpuSeconds())
                .as("only the 10 s seen")
                .isCloseTo(4, within(1e-9));
    }

    @Test
    void aSilenceLongerThanMaxGapIsNotGuessedAndMidnightSplitsTheDays() {
        UsageAccumulator accumulator = new UsageAccumulator(SETTINGS, List.of());
        JobAllocation whole = new JobAllocation(TRAINER, 1, 1, QuotaState.IN_QUOTA, 0);
        Instant beforeMidnight = Instant.parse("2026-12-01T23:59:00Z");
        accumulator.observe(beforeMidnight, List.of(whole), List.of());
        accumulator.observe(beforeMidnight.plusSeconds(120), List.of(whole), List.of());
        accumulator.observe(beforeMidnight.plusSeconds(120 + 3600), List.of(whole), List.of()); // an hour of silence

        JobUsageRecord record = accumulator.record(TRAINER).orElseThrow();

        assertThat(record.days().get(LocalDate.parse("2026-12-01")).allocatedGpuSeconds())
                .isCloseTo(60, within(1e-9));
        assertThat(record.days().get(LocalDate.parse("2026-12-02")).allocatedGpuSeconds())
                .as("60 s after midnight, then only max-gap of the hour")
                .isCloseTo(60 + 120, within(1e-9));
        assertThat(record.between(LocalDate.parse("2026-12-02"), LocalDate.parse("2026-12-02"))
                        .allocatedGpuSeconds())
                .isCloseTo(180, within(1e-9));
    }

    @Test
    void hoursSplitTheAllocationAndHoldThePodUsageOfTheHourItWasSeenIn() {
        UsageAccumulator accumulator = new UsageAccumulator(SETTINGS, List.of());
        JobAllocation two = new JobAllocation(NOTEBOOK, 2, 2, QuotaState.IN_QUOTA, 0);
        Instant start = Instant.parse("2026-12-01T09:59:00Z");
        Enforcer enforcer = new Enforcer("pod-1", NOTEBOOK, start, 1);
        accumulator.observe(start, List.of(two), List.of());
        for (int s = 1; s <= 120; s++) {
            enforcer.second(50, 0);
            if (s % TICK == 0) {
                enforcer.publish();
                accumulator.observe(start.plusSeconds(s), List.of(two), reports(enforcer));
            }
        }

        JobUsageRecord record = accumulator.record(NOTEBOOK).orElseThrow();
        UsageCounters nine = record.hours().get(Instant.parse("2026-12-01T09:00:00Z"));
        UsageCounters ten = record.hours().get(Instant.parse("2026-12-01T10:00:00Z"));

        assertThat(nine.allocatedGpuSeconds())
                .as("2 GPUs for 60 s before 10:00")
                .isCloseTo(120, within(1e-9));
        assertThat(ten.allocatedGpuSeconds()).isCloseTo(120, within(1e-9));
        // usage goes to the hour of the observation: those 5 s to 55 s in are 09:59:05 to 09:59:55
        assertThat(nine.busyGpuSeconds() + ten.busyGpuSeconds()).isCloseTo(60, within(1e-9));
        assertThat(nine.busyGpuSeconds()).isCloseTo(27.5, within(1e-9));
        assertThat(record.hours().values().stream().reduce(UsageCounters.ZERO, UsageCounters::plus))
                .as("the hours add up to the day")
                .isEqualTo(record.days().get(LocalDate.parse("2026-12-01")));
    }

    @Test
    void hoursOlderThanTheHourlyDaysAreDroppedAndTheirDaysKept() {
        UsageAccumulator accumulator = new UsageAccumulator(SETTINGS, List.of());
        JobAllocation one = new JobAllocation(TRAINER, 1, 1, QuotaState.IN_QUOTA, 0);
        Instant start = Instant.parse("2026-12-01T12:00:00Z");
        accumulator.observe(start, List.of(one), List.of());
        accumulator.observe(start.plusSeconds(60), List.of(one), List.of());
        Instant lastKept = JobUsageRecord.startOf(LocalDate.parse("2026-12-01").plusDays(JobUsageRecord.HOURLY_DAYS))
                .minusSeconds(1);
        accumulator.observe(lastKept, List.of(), List.of());
        assertThat(accumulator.record(TRAINER).orElseThrow().hours()).hasSize(1);

        accumulator.observe(lastKept.plusSeconds(2), List.of(), List.of());

        JobUsageRecord record = accumulator.record(TRAINER).orElseThrow();
        assertThat(record.hours()).isEmpty();
        assertThat(record.days().get(LocalDate.parse("2026-12-01")).allocatedGpuSeconds())
                .isCloseTo(60, within(1e-9));
    }

    @Test
    void aPodOfAnUnknownJobIsNotAccounted() {
        UsageAccumulator accumulator = new UsageAccumulator(SETTINGS, List.of());
        List<JobUsageRecord> changed = accumulator.observe(
                at(0),
                List.of(),
                List.of(new PodCounterReading(
                        "node-a", "pod-9", "GPU-0", new JobId("other", "x"), new PodCounters(at(0), 10, 10, 10, 0))));

        assertThat(changed).isEmpty();
        assertThat(accumulator.records()).isEmpty();
    }

    @Test
    void anUnmeasuredShareIsNeitherUsedNorIdle() {
        UsageCounters mig = new UsageCounters(100, 0, 100, 0, 0, 100, 0, 0);
        UsageCounters halfMeasured = new UsageCounters(100, 0, 100, 0, 30, 100, 50, 0);
        UsageCounters enforcerDied = new UsageCounters(100, 0, 100, 0, 10, 40, 40, 0); // reports stopped at 40 s

        assertThat(mig.unmeasuredGpuSeconds()).isEqualTo(100);
        assertThat(mig.idleGpuSeconds()).isZero();
        assertThat(mig.utilization()).isEmpty();
        assertThat(halfMeasured.measuredGpuSeconds()).isEqualTo(50);
        assertThat(halfMeasured.usedGpuSeconds()).isEqualTo(30);
        assertThat(halfMeasured.idleGpuSeconds()).isEqualTo(20);
        assertThat(enforcerDied.measuredGpuSeconds())
                .as("not idle after its reports stopped")
                .isEqualTo(40);
        assertThat(enforcerDied.unmeasuredGpuSeconds()).isEqualTo(60);
    }

    private static List<JobUsageRecord> merge(List<JobUsageRecord> stored, List<JobUsageRecord> changed) {
        List<JobUsageRecord> result = new ArrayList<>(stored);
        for (JobUsageRecord record : changed) {
            result.removeIf(r -> r.job().equals(record.job()));
            result.add(record);
        }
        return result;
    }
}
