package io.quotient.deploy;

import io.quotient.core.model.JobId;
import java.util.Map;

/**
 * What a waiting job's reason says besides why the scheduler keeps it waiting: the idle job whose GPUs it waits for
 * ("would be placed when idle notebook nb-0 of team a is released"). The idle pass replaces the notes each time it
 * runs; the re-queue writes them with the reasons it writes. In memory on the leader: a new leader's first idle pass
 * says them again.
 */
public final class WaitNotes {

    private volatile Map<JobId, String> notes = Map.of();

    /** Replaces every note. */
    public void replace(Map<JobId, String> next) {
        notes = Map.copyOf(next);
    }

    public void clear() {
        notes = Map.of();
    }

    /** The scheduler's {@code why} with the job's note, if it has one. */
    public String withNote(JobId job, String why) {
        String note = notes.get(job);
        return note == null || note.isBlank() ? why : why + "; " + note;
    }

    /** Every note now, by job. */
    public Map<JobId, String> notes() {
        return notes;
    }
}
