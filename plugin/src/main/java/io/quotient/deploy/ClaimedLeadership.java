package io.quotient.deploy;

import io.quotient.deploy.port.JobRecordStore;
import io.quotient.deploy.port.LeadershipGate;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leadership a replica decides under: elected, and the records claimed for its term
 * ({@link JobRecordStore#claimForTerm}) before its first decision. Election alone is not enough. The leader checks
 * that it still leads right before each write, but a replica paused between that check and the write (SIGSTOP, a long
 * GC pause, a frozen VM) sends the write when it wakes, seconds after another replica took over; a placement decided
 * on the old view then lands on a GPU the new leader has given to another job (the short soak once failed in CI in the
 * way this explains: a gang's replica and a fraction on one GPU, the replica's pod unschedulable for good). Claiming
 * rewrites every live record first, so such a write carries an outdated version and fails, and the new leader starts
 * from the records as stored rather than from a cache that may lag.
 */
public final class ClaimedLeadership implements LeadershipGate {

    private static final Logger LOG = LoggerFactory.getLogger(ClaimedLeadership.class);

    private final LeadershipGate elected;
    private final JobRecordStore store;
    private final Duration retryDelay;
    private final List<Runnable> electionListeners = new CopyOnWriteArrayList<>();
    private volatile String claimedTerm;

    /**
     * @param elected    the election (e.g. the Lease)
     * @param retryDelay the wait before a failed claim is tried again (while the term lasts)
     */
    public ClaimedLeadership(LeadershipGate elected, JobRecordStore store, Duration retryDelay) {
        this.elected = elected;
        this.store = store;
        this.retryDelay = retryDelay;
        elected.whenElected(this::claim);
    }

    @Override
    public boolean isLeader() {
        String claimed = claimedTerm;
        return claimed != null
                && elected.isLeader()
                && elected.term().map(claimed::equals).orElse(false);
    }

    @Override
    public Optional<String> term() {
        return isLeader() ? Optional.ofNullable(claimedTerm) : Optional.empty();
    }

    /** Runs {@code action} in the background each time the records are claimed for a new term, and now if they are. */
    @Override
    public void whenElected(Runnable action) {
        electionListeners.add(action);
        if (isLeader()) {
            CompletableFuture.runAsync(() -> runSafely(action));
        }
    }

    /** Claims the records for the term just begun, retrying while it lasts; then the election work runs. */
    private synchronized void claim() {
        while (true) {
            Optional<String> term = elected.term();
            if (term.isEmpty()) {
                LOG.info("the term ended before its records were claimed; this replica does not decide");
                return;
            }
            if (term.get().equals(claimedTerm)) {
                return; // a second notice of the same election
            }
            try {
                long started = System.nanoTime();
                int claimed = store.claimForTerm(term.get());
                claimedTerm = term.get();
                LOG.info(
                        "leader term {}: claimed {} records in {} ms; deciding from now on",
                        term.get(),
                        claimed,
                        (System.nanoTime() - started) / 1_000_000);
                break;
            } catch (RuntimeException e) {
                LOG.warn(
                        "leader term {}: claiming the records failed ({}); this replica does not decide until it"
                                + " succeeds, retrying in {} ms",
                        term.get(),
                        e.toString(),
                        retryDelay.toMillis());
                if (!pause()) {
                    return;
                }
            }
        }
        if (Objects.equals(elected.term().orElse(null), claimedTerm)) {
            electionListeners.forEach(ClaimedLeadership::runSafely);
        }
    }

    /** Election work runs on the claim's own thread, one task after the other; a failure is logged, not thrown. */
    private static void runSafely(Runnable action) {
        try {
            action.run();
        } catch (RuntimeException e) {
            LOG.warn("a task run on election failed: {}; the periodic jobs do the same work later", e.toString());
        }
    }

    private boolean pause() {
        try {
            Thread.sleep(retryDelay.toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
