package io.quotient.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiClient;
import io.quotient.adapters.k8s.leadership.KubernetesLeadershipGate;
import io.quotient.it.harness.Await;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.TestNamespace;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Two replicas contend for the Lease with the service's default timings: one decides, the other takes over. */
@RealKubernetes
class LeaderElectionIT {

    private ControlPlane plane;
    private TestNamespace namespace;
    private final AtomicBoolean firstPartitioned = new AtomicBoolean();
    private KubernetesLeadershipGate first;
    private KubernetesLeadershipGate second;

    @BeforeEach
    void setUp(ControlPlane plane, TestNamespace namespace) {
        this.plane = plane;
        this.namespace = namespace;
        first = gate("replica-1", partitionable(plane.newApiClient(), firstPartitioned));
        second = gate("replica-2", plane.newApiClient());
    }

    @AfterEach
    void tearDown() {
        first.close();
        second.close();
    }

    @Test
    void followerTakesOverFromALeaderThatStopsRenewingAndTheyNeverLeadTogether() throws Exception {
        AtomicInteger secondElected = new AtomicInteger();
        second.whenElected(secondElected::incrementAndGet);
        first.start();
        Await.until("replica-1 to lead", () -> first.isLeader(), leading -> leading);
        second.start();
        assertNeverBothLead(Duration.ofSeconds(3));
        assertThat(secondElected).hasValue(0);
        assertThat(second.isLeader()).isFalse();

        // the leader loses the API server, as a killed or partitioned replica would: no renewal, no hand-over
        long cutAt = System.nanoTime();
        firstPartitioned.set(true);
        long overlaps = 0;
        while (!second.isLeader()) {
            overlaps += first.isLeader() && second.isLeader() ? 1 : 0;
            assertThat(Duration.ofNanos(System.nanoTime() - cutAt)).isLessThan(Duration.ofSeconds(60));
            Thread.sleep(50);
        }
        double takeover = (System.nanoTime() - cutAt) / 1e9;
        assertThat(overlaps).isZero();
        assertThat(first.isLeader()).isFalse();
        Await.until(
                "replica-2's election task to run (the service re-queues at once)",
                secondElected::get,
                runs -> runs == 1);
        System.out.printf(
                "[failover] replica-2 leads %.1f s after replica-1 lost the API server "
                        + "(lease 8 s, renew deadline 6 s, retry 1 s)%n",
                takeover);
    }

    @Test
    void aReplicaShuttingDownHandsTheLeaseOverAtOnce() {
        first.start();
        Await.until("replica-1 to lead", () -> first.isLeader(), leading -> leading);
        second.start();

        first.close();

        assertThat(first.isLeader()).isFalse();
        Await.until("replica-2 to take over", () -> second.isLeader(), leading -> leading);
    }

    private void assertNeverBothLead(Duration during) throws InterruptedException {
        long end = System.nanoTime() + during.toNanos();
        while (System.nanoTime() < end) {
            assertThat(first.isLeader() && second.isLeader())
                    .as("both replicas lead")
                    .isFalse();
            Thread.sleep(50);
        }
    }

    private static ApiClient partitionable(ApiClient client, AtomicBoolean partitioned) {
        client.setHttpClient(client.getHttpClient()
                .newBuilder()
                .addInterceptor(chain -> {
                    if (partitioned.get()) {
                        throw new IOException("test partition: the API server is unreachable from this replica");
                    }
                    return chain.proceed(chain.request());
                })
                .build());
        return client;
    }

    private KubernetesLeadershipGate gate(String identity, ApiClient client) {
        return new KubernetesLeadershipGate(
                client, namespace.name(), "quotient-leader", identity, KubernetesLeadershipGate.Timing.DEFAULT);
    }
}
