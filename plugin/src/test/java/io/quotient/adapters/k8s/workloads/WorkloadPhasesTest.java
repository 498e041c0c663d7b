package io.quotient.adapters.k8s.workloads;

import static io.quotient.adapters.k8s.K8sFixtures.job;
import static io.quotient.adapters.k8s.K8sFixtures.jobPod;
import static io.quotient.adapters.k8s.K8sFixtures.terminating;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1JobSpec;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.quotient.core.model.JobId;
import io.quotient.deploy.port.GpuSlot;
import io.quotient.deploy.port.WorkloadPhase;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkloadPhasesTest {

    private static final JobId A = new JobId("t", "a");

    private static WorkloadPhase phase(List<V1Job> jobs, List<V1Pod> pods) {
        return phases(jobs, List.of(), pods).getOrDefault(A, WorkloadPhase.ABSENT);
    }

    private static WorkloadPhase phaseOfTraining(DynamicKubernetesObject trainingJob, List<V1Pod> pods) {
        return phases(List.of(), List.of(trainingJob), pods).getOrDefault(A, WorkloadPhase.ABSENT);
    }

    /** As the observer gathers them: every object by the job its labels name. */
    private static Map<JobId, WorkloadPhase> phases(
            List<V1Job> jobs, List<DynamicKubernetesObject> trainingJobs, List<V1Pod> pods) {
        Map<JobId, List<WorkloadObject>> objects = new HashMap<>();
        jobs.forEach(job -> objects.computeIfAbsent(
                        WorkloadPhases.jobId(job.getMetadata()).orElseThrow(), id -> new ArrayList<>())
                .add(WorkloadObject.of(job)));
        trainingJobs.forEach(job -> objects.computeIfAbsent(
                        WorkloadPhases.jobId(job.getMetadata()).orElseThrow(), id -> new ArrayList<>())
                .add(WorkloadObject.ofTrainingJob(job)));
        return WorkloadPhases.of(objects, pods);
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
                .as("a pod still running")
                .isEqualTo(WorkloadPhase.RUNNING);
        var three = ownedBy(job("t", "a", null), "uid-3", 3);
        assertThat(phase(List.of(three), List.of(podOf("uid-3", "Succeeded"), podOf("uid-3", "Succeeded"))))
                .as("two of three completions")
                .isEqualTo(WorkloadPhase.STARTING);
        assertThat(phase(List.of(single), List.of(podOf("uid-old", "Succeeded"))))
                .as("a pod of an earlier Job of that name")
                .isEqualTo(WorkloadPhase.STARTING);
        assertThat(phase(List.of(single), List.of(podOf("uid-1", "Failed"))))
                .as("a failed pod may be retried: the Job's condition decides")
                .isEqualTo(WorkloadPhase.STARTING);
    }

    private static V1Job ownedBy(V1Job job, String uid, Integer completions) {
        job.getMetadata().uid(uid);
        job.spec(new V1JobSpec().completions(completions));
        return job;
    }

    private static V1Pod podOf(String jobUid, String phase) {
        return podOf("Job", jobUid, phase);
    }

    private static V1Pod podOf(String ownerKind, String ownerUid, String phase) {
        var pod = jobPod("t", "a", phase);
        pod.getMetadata()
                .addOwnerReferencesItem(new V1OwnerReference()
                        .kind(ownerKind)
                        .uid(ownerUid)
                        .name("t.a")
                        .apiVersion("v1"));
        return pod;
    }

    /** A PyTorchJob of job t/a with a Master and {@code workers} Workers, and the given final condition if any. */
    private static DynamicKubernetesObject pytorchJob(String uid, int workers, String condition) {
        return trainingJob(
                "PyTorchJob",
                uid,
                "\"pytorchReplicaSpecs\": {\"Master\": {\"replicas\": 1}, " + "\"Worker\": {\"replicas\": " + workers
                        + "}}",
                condition);
    }

    private static DynamicKubernetesObject trainingJob(String kind, String uid, String spec, String condition) {
        String status = condition == null
                ? "{}"
                : "{\"conditions\": [{\"type\": \"Created\", \"status\": \"True\"}, {\"type\": \"" + condition
                        + "\", \"status\": \"True\"}]}";
        return new DynamicKubernetesObject(JsonParser.parseString("{\"kind\": \"" + kind + "\", \"metadata\": "
                        + "{\"name\": \"t.a\", \"namespace\": \"ns\", \"uid\": \"" + uid + "\", \"labels\": "
                        + "{\"quotient.io/team\": \"t\", \"quotient.io/job\": \"a\"}}, \"spec\": {" + spec + "}, "
                        + "\"status\": " + status + "}")
                .getAsJsonObject());
    }

    /**
     * The soak's case: a gang re-placed after a node removal gets a new PyTorchJob of the same name; until its pods
     * exist, the earlier object's finished pod must not end the job, and its terminating pod still holds a GPU.
     */
    @Test
    void aReplacedGangIsNotJudgedByItsEarlierObjectsPods() {
        var replaced = pytorchJob("uid-new", 1, null);

        assertThat(phaseOfTraining(replaced, List.of(podOf("PyTorchJob", "uid-old", "Succeeded"))))
                .isEqualTo(WorkloadPhase.STARTING);
        assertThat(phaseOfTraining(replaced, List.of(podOf("PyTorchJob", "uid-old", "Failed"))))
                .isEqualTo(WorkloadPhase.STARTING);
        assertThat(phaseOfTraining(replaced, List.of(podOf("PyTorchJob", "uid-old", "Running"))))
                .as("a live pod of the earlier object holds its GPU but does not make the new one run")
                .isEqualTo(WorkloadPhase.STARTING);
        assertThat(phaseOfTraining(
                        replaced,
                        List.of(
                                podOf("PyTorchJob", "uid-old", "Succeeded"),
                                podOf("PyTorchJob", "uid-new", "Running"))))
                .isEqualTo(WorkloadPhase.RUNNING);
    }

    @Test
    void aTrainingJobEndsWhenEveryReplicasPodHasFinishedOrByItsCondition() {
        var gang = pytorchJob("uid-1", 1, null);
        var master = podOf("PyTorchJob", "uid-1", "Succeeded");

        assertThat(phaseOfTraining(gang, List.of(master)))
                .as("the worker's pod has not existed yet")
                .isEqualTo(WorkloadPhase.STARTING);
        assertThat(phaseOfTraining(gang, List.of(master, podOf("PyTorchJob", "uid-1", "Succeeded"))))
                .isEqualTo(WorkloadPhase.SUCCEEDED);
        assertThat(phaseOfTraining(gang, List.of(master, podOf("PyTorchJob", "uid-1", "Failed"))))
                .as("a failed replica fails a training job")
                .isEqualTo(WorkloadPhase.FAILED);
        assertThat(phaseOfTraining(pytorchJob("uid-1", 1, "Succeeded"), List.of()))
                .as("the operator's condition, its pods cleaned up")
                .isEqualTo(WorkloadPhase.SUCCEEDED);
        assertThat(phaseOfTraining(pytorchJob("uid-1", 1, "Failed"), List.of(master)))
                .isEqualTo(WorkloadPhase.FAILED);
        assertThat(phaseOfTraining(
                        trainingJob("TrainJob", "uid-2", "\"trainer\": {\"numNodes\": 2}", "Complete"), List.of()))
                .isEqualTo(WorkloadPhase.SUCCEEDED);
    }

    @Test
    void aTrainJobsPodsOwnedByItsRuntimesJobsCountAsTheyAre() {
        var trainJob = trainingJob("TrainJob", "uid-2", "\"trainer\": {\"numNodes\": 2}", null);

        assertThat(phaseOfTraining(trainJob, List.of(podOf("Job", "uid-of-a-jobset-job", "Running"))))
                .isEqualTo(WorkloadPhase.RUNNING);
        assertThat(phaseOfTraining(trainJob, List.of(podOf("Job", "uid-of-a-jobset-job", "Succeeded"))))
                .as("done only by the trainer's condition")
                .isEqualTo(WorkloadPhase.STARTING);
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

        Map<JobId, WorkloadPhase> phases = phases(List.of(job("t", "b", null)), List.of(), List.of(reservation));

        assertThat(phases).containsOnlyKeys(new JobId("t", "b"));
    }
}
