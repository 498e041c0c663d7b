package io.quotient.it.harness;

import io.kubernetes.client.openapi.ApiException;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Waits for the cluster to converge (controllers and the scheduler act asynchronously). The timeouts are
 * generous upper bounds for a busy 2-core machine, not speed assertions.
 */
public final class Await {

    /** Long enough for the job controller, the scheduler and the fake kubelet on a loaded CI machine. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    private static final Duration POLL = Duration.ofMillis(200);

    private Await() {}

    /** Reads the cluster, possibly failing with an {@link ApiException} (retried until the timeout). */
    @FunctionalInterface
    public interface Probe<T> {
        T read() throws ApiException;
    }

    /** Polls {@code probe} until its value satisfies {@code done}; returns that value. */
    public static <T> T until(String what, Probe<T> probe, Predicate<? super T> done) {
        return until(what, DEFAULT_TIMEOUT, probe, done);
    }

    /** Polls {@code probe} until it returns a non-null value; returns it. */
    public static <T> T until(String what, Probe<T> probe) {
        return until(what, DEFAULT_TIMEOUT, probe, Objects::nonNull);
    }

    public static <T> T until(String what, Duration timeout, Probe<T> probe, Predicate<? super T> done) {
        long deadline = System.nanoTime() + timeout.toNanos();
        T last = null;
        String lastError = null;
        while (true) {
            try {
                last = probe.read();
                lastError = null;
                if (done.test(last)) {
                    return last;
                }
            } catch (ApiException e) {
                lastError = "HTTP " + e.getCode() + ": " + e.getResponseBody();
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toSeconds() + "s waiting for " + what
                        + (lastError != null ? "; last error: " + lastError : "; last value: " + last));
            }
            sleep(POLL);
        }
    }

    /**
     * Polls {@code probe} for {@code duration} and fails at the first value that does not satisfy {@code holds}: that
     * something is left alone for a while, not only at one moment.
     */
    public static <T> void during(String what, Duration duration, Probe<T> probe, Predicate<? super T> holds) {
        long end = System.nanoTime() + duration.toNanos();
        do {
            T value;
            try {
                value = probe.read();
            } catch (ApiException e) {
                throw new AssertionError(
                        "reading " + what + " failed: HTTP " + e.getCode() + ": " + e.getResponseBody(), e);
            }
            if (!holds.test(value)) {
                throw new AssertionError("expected " + what + " for " + duration.toSeconds() + "s; got " + value);
            }
            sleep(POLL);
        } while (System.nanoTime() < end);
    }

    static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting", e);
        }
    }
}
