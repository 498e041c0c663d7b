package io.quotient.adapters.k8s.leadership;

import io.kubernetes.client.extended.leaderelection.LeaderElectionRecord;
import io.kubernetes.client.extended.leaderelection.Lock;
import io.kubernetes.client.openapi.ApiException;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The Lease lock, remembering when this replica last wrote it successfully (on the monotonic clock, taken before
 * the write, so never later than the Lease's own renew time). client-java's LeaderElector "leading" flag alone is not
 * enough: a replica paused past its lease (SIGSTOP, a long GC, a frozen VM) wakes up still believing it leads and
 * decides for the seconds its renew loop needs to notice that another replica took over. The soak showed exactly
 * that (issue 16). Asking {@link #renewedWithin} before each decision closes that window.
 *
 * @see io.kubernetes.client.extended.leaderelection.LeaderElector
 */
final class RenewalTrackingLock implements Lock {

    private static final long NEVER = Long.MIN_VALUE;

    private final Lock delegate;
    private final LongSupplier nanoClock;
    private volatile long lastWrite = NEVER;

    RenewalTrackingLock(Lock delegate, LongSupplier nanoClock) {
        this.delegate = delegate;
        this.nanoClock = nanoClock;
    }

    /** Whether this replica acquired or renewed the Lease less than {@code window} ago. */
    boolean renewedWithin(Duration window) {
        long last = lastWrite;
        return last != NEVER && nanoClock.getAsLong() - last < window.toNanos();
    }

    @Override
    public LeaderElectionRecord get() throws ApiException {
        return delegate.get();
    }

    @Override
    public boolean create(LeaderElectionRecord record) {
        long before = nanoClock.getAsLong();
        boolean created = delegate.create(record);
        if (created) {
            lastWrite = before;
        }
        return created;
    }

    @Override
    public boolean update(LeaderElectionRecord record) {
        long before = nanoClock.getAsLong();
        boolean updated = delegate.update(record);
        if (updated && identity().equals(record.getHolderIdentity())) {
            lastWrite = before;
        }
        return updated;
    }

    @Override
    public String identity() {
        return delegate.identity();
    }

    @Override
    public String describe() {
        return delegate.describe();
    }
}
