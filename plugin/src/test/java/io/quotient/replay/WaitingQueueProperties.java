package io.quotient.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.JobId;
import io.quotient.core.model.PendingJob;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The replay's waiting queue, kept as arrays updated job by job, hands out exactly what a map of the waiting jobs in
 * the order they came to wait would (the replay's queue before it), over random sequences of jobs that arrive, are
 * placed from anywhere in the queue, and come back (evicted), and of jobs removed that do not wait.
 */
class WaitingQueueProperties {

    @Property(tries = 300)
    void theQueueHandsOutWhatTheOrderedMapWould(@ForAll long seed, @ForAll @IntRange(min = 1, max = 400) int steps) {
        Random random = new Random(seed);
        WaitingQueue queue = new WaitingQueue();
        Map<JobId, JobRun> reference = new LinkedHashMap<>();
        List<JobRun> away = new ArrayList<>();
        int next = 0;
        for (int s = 0; s < steps; s++) {
            int op = random.nextInt(5);
            if (op <= 1) {
                JobRun run = run(next++);
                queue.add(run);
                reference.put(run.spec().id(), run);
            } else if (op == 2 && !away.isEmpty()) {
                JobRun back = away.remove(random.nextInt(away.size()));
                queue.add(back);
                reference.put(back.spec().id(), back);
            } else if (op == 3 && next > 0) {
                // any id, waiting or not; a copy, never the same instance
                JobRun some = run(random.nextInt(next));
                JobId id = new JobId(some.spec().id().team(), some.spec().id().name());
                JobRun removed = queue.remove(id);
                assertThat(removed).isSameAs(reference.remove(id));
                if (removed != null) {
                    away.add(removed);
                }
            } else {
                // read between changes, and again after: the list handed out must follow the queue
                assertThat(queue.pending()).isEqualTo(pendingOf(reference));
            }
            assertThat(queue.pending()).isEqualTo(pendingOf(reference));
            assertThat(List.copyOf(queue.runs())).isEqualTo(List.copyOf(reference.values()));
            assertThat(queue.size()).isEqualTo(reference.size());
            assertThat(queue.isEmpty()).isEqualTo(reference.isEmpty());
        }
    }

    private static List<PendingJob> pendingOf(Map<JobId, JobRun> reference) {
        return reference.values().stream().map(JobRun::pending).toList();
    }

    private static JobRun run(int n) {
        ReplayJob job = ReplayJob.wholeGpus("job-" + n, "team-" + (n % 3), 1000L * n, 60_000, 1 + n % 2);
        return new JobRun(job, job.spec("team-" + (n % 3)), 1000);
    }
}
