package io.quotient.deploy;

import io.quotient.core.model.JobId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Decides when a waiting job's new reason is worth a write. A reason that says something new (another cause,
 * another missing resource) is written at once; one whose only change is its figures ("team-3 has used its
 * guarantee (25.2 of 26.5 GPUs)" becoming "25.4 of 26.5") is written at most once per {@link #FIGURES_REFRESH}.
 *
 * <p>Why: the figures move on nearly every re-queue pass while a team's jobs come and go, and each rewrite is a
 * status write plus an Event under the decision lock. With fifty jobs waiting that was seconds per pass, which the
 * soak saw as a deploy waiting 40 s for its decision, and it buries the Events that say something. Kept in memory
 * only, so a new leader knows of no earlier write: figure-only rewrites are also rationed over time (a burst of
 * {@value #FIGURES_BURST}, then {@value #FIGURES_PER_SECOND} a second), or its first pass rewrites every waiting
 * job's figures at once — the long soak saw a leader started again after a SIGKILL spend 26 s of its first pass on
 * 508 such writes while two Kubeflow jobs waited for their adoption. With many jobs waiting their figures are then
 * refreshed less often than every {@link #FIGURES_REFRESH}; what a reason says is still written at once.
 */
final class PendingReasonRefresh {

    /** How stale the figures in a waiting job's reason may get while what it says stays the same. */
    static final Duration FIGURES_REFRESH = Duration.ofSeconds(30);

    private static final Pattern FIGURES = Pattern.compile("\\d+(?:[.,]\\d+)*");

    /** Figure-only rewrites allowed at once, and how many more each second adds (see the class comment). */
    static final int FIGURES_BURST = 20;

    static final int FIGURES_PER_SECOND = 5;

    private final Clock clock;
    private final Map<JobId, Instant> lastWritten = new ConcurrentHashMap<>();
    private static final Duration PER_FIGURE_WRITE = Duration.ofSeconds(1).dividedBy(FIGURES_PER_SECOND);
    private TokenBucket figureWrites;

    PendingReasonRefresh(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Whether {@code next} should replace {@code stored} now (they differ; see the class comment). */
    boolean due(JobId job, String stored, String next) {
        if (stored == null || next == null || !sameWords(stored, next)) {
            return true;
        }
        Instant last = lastWritten.get(job);
        boolean stale = last == null || !clock.instant().isBefore(last.plus(FIGURES_REFRESH));
        return stale && takeFigureWrite();
    }

    /** Takes one figure-only rewrite from the ration, if one is left. */
    private synchronized boolean takeFigureWrite() {
        Instant now = clock.instant();
        figureWrites = figureWrites == null
                ? TokenBucket.full(FIGURES_BURST, now)
                : figureWrites.refilled(now, FIGURES_BURST, PER_FIGURE_WRITE);
        if (!figureWrites.hasToken()) {
            return false;
        }
        figureWrites = figureWrites.take();
        return true;
    }

    /** Notes that a job's reason was written now. */
    void written(JobId job) {
        Instant now = clock.instant();
        lastWritten.put(job, now);
        forgetOlderThan(now.minus(FIGURES_REFRESH.multipliedBy(4)));
    }

    private void forgetOlderThan(Instant cutoff) {
        if (lastWritten.size() < 1024) {
            return;
        }
        for (Iterator<Instant> times = lastWritten.values().iterator(); times.hasNext(); ) {
            if (times.next().isBefore(cutoff)) {
                times.remove();
            }
        }
    }

    static boolean sameWords(String a, String b) {
        return FIGURES.matcher(a).replaceAll("#").equals(FIGURES.matcher(b).replaceAll("#"));
    }
}
