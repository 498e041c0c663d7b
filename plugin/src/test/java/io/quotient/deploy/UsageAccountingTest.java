package io.quotient.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.quotient.adapters.memory.InMemoryFairShareUsageStore;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.core.model.QuotaState;
import io.quotient.core.model.Team;
import io.quotient.core.model.UsageRecord;
import io.quotient.core.scheduling.FairShareSettings;
import io.quotient.deploy.port.FairShareUsageStore;
import io.quotient.deploy.port.LeadershipGate;
import io.quotient.testing.TestClocks;
import io.quotient.time.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The service's usage history for decayed fair shares: what it records, and that it survives a restart. */
class UsageAccountingTest {

    private static final FairShareSettings DECAY = new FairShareSettings(Duration.ofHours(12), Duration.ofDays(7));
    private static final Map<String, Team> TEAMS = Map.of("a", Team.of("a", 2), "b", Team.of("b", 2));

    private static PlacedJob running(String team, String name, int gpus, MutableClock clock) {
        JobSpec spec = new JobSpec(
                new JobId(team, name), new GpuRequest.WholeGpus(gpus), 1000, 1024, Set.of(), 0, true, Duration.ZERO);
        return new PlacedJob(
                spec,
                "node-1",
                IntStream.range(0, gpus).boxed().toList(),
                1000,
                QuotaState.OVER_QUOTA,
                clock.instant());
    }

    @Test
    void recordsWhatEachTeamBorrowsBeyondItsGuaranteeAndSurvivesARestart() {
        MutableClock clock = new MutableClock(TestClocks.START);
        InMemoryFairShareUsageStore store = new InMemoryFairShareUsageStore();
        UsageAccounting usage = new UsageAccounting(DECAY, clock, store, LeadershipGate.ALWAYS, Duration.ZERO);
        // a holds 6 with a guarantee of 2: borrows 4; b holds 2, its guarantee: borrows nothing
        List<PlacedJob> placed = List.of(running("a", "a1", 6, clock), running("b", "b1", 2, clock));
        usage.observe(TEAMS, placed);
        clock.advance(Duration.ofHours(12));
        Map<String, Double> past = usage.observe(TEAMS, placed);
        // 4 GPUs over the last half-life out of a 7-day window: 4 x (1 - 1/2) / (1 - 2^-14)
        assertThat(past.get("a")).isCloseTo(2000, within(1.0));
        assertThat(past).doesNotContainKey("b");

        UsageAccounting restarted = new UsageAccounting(DECAY, clock, store, LeadershipGate.ALWAYS, Duration.ZERO);
        assertThat(restarted.decayed()).isEqualTo(usage.decayed());
    }

    @Test
    void withoutAHalfLifeNothingIsRecorded() {
        MutableClock clock = new MutableClock(TestClocks.START);
        InMemoryFairShareUsageStore store = new InMemoryFairShareUsageStore();
        UsageAccounting usage = new UsageAccounting(
                FairShareSettings.INSTANTANEOUS, clock, store, LeadershipGate.ALWAYS, Duration.ZERO);
        assertThat(usage.observe(TEAMS, List.of(running("a", "a1", 6, clock)))).isEmpty();
        assertThat(store.load()).isEmpty();
    }

    /** A gate whose term the test sets: empty while this replica follows. */
    private static LeadershipGate termOf(AtomicReference<String> term) {
        return new LeadershipGate() {
            @Override
            public boolean isLeader() {
                return term.get() != null;
            }

            @Override
            public Optional<String> term() {
                return Optional.ofNullable(term.get());
            }
        };
    }

