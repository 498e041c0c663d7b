package io.quotient.adapters.k8s;

import io.quotient.core.scheduling.JobId;
import io.quotient.deploy.port.GpuSlot;
import io.quotient.deploy.port.WorkloadPhase;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.quotient.adapters.k8s.K8sFixtures.job;
import static io.quotient.adapters.k8s.K8sFixtures.jobPod;
import static io.quotient.adapters.k8s.K8sFixtures.terminating;
import static org.assertj.core.api.Assertions.assertThat;

class WorkloadPhasesTest {

    private static final JobId A = new JobId("t", "a");

    private static WorkloadPhase phase(List<io.kubernetes.client.openapi.models.V1Job> jobs,
                                       List<io.kubernetes.client.openapi.models.V1Pod> pods) {
        return WorkloadPhases.of(jobs, pods).getOrDefault(A, WorkloadPhase.ABSENT);
    }

    @Test
    void jobWithoutPodsYetIsStartingAndRunningPodMakesItRunning() {
        assertThat(phase(List.of(job("t", "a", null)), List.of())).isEqualTo(WorkloadPhase.STARTING);
        assertThat(phase(List.of(job("t", "a", null)), List.of(jobPod("t", "a", "Pending"))))
                .isEqualTo(WorkloadPhase.STARTING);
        assertThat(phase(List.of(job("t", "a", null)), List.of(jobPod("t", "a", "Running"))))
                .isEqualTo(WorkloadPhase.RUNNING);
    }

    @Test
    void jobConditionsDecideTheOutcome() {
        assertThat(phase(List.of(job("t", "a", "Complete")), List.of(jobPod("t", "a", "Succeeded"))))
                .isEqualTo(WorkloadPhase.SUCCEEDED);
        assertThat(phase(List.of(job("t", "a", "Failed")), List.of(jobPod("t", "a", "Failed"))))
                .isEqualTo(WorkloadPhase.FAILED);
    }

    @Test
    void aJobWhosePodsSucceededAsOftenAsItNeedsHasSucceededBeforeItsCondition() {
        var single = ownedBy(job("t", "a", null), "uid-1", null);

        assertThat(phase(List.of(single), List.of(podOf("uid-1", "Succeeded")))).isEqualTo(WorkloadPhase.SUCCEEDED);
        assertThat(phase(List.of(single), List.of(podOf("uid-1", "Succeeded"), podOf("uid-1", "Running"))))
                .as("a pod still running").isEqualTo(WorkloadPhase.RUNNING);
        var three = ownedBy(job("t", "a", null), "uid-3", 3);
        assertThat(phase(List.of(three), List.of(podOf("uid-3", "Succeeded"), podOf("uid-3", "Succeeded"))))
                .as("two of three completions").isEqualTo(WorkloadPhase.STARTING);
        assertThat(phase(List.of(single), List.of(podOf("uid-old", "Succeeded"))))
                .as("a pod of an earlier Job of that name").isEqualTo(WorkloadPhase.STARTING);
        assertThat(phase(List.of(single), List.of(podOf("uid-1", "Failed"))))
                .as("a failed pod may be retried: the Job's condition decides").isEqualTo(WorkloadPhase.STARTING);
    }

    private static io.kubernetes.client.openapi.models.V1Job ownedBy(io.kubernetes.client.openapi.models.V1Job job,
                                                                     String uid, Integer completions) {
        job.getMetadata().uid(uid);
        job.spec(new io.kubernetes.client.openapi.models.V1JobSpec().completions(completions));
        return job;
    }

    private static io.kubernetes.client.openapi.models.V1Pod podOf(String jobUid, String phase) {
        var pod = jobPod("t", "a", phase);
        pod.getMetadata().addOwnerReferencesItem(new io.kubernetes.client.openapi.models.V1OwnerReference()
                .kind("Job").uid(jobUid).name("t.a").apiVersion("batch/v1"));
        return pod;
    }

    @Test
    void terminatingPodsStillHoldCapacityAfterTheJobIsGone() {
        assertThat(phase(List.of(), List.of(terminating(jobPod("t", "a", "Running")))))
                .isEqualTo(WorkloadPhase.STARTING);
        assertThat(phase(List.of(), List.of())).isEqualTo(WorkloadPhase.ABSENT);
    }

    @Test
    void barePodsDecideForNotebooks() {
        assertThat(phase(List.of(), List.of(jobPod("t", "a", "Running")))).isEqualTo(WorkloadPhase.RUNNING);
        assertThat(phase(List.of(), List.of(jobPod("t", "a", "Failed")))).isEqualTo(WorkloadPhase.FAILED);
        assertThat(phase(List.of(), List.of(jobPod("t", "a", "Succeeded")))).isEqualTo(WorkloadPhase.SUCCEEDED);
    }

    @Test
    void reservationPodsAreNotWorkloadsAndOtherJobsStayApart() {
        var reservation = ReservationPods.build(new GpuSlot("n1", 0), "ns");
        reservation.getMetadata().putLabelsItem("quotient.io/team", "t").putLabelsItem("quotient.io/job", "a");

        Map<JobId, WorkloadPhase> phases = WorkloadPhases.of(List.of(job("t", "b", null)), List.of(reservation));

        assertThat(phases).containsOnlyKeys(new JobId("t", "b"));
    }
}
