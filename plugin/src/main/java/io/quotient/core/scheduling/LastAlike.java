package io.quotient.core.scheduling;

import io.quotient.core.model.JobSpec;

/**
 * The answer read for the last job asked, kept for a job decided alike ({@link RepeatedRefusals#decidedAlike}) while
 * the state it was read from stands (the same scope, the same count of changes): a pass asks the same of every queued
 * job, and most of a long queue is runs of like jobs, for which comparing a few fields is cheaper than any lookup.
 *
 * @param <V> the answer
 */
final class LastAlike<V> {

    private JobSpec job;
    private Object scope;
    private long at;
    private V answer;

    /** The answer kept for a job like this one in {@code scope} at {@code at}, or null when none is. */
    V get(JobSpec like, Object inScope, long atCount) {
        return job != null && scope == inScope && at == atCount && RepeatedRefusals.decidedAlike(job, like)
                ? answer
                : null;
    }

    void put(JobSpec asked, Object inScope, long atCount, V value) {
        job = asked;
        scope = inScope;
        at = atCount;
        answer = value;
    }
}
