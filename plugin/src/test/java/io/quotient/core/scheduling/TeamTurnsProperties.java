package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PendingJob;
import io.quotient.core.model.Team;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link TeamTurns} decides jobs in the order of the plain rule it stands for: at every step, the first of every
 * team's next job keyed afresh. Its shortcuts (keys read again only after a booking, and a team's next jobs decided
 * alike taken without a pass through the ordered set while they come first) must not change that order, over random
 * queues of like and unlike jobs where random decisions book and change the teams' keys.
 */
class TeamTurnsProperties {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final List<String> TEAMS = List.of("a", "b", "c", "d");

    @Property(tries = 300)
    void decidesInTheOrderOfTheFirstNextJobKeyedAfresh(
            @ForAll long seed,
            @ForAll @IntRange(min = 0, max = 60) int jobCount,
            @ForAll @IntRange(min = 0, max = 100) int bookingPercent) {
        Random random = new Random(seed);
        List<PendingJob> queue = new ArrayList<>();
        for (int i = 0; i < jobCount; i++) {
            queue.add(job(random, i));
        }
        // which jobs book when decided: drawn once, so that both runs meet the same bookings
        Set<JobId> booking = new HashSet<>();
        queue.forEach(p -> {
            if (random.nextInt(100) < bookingPercent) {
                booking.add(p.spec().id());
            }
        });
        assertThat(decided(queue, booking, true)).isEqualTo(decided(queue, booking, false));
    }

    /** The jobs in the order decided, by {@link TeamTurns} or by the plain rule. */
    private static List<JobId> decided(List<PendingJob> queue, Set<JobId> booking, boolean withTeamTurns) {
        Map<String, Long> held = new HashMap<>();
        long[] bookings = {0};
        Map<String, Team> teams = new HashMap<>();
        TEAMS.forEach(t -> teams.put(t, new Team(t, 4_000, Team.UNLIMITED, 1, t.equals("d") ? 1 : 0)));
        Function<PendingJob, QueueOrder.Claimant> turn = p -> QueueOrder.claimant(
                p,
                teams,
                held.getOrDefault(p.spec().team(), 0L),
                4_000,
                (long) ((GpuRequest.WholeGpus) p.spec().gpu()).count() * 1000);
        List<JobId> order = new ArrayList<>();
        Consumer<PendingJob> decide = p -> {
            order.add(p.spec().id());
            if (booking.contains(p.spec().id())) {
                held.merge(p.spec().team(), 1000L, Long::sum);
                bookings[0]++;
            }
        };
        Map<String, Deque<PendingJob>> waiting = byTeam(queue);
        if (withTeamTurns) {
            new TeamTurns<>(turn, QueueOrder.CLAIMING, () -> bookings[0]).take(waiting, decide);
            return order;
        }
        while (!waiting.isEmpty()) {
            QueueOrder.Claimant first = null;
            for (Deque<PendingJob> jobs : waiting.values()) {
                QueueOrder.Claimant c = turn.apply(jobs.peek());
                if (first == null || QueueOrder.CLAIMING.compare(c, first) < 0) {
                    first = c;
                }
            }
            String team = first.job().spec().team();
            decide.accept(waiting.get(team).poll());
            if (waiting.get(team).isEmpty()) {
                waiting.remove(team);
            }
        }
        return order;
    }

    private static Map<String, Deque<PendingJob>> byTeam(List<PendingJob> queue) {
        Map<String, Deque<PendingJob>> waiting = new LinkedHashMap<>();
        queue.forEach(p -> waiting.computeIfAbsent(p.spec().team(), t -> new ArrayDeque<>())
                .add(p));
        return waiting;
    }

    /** Mostly like jobs (one or two GPUs, two priorities), arriving in any order. */
    private static PendingJob job(Random random, int i) {
        String team = TEAMS.get(random.nextInt(TEAMS.size()));
        JobSpec spec = new JobSpec(
                new JobId(team, "job-" + i),
                new GpuRequest.WholeGpus(1 + random.nextInt(2)),
                1000,
                1024,
                Set.of(),
                random.nextInt(4) == 0 ? 1 : 0,
                true,
                Duration.ZERO);
        return new PendingJob(spec, T0.plusSeconds(random.nextInt(20)));
    }
}
