package io.quotient.adapters.k8s.workloads;

import static io.quotient.adapters.k8s.K8sFixtures.job;
import static io.quotient.adapters.k8s.K8sFixtures.jobPod;
import static io.quotient.adapters.k8s.K8sFixtures.terminating;
import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1JobSpec;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.quotient.core.model.JobId;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SurplusPodsTest {

    private static final JobId A = new JobId("t", "a");
    private static final Instant T0 = Instant.parse("2026-11-27T08:00:00Z");

    private static V1Job jobOf(String uid, Integer parallelism) {
        V1Job job = job("t", "a", null);
        job.getMetadata().uid(uid).namespace("ns");
        return job.spec(new V1JobSpec().parallelism(parallelism));
    }

    /** A pod of job t/a controlled by the object with this uid, created {@code minute} minutes after T0. */
    private static V1Pod pod(String name, String ownerUid, String phase, int minute) {
        V1Pod pod = jobPod("t", "a", phase);
        pod.getMetadata()
                .name(name)
                .namespace("ns")
                .creationTimestamp(OffsetDateTime.ofInstant(T0.plusSeconds(60L * minute), ZoneOffset.UTC))
                .addOwnerReferencesItem(new V1OwnerReference()
                        .kind("Job")
                        .uid(ownerUid)
                        .name("t-a")
                        .apiVersion("batch/v1")
                        .controller(true));
        return pod;
    }

    private static List<String> surplus(V1Job job, V1Pod... pods) {
        return SurplusPods.of(job, List.of(pods)).stream()
                .map(p -> p.getMetadata().getName())
                .toList();
    }

    @Test
    void oneLivePodPerReplicaIsNoSurplus() {
        assertThat(surplus(jobOf("u1", null), pod("p1", "u1", "Running", 0))).isEmpty();
        assertThat(surplus(jobOf("u1", 2), pod("p1", "u1", "Running", 0), pod("p2", "u1", "Pending", 1)))
                .isEmpty();
    }

    @Test
    void theNewestOfTheJobsOwnPodsGoesSoThatTheOneThatRanLongestStays() {
        assertThat(surplus(jobOf("u1", null), pod("p2", "u1", "Running", 2), pod("p1", "u1", "Running", 1)))
                .containsExactly("p2");
        assertThat(surplus(
                        jobOf("u1", 2),
                        pod("p1", "u1", "Running", 1),
                        pod("p2", "u1", "Running", 2),
                        pod("p3", "u1", "Pending", 3)))
                .containsExactly("p3");
    }

    @Test
    void aStrayOfAnEarlierObjectGoesFirstEvenWhenOlder() {
        assertThat(surplus(jobOf("u2", null), pod("old", "u1", "Running", 1), pod("new", "u2", "Running", 2)))
                .containsExactly("old");
    }

    @Test
    void terminatingAndFinishedPodsAndPodsOfOtherNamespacesDoNotCount() {
        V1Pod elsewhere = pod("p4", "u1", "Running", 4);
        elsewhere.getMetadata().namespace("other");
        assertThat(surplus(
                        jobOf("u1", null),
                        pod("p1", "u1", "Running", 1),
                        terminating(pod("p2", "u1", "Running", 2)),
                        pod("p3", "u1", "Failed", 3),
                        pod("p5", "u1", "Succeeded", 5),
                        elsewhere))
                .isEmpty();
    }

    @Test
    void aSurplusCountsOnlyOnceItHasLastedTheControllersGrace() {
        SurplusPods surplus = new SurplusPods();
        assertThat(surplus.lasting(Map.of(A, 1), T0)).isEmpty();
        assertThat(surplus.lasting(
                        Map.of(A, 1), T0.plus(SurplusPods.CONTROLLER_GRACE).minusMillis(1)))
                .isEmpty();
        assertThat(surplus.lasting(Map.of(A, 1), T0.plus(SurplusPods.CONTROLLER_GRACE)))
                .containsEntry(A, 1);

        assertThat(surplus.lasting(Map.of(), T0.plusSeconds(20)))
                .as("the controller removed it")
                .isEmpty();
        assertThat(surplus.lasting(Map.of(A, 1), T0.plusSeconds(21)))
                .as("a new surplus waits the grace again")
                .isEmpty();
    }
}
