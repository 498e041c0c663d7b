package io.quotient.adapters.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.JobId;
import io.quotient.deploy.port.GpuSlot;
import org.junit.jupiter.api.Test;

class KubernetesNamesTest {

    @Test
    void jobNameIsTeamDotJobWhenItFits() {
        assertThat(KubernetesNames.ofJob(new JobId("team-a", "train-1"))).isEqualTo("team-a.train-1");
    }

    @Test
    void namesThatWouldBeAmbiguousOrTooLongAreHashedDeterministically() {
        String longName = "x".repeat(60);
        String hashed = KubernetesNames.ofJob(new JobId("team-a", longName));

        assertThat(hashed)
                .hasSizeLessThanOrEqualTo(63)
                .doesNotContain(".")
                .startsWith("team-a-xxx")
                .matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
        assertThat(KubernetesNames.ofJob(new JobId("team-a", longName))).isEqualTo(hashed);
        assertThat(KubernetesNames.ofJob(new JobId("team-a", longName + "y"))).isNotEqualTo(hashed);
        // "a.b" + "c" and "a" + "b.c" would both read a.b.c
        assertThat(KubernetesNames.ofJob(new JobId("a.b", "c")))
                .isNotEqualTo(KubernetesNames.ofJob(new JobId("a", "b.c")));
    }

    @Test
    void workloadNamesAreDns1035LabelsWithRoomForReplicaSuffixesAndNeverAmbiguous() {
        String plain = KubernetesNames.ofWorkload(new JobId("team-a", "train-1"));
        assertThat(plain)
                .startsWith("team-a-train-1-")
                .hasSize("team-a-train-1-".length() + 8)
                .isEqualTo(KubernetesNames.ofWorkload(new JobId("team-a", "train-1")));

        for (JobId job : new JobId[] {
            new JobId("team-a", "x".repeat(63)),
            new JobId("7teams", "job"),
            new JobId("a.b", "c"),
            new JobId("t", "a-very-long-pytorch-training-job-name-for-llm-finetuning")
        }) {
            String name = KubernetesNames.ofWorkload(job);
            assertThat(name)
                    .as(job.toString())
                    .hasSizeLessThanOrEqualTo(KubernetesNames.MAX_WORKLOAD_LENGTH)
                    .matches("[a-z]([-a-z0-9]*[a-z0-9])?");
            assertThat(name + "-worker-123")
                    .as("a Service name derived by the training operator")
                    .hasSizeLessThanOrEqualTo(63);
        }
        assertThat(KubernetesNames.ofWorkload(new JobId("a-b", "c")))
                .isNotEqualTo(KubernetesNames.ofWorkload(new JobId("a", "b-c")));
    }

    @Test
    void reservationPodNameFollowsTheConventionAndStaysWithin63Characters() {
        assertThat(KubernetesNames.ofReservation(new GpuSlot("gpu-node-1", 3)))
                .isEqualTo("quotient-reservation-gpu-node-1-3");
        String longNode = "node." + "z".repeat(80) + ".example.com";
        String name = KubernetesNames.ofReservation(new GpuSlot(longNode, 7));
        assertThat(name).hasSizeLessThanOrEqualTo(63).startsWith("quotient-reservation-node-zzz");
        assertThat(name).isNotEqualTo(KubernetesNames.ofReservation(new GpuSlot(longNode, 6)));
    }
}
