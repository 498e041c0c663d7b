package io.quotient.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.adapters.memory.InMemoryJobRecordStore;
import io.quotient.deploy.port.LeadershipGate;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * A replica decides only once the records are claimed for its term: not between its election and the claim, not
 * after a failed claim until one succeeds, not in a new term until that one is claimed; the work begun on election
 * (the re-queue) runs after the claim, never before.
 */
class ClaimedLeadershipTest {

    private final Election election = new Election();
    private final List<String> claims = new CopyOnWriteArrayList<>();
    private final AtomicInteger failuresLeft = new AtomicInteger();
    private volatile CountDownLatch claimGate = new CountDownLatch(0);

    private final ClaimedLeadership leadership = new ClaimedLeadership(
            election,
            new ForwardingJobRecordStore(new InMemoryJobRecordStore()) {
                @Override
                public int claimForTerm(String term) {
                    awaitGate();
                    if (failuresLeft.getAndDecrement() > 0) {
                        throw new IllegalStateException("API server unreachable");
                    }
                    claims.add(term);
                    return 3;
                }
            },
            Duration.ofMillis(20));

    @Test
    void decidesOnlyOnceItsTermIsClaimedAndRunsElectionWorkAfterTheClaim() throws Exception {
        List<List<String>> claimsSeenByElectionWork = new CopyOnWriteArrayList<>();
        leadership.whenElected(() -> claimsSeenByElectionWork.add(List.copyOf(claims)));
        claimGate = new CountDownLatch(1);

        Thread electing = election.elect("replica-1@t1");
        assertThat(election.isLeader()).isTrue();
        assertThat(leadership.isLeader()).as("elected, records not claimed yet").isFalse();
        assertThat(leadership.term()).isEmpty();

        claimGate.countDown();
        electing.join(5_000);
        assertThat(claims).containsExactly("replica-1@t1");
        assertThat(leadership.isLeader()).isTrue();
        assertThat(leadership.term()).contains("replica-1@t1");
        until(() -> !claimsSeenByElectionWork.isEmpty());
        assertThat(claimsSeenByElectionWork).containsExactly(List.of("replica-1@t1"));
    }

    @Test
    void aFailedClaimIsRetriedAndTheReplicaDoesNotDecideMeanwhile() throws Exception {
        failuresLeft.set(3);
        claimGate = new CountDownLatch(1);
        Thread electing = election.elect("replica-1@t1");
        assertThat(leadership.isLeader()).isFalse();

        claimGate.countDown();
        electing.join(5_000);
        assertThat(failuresLeft.get()).as("three failures, then a success").isEqualTo(-1);
        assertThat(claims).containsExactly("replica-1@t1");
        assertThat(leadership.isLeader()).isTrue();
    }

    @Test
    void aNewTermIsNotLedUntilItIsClaimedToo() throws Exception {
        election.elect("replica-1@t1").join(5_000);
        assertThat(leadership.isLeader()).isTrue();

        election.lose();
        assertThat(leadership.isLeader()).isFalse();
        claimGate = new CountDownLatch(1);
        Thread again = election.elect("replica-1@t2");
        assertThat(leadership.isLeader())
                .as("the claim of the first term does not carry over")
                .isFalse();

        claimGate.countDown();
        again.join(5_000);
        assertThat(claims).containsExactly("replica-1@t1", "replica-1@t2");
        assertThat(leadership.term()).contains("replica-1@t2");
    }

    @Test
    void aTermThatEndsBeforeItsClaimIsNeitherClaimedNorLed() throws Exception {
        List<String> electionWork = new CopyOnWriteArrayList<>();
        leadership.whenElected(() -> electionWork.add("ran"));
        failuresLeft.set(Integer.MAX_VALUE);
        Thread electing = election.elect("replica-1@t1");
        until(() -> failuresLeft.get() < Integer.MAX_VALUE - 1);

        election.lose();
        electing.join(5_000);
        assertThat(electing.isAlive())
                .as("the claim stops retrying once the term is over")
                .isFalse();
        assertThat(claims).isEmpty();
        assertThat(leadership.isLeader()).isFalse();
        assertThat(electionWork).isEmpty();
    }

    private void awaitGate() {
        try {
            assertThat(claimGate.await(5, TimeUnit.SECONDS))
                    .as("the test opened the claim")
                    .isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void until(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition within 5 s").isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    /** An election the test drives: elected with a term, or not. */
    private static final class Election implements LeadershipGate {

        private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
        private volatile String term;

        @Override
        public boolean isLeader() {
            return term != null;
        }

        @Override
        public Optional<String> term() {
            return Optional.ofNullable(term);
        }

        @Override
        public void whenElected(Runnable action) {
            listeners.add(action);
        }

        /** Elected now; the listeners run on a thread of their own (returned), as the Lease's do. */
        Thread elect(String newTerm) {
            term = newTerm;
            Thread thread = new Thread(() -> listeners.forEach(Runnable::run));
            thread.start();
            return thread;
        }

        void lose() {
            term = null;
        }
    }
}
