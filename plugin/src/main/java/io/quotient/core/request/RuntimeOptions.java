package io.quotient.core.request;

/**
 * How a request wants to be treated once queued, as written; null leaves each to its default.
 *
 * @param priority          priority within the team, higher runs first and is preempted last ({@code priority});
 *                          null means 0
 * @param preemptible       may borrow idle GPUs beyond the team's guarantee and be preempted ({@code preemptible});
 *                          null leaves it to the template, then true
 * @param minRuntimeSeconds not preempted before it ran this long ({@code minRuntimeSeconds}); null means 0
 * @param kind              {@code train}, {@code notebook} or {@code inference} ({@code kind}): what a team's idle
 *                          policy watches; null means train
 */
public record RuntimeOptions(Integer priority, Boolean preemptible, Long minRuntimeSeconds, String kind) {

    /** Every option left to its default. */
    public static final RuntimeOptions DEFAULTS = new RuntimeOptions(null, null, null, null);

    /** Options of a training job (the kind left to its default). */
    public RuntimeOptions(Integer priority, Boolean preemptible, Long minRuntimeSeconds) {
        this(priority, preemptible, minRuntimeSeconds, null);
    }

    /** The same options with the preemptible flag set. */
    public RuntimeOptions withPreemptible(Boolean value) {
        return new RuntimeOptions(priority, value, minRuntimeSeconds, kind);
    }

    /** The same options of another kind. */
    public RuntimeOptions withKind(String value) {
        return new RuntimeOptions(priority, preemptible, minRuntimeSeconds, value);
    }
}
