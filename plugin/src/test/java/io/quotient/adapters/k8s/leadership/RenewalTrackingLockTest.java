package io.quotient.adapters.k8s.leadership;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.extended.leaderelection.LeaderElectionRecord;
import io.kubernetes.client.extended.leaderelection.Lock;
import java.time.Duration;
import java.util.Date;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A replica counts as renewed only for a while after its own last successful write of the Lease. */
class RenewalTrackingLockTest {

    private static final Duration DEADLINE = Duration.ofSeconds(6);

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final AtomicBoolean writesSucceed = new AtomicBoolean(true);
    private final RenewalTrackingLock lock = new RenewalTrackingLock(new FakeLock(), nanos::get);

    @Test
    void neverRenewedBeforeTheFirstWrite() {
        assertThat(lock.renewedWithin(DEADLINE)).isFalse();
    }

    @Test
    void aSuccessfulRenewCountsUntilTheDeadlineThenNoMore() {
        lock.update(record("replica-1"));
        nanos.addAndGet(Duration.ofSeconds(5).toNanos());
        assertThat(lock.renewedWithin(DEADLINE)).isTrue();

        nanos.addAndGet(Duration.ofSeconds(2).toNanos()); // e.g. the process was paused (SIGSTOP) past the lease
        assertThat(lock.renewedWithin(DEADLINE)).isFalse();
    }

    @Test
    void aFailedWriteOrAnotherHoldersRecordDoesNotCountAsRenewed() {
        lock.create(record("replica-1"));
        nanos.addAndGet(Duration.ofSeconds(5).toNanos());
        writesSucceed.set(false);
        lock.update(record("replica-1"));
        writesSucceed.set(true);
        lock.update(record("replica-2"));
        nanos.addAndGet(Duration.ofSeconds(2).toNanos());

        assertThat(lock.renewedWithin(DEADLINE)).isFalse();
    }

    private static LeaderElectionRecord record(String holder) {
        return new LeaderElectionRecord(holder, 8, new Date(), new Date(), 0);
    }

    private final class FakeLock implements Lock {
        @Override
        public LeaderElectionRecord get() {
            return null;
        }

        @Override
        public boolean create(LeaderElectionRecord record) {
            return writesSucceed.get();
        }

        @Override
        public boolean update(LeaderElectionRecord record) {
            return writesSucceed.get();
        }

        @Override
        public String identity() {
            return "replica-1";
        }

        @Override
        public String describe() {
            return "fake";
        }
    }
}
