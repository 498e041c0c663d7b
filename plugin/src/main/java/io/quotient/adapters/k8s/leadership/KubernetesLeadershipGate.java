package io.quotient.adapters.k8s.leadership;

import io.kubernetes.client.extended.leaderelection.LeaderElectionConfig;
import io.kubernetes.client.extended.leaderelection.LeaderElector;
import io.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.kubernetes.client.openapi.ApiClient;
import io.quotient.deploy.port.LeadershipGate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election on a {@code coordination.k8s.io} Lease with client-java's {@link LeaderElector}. Only the
 * replica holding the Lease decides. A follower takes over at most one lease duration plus one retry period after
 * the leader stops renewing (about 8 s + 2 s with the defaults); a leader that cannot renew within the renew deadline
 * steps down before its lease can expire, so two replicas never decide at once.
 */
public final class KubernetesLeadershipGate implements LeadershipGate, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KubernetesLeadershipGate.class);

    /** Lease timings; renewDeadline &lt; leaseDuration so the leader steps down before another may take over. */
    public record Timing(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
        public Timing {
            if (renewDeadline.compareTo(leaseDuration) >= 0 || retryPeriod.compareTo(renewDeadline) >= 0) {
                throw new IllegalArgumentException("leader election needs retryPeriod < renewDeadline < leaseDuration,"
                        + " was " + retryPeriod + " / " + renewDeadline + " / " + leaseDuration);
            }
        }

        /** A follower takes over within about 10 s (lease + jittered retries): the 15 s the service promises. */
        public static final Timing DEFAULT =
                new Timing(Duration.ofSeconds(8), Duration.ofSeconds(6), Duration.ofSeconds(1));
    }

    private final LeaderElectionConfig config;
    private final RenewalTrackingLock lock;
    private final Duration renewDeadline;
    private final String identity;
    private final AtomicBoolean leader = new AtomicBoolean();
    /** The name of the term this replica holds (identity and election time), null while it follows. */
    private final AtomicReference<String> term = new AtomicReference<>();

    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicReference<LeaderElector> elector = new AtomicReference<>();
    private final Thread thread;
    private final List<Runnable> electionListeners = new CopyOnWriteArrayList<>();

    public KubernetesLeadershipGate(
            ApiClient client, String namespace, String leaseName, String identity, Timing timing) {
        this.identity = identity;
        this.lock = new RenewalTrackingLock(new LeaseLock(namespace, leaseName, identity, client), System::nanoTime);
        this.renewDeadline = timing.renewDeadline();
        this.config =
                new LeaderElectionConfig(lock, timing.leaseDuration(), timing.renewDeadline(), timing.retryPeriod());
        this.thread = new Thread(this::contend, "quotient-leader-election");
        thread.setDaemon(true);
    }

    /** Starts contending for the Lease in the background. */
    public void start() {
        thread.start();
    }

    @Override
    public boolean isLeader() {
        // the elector's flag, and a renewal recent enough that no other replica can hold the Lease yet
        return leader.get() && lock.renewedWithin(renewDeadline);
    }

    @Override
    public Optional<String> term() {
        String current = term.get();
        return current != null && isLeader() ? Optional.of(current) : Optional.empty();
    }

    /** Runs {@code action} in the background each time this replica is elected, and now if it leads already. */
    @Override
    public void whenElected(Runnable action) {
        electionListeners.add(action);
        if (leader.get()) {
            runInBackground(action);
        }
    }

    public String identity() {
        return identity;
    }

    /** How long the election waits between tries (also a fair wait before retrying work begun on election). */
    public Duration retryPeriod() {
        return config.getRetryPeriod();
    }

    /** Runs elections until closed: after losing the Lease, this replica contends again as a follower. */
    private void contend() {
        while (!closed.get()) {
            LeaderElector current = new LeaderElector(
                    config, e -> LOG.warn("leader election of {} hit an error: {}", identity, e.toString()));
            elector.set(current);
            try {
                current.run(
                        () -> {
                            term.set(identity + "@" + Instant.now());
                            leader.set(true);
                            LOG.info(
                                    "{} is now the leader: it decides placements and runs the periodic jobs", identity);
                            electionListeners.forEach(KubernetesLeadershipGate::runInBackground);
                        },
                        () -> {
                            leader.set(false);
                            term.set(null);
                            LOG.info("{} is no longer the leader", identity);
                        });
            } catch (RuntimeException e) {
                LOG.warn("leader election of {} stopped: {}; contending again", identity, e.toString());
            } finally {
                leader.set(false);
                term.set(null);
                current.close();
            }
            pause();
        }
    }

    private static void runInBackground(Runnable action) {
        CompletableFuture.runAsync(action).whenComplete((done, failure) -> {
            if (failure != null) {
                LOG.warn(
                        "a task run on election failed: {}; the periodic jobs do the same work later",
                        failure.toString());
            }
        });
    }

    private void pause() {
        try {
            Thread.sleep(config.getRetryPeriod().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closed.set(true);
        }
    }

    /** Stops deciding at once and stops contending. The Lease then expires, and a follower takes over. */
    @Override
    public void close() {
        closed.set(true);
        leader.set(false);
        LeaderElector current = elector.get();
        if (current != null) {
            current.close();
        }
        thread.interrupt();
    }
}
