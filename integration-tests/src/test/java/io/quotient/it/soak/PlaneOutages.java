package io.quotient.it.soak;

/**
 * When the soak itself takes the API server away (an API server or etcd restart), the harness's own calls fail
 * too: an observation or an operation that fails during such an outage, or within {@link #AFTERMATH_MS} of its
 * end (clients reconnect, watches re-list), is an expected casualty of the fault, not an error of the harness.
 */
final class PlaneOutages {

    static final long AFTERMATH_MS = 10_000;

    private final History history;
    private long since = -1;
    private long lastEnd = Long.MIN_VALUE / 2;

    PlaneOutages(History history) {
        this.history = history;
    }

    synchronized void begin() {
        since = history.now();
    }

    synchronized void end() {
        since = -1;
        lastEnd = history.now();
    }

    /** Whether a call failing now is explained by an outage of the plane. */
    synchronized boolean explains(long now) {
        return since >= 0 || now - lastEnd <= AFTERMATH_MS;
    }
}
