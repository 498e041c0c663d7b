package io.quotient.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.JobId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The walk over the last snapshot ({@link PreviousSnapshot}) answers exactly what a lookup among every id seen would,
 * over sequences of snapshots that change as a cluster's do (jobs gone from anywhere, new ones at the end or
 * anywhere, now and then a snapshot in another order).
 */
class PreviousSnapshotProperties {

    @Property(tries = 300)
    void theWalkAnswersAsTheLookupOfEverySeenIdWould(
            @ForAll long seed,
            @ForAll @IntRange(min = 1, max = 40) int snapshots,
            @ForAll @IntRange(min = 0, max = 300) int firstSize) {
        Random random = new Random(seed);
        Set<JobId> seen = new HashSet<>();
        PreviousSnapshot previous = PreviousSnapshot.NONE;
        List<JobId> jobs = new ArrayList<>();
        int nextId = 0;
        for (int i = 0; i < firstSize; i++) {
            jobs.add(id(nextId++));
        }
        for (int s = 0; s < snapshots; s++) {
            PreviousSnapshot.Walk walk = previous.walk(seen);
            for (JobId job : jobs) {
                // a copy, never the same instance: the walk must not depend on identity
                JobId asked = new JobId(job.team(), job.name());
                assertThat(walk.seen(asked)).as("%s", job).isEqualTo(seen.contains(job));
            }
            seen.addAll(jobs);
            previous = new PreviousSnapshot(jobs.toArray(JobId[]::new));
            nextId = change(jobs, random, nextId);
        }
    }

    /** Removes jobs (one by one or a run of them), adds new ones, brings back old ones, sometimes shuffles. */
    private static int change(List<JobId> jobs, Random random, int nextId) {
        int gone = jobs.isEmpty() ? 0 : random.nextInt(Math.min(jobs.size(), 100) + 1);
        if (random.nextBoolean() && gone > 0) {
            int from = random.nextInt(jobs.size() - gone + 1);
            jobs.subList(from, from + gone).clear();
        } else {
            for (int i = 0; i < gone && !jobs.isEmpty(); i++) {
                jobs.remove(random.nextInt(jobs.size()));
            }
        }
        int added = random.nextInt(20);
        for (int i = 0; i < added; i++) {
            JobId fresh = id(nextId++);
            jobs.add(random.nextInt(4) == 0 ? random.nextInt(jobs.size() + 1) : jobs.size(), fresh);
        }
        if (nextId > 0 && random.nextInt(3) == 0) {
            // a job seen long ago, back in the snapshot (a requeued job, or one missing from one list)
            JobId back = id(random.nextInt(nextId));
            if (!jobs.contains(back)) {
                jobs.add(random.nextInt(jobs.size() + 1), back);
            }
        }
        if (random.nextInt(8) == 0) {
            Collections.shuffle(jobs, random);
        }
        return nextId;
    }

    private static JobId id(int n) {
        return new JobId("team-" + (n % 3), "job-" + n);
    }
}