    @Test
    void aFollowerNeitherRecordsNorSavesAndANewTermContinuesFromWhatTheLastLeaderSaved() {
        MutableClock clock = new MutableClock(TestClocks.START);
        InMemoryFairShareUsageStore store = new InMemoryFairShareUsageStore();
        AtomicReference<String> termOfA = new AtomicReference<>("a-1");
        AtomicReference<String> termOfB = new AtomicReference<>();
        UsageAccounting a = new UsageAccounting(DECAY, clock, store, termOf(termOfA), Duration.ZERO);
        UsageAccounting b = new UsageAccounting(DECAY, clock, store, termOf(termOfB), Duration.ZERO);
        List<PlacedJob> placed = List.of(running("a", "a1", 6, clock));
        a.observe(TEAMS, placed);
        b.observe(TEAMS, placed);
        clock.advance(Duration.ofHours(12));
        a.observe(TEAMS, placed);
        assertThat(b.observe(TEAMS, placed)).as("the follower records nothing").isEmpty();
        UsageRecord savedByA = store.load().orElseThrow();

        // failover: a loses the office, b is elected and continues from what a saved, not from its own empty start
        termOfA.set(null);
        termOfB.set("b-1");
        assertThat(b.observe(TEAMS, placed).get("a")).isCloseTo(2000, within(1.0));
        clock.advance(Duration.ofHours(1));
        a.observe(TEAMS, List.of());
        assertThat(store.load().orElseThrow().last())
                .as("the former leader saves no more")
                .isEqualTo(savedByA.last());
    }

    @Test
    void aStoreThatFailsNeverFailsASnapshotAndANewTermWaitsForALoadBeforeSaving() {
        MutableClock clock = new MutableClock(TestClocks.START);
        AtomicReference<Boolean> reachable = new AtomicReference<>(false);
        InMemoryFairShareUsageStore saved = new InMemoryFairShareUsageStore();
        FairShareUsageStore flaky = new FairShareUsageStore() {
            @Override
            public Optional<UsageRecord> load() {
                if (!reachable.get()) {
                    throw new IllegalStateException("the API server could not be reached");
                }
                return saved.load();
            }

            @Override
            public void save(UsageRecord record) {
                if (!reachable.get()) {
                    throw new IllegalStateException("the API server could not be reached");
                }
                saved.save(record);
            }
        };
        UsageAccounting usage = new UsageAccounting(DECAY, clock, flaky, LeadershipGate.ALWAYS, Duration.ZERO);
        List<PlacedJob> placed = List.of(running("a", "a1", 6, clock));
        assertThat(usage.observe(TEAMS, placed)).isEmpty();
        reachable.set(true);
        usage.observe(TEAMS, placed);
        clock.advance(Duration.ofHours(12));
        reachable.set(false);
        assertThat(usage.observe(TEAMS, placed).get("a"))
                .as("kept in memory when the save fails")
                .isCloseTo(2000, within(1.0));
        reachable.set(true);
        usage.observe(TEAMS, placed);
        assertThat(new UsageAccounting(DECAY, clock, saved, LeadershipGate.ALWAYS, Duration.ZERO)
                        .decayed()
                        .get("a"))
                .isCloseTo(2000, within(1.0));
    }

    @Test
    void theHistoryIsSavedAtTheFirstRecordOfATermThenOncePerIntervalAndWhenTheServiceStops() {
        MutableClock clock = new MutableClock(TestClocks.START);
        InMemoryFairShareUsageStore store = new InMemoryFairShareUsageStore();
        UsageAccounting usage = new UsageAccounting(DECAY, clock, store, LeadershipGate.ALWAYS, Duration.ofSeconds(10));
        List<PlacedJob> placed = List.of(running("a", "a1", 6, clock));
        usage.observe(TEAMS, placed);
        Instant first = store.load().orElseThrow().last();
        clock.advance(Duration.ofSeconds(9));
        usage.observe(TEAMS, placed);
        assertThat(store.load().orElseThrow().last())
                .as("not saved within the interval")
                .isEqualTo(first);
        clock.advance(Duration.ofSeconds(1));
        usage.observe(TEAMS, placed);
        assertThat(store.load().orElseThrow().last()).isEqualTo(first.plusSeconds(10));
        clock.advance(Duration.ofSeconds(3));
        usage.observe(TEAMS, List.of());
        usage.flush();
        assertThat(store.load().orElseThrow().last()).isEqualTo(first.plusSeconds(13));
        assertThat(store.load().orElseThrow().lastBorrowed())
                .as("what the team borrows when the service stops")
                .isEmpty();
    }
}
