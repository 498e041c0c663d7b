package io.quotient.core.scheduling;

import io.quotient.core.model.JobId;

/**
 * The tie-break of the scheduler's orders: jobs by their full name ({@code team/name}), as
 * {@code a.toString().compareTo(b.toString())} orders them, without building the two strings at every comparison
 * (queues and teams' jobs are sorted at every decision, and jobs placed in one pass tie on everything else).
 */
final class JobNames {

    private JobNames() {}

    /** Negative, zero or positive as {@code a}'s full name sorts before, with or after {@code b}'s. */
    static int compare(JobId a, JobId b) {
        if (a.team().equals(b.team())) {
            return a.name().compareTo(b.name());
        }
        int la = a.team().length() + 1 + a.name().length();
        int lb = b.team().length() + 1 + b.name().length();
        for (int i = 0; i < Math.min(la, lb); i++) {
            char ca = charAt(a, i);
            char cb = charAt(b, i);
            if (ca != cb) {
                return ca - cb;
            }
        }
        return la - lb;
    }

    private static char charAt(JobId id, int i) {
        int team = id.team().length();
        return i < team ? id.team().charAt(i) : i == team ? '/' : id.name().charAt(i - team - 1);
    }
}
