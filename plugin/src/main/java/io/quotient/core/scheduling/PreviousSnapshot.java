package io.quotient.core.scheduling;

import io.quotient.core.model.JobId;
import java.util.Set;

/**
 * The ids of the jobs of the last snapshot, in its order, and a walk that tells whether a job of the next snapshot
 * was seen before. Consecutive snapshots mostly list the same jobs in the same order, some gone and a few new, so the
 * walk compares each job with the last snapshot's next few from where the previous match was; only a job not found
 * there is looked up among all the ids remembered, which costs far more in a table of tens of thousands.
 */
final class PreviousSnapshot {

    /** Before the first snapshot. */
    static final PreviousSnapshot NONE = new PreviousSnapshot(new JobId[0]);

    /** How far past the last match a job is looked for: a gap of jobs gone from the snapshot up to this is crossed. */
    static final int WINDOW = 64;

    /**
     * After this many jobs that were seen but not found in the window, the walk stops comparing (a snapshot in
     * another order would otherwise cost a window of comparisons for every job, on top of the lookup).
     */
    static final int OUT_OF_ORDER = 16;

    private final JobId[] ids;

    /** @param ids the snapshot's jobs in its order; kept, not copied */
    PreviousSnapshot(JobId[] ids) {
        this.ids = ids;
    }

    Walk walk(Set<JobId> seen) {
        return new Walk(seen);
    }

    /** One pass over the next snapshot's jobs, in its order. */
    final class Walk {
        private final Set<JobId> seen;
        private int next;
        private int outOfOrder;

        private Walk(Set<JobId> seen) {
            this.seen = seen;
        }

        /** Whether the job was in the last snapshot or is among {@code seen}. */
        boolean seen(JobId id) {
            if (outOfOrder < OUT_OF_ORDER) {
                int end = Math.min(ids.length, next + WINDOW);
                for (int k = next; k < end; k++) {
                    if (ids[k].equals(id)) {
                        next = k + 1;
                        return true;
                    }
                }
            }
            boolean known = seen.contains(id);
            if (known) {
                outOfOrder++;
            }
            return known;
        }
    }
}
