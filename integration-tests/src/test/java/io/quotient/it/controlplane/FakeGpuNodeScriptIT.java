package io.quotient.it.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.quotient.it.harness.ControlPlane;
import io.quotient.it.harness.Conventions;
import io.quotient.it.harness.FakeGpuReports;
import io.quotient.it.harness.HarnessSettings;
import io.quotient.it.harness.KubeCalls;
import io.quotient.it.harness.RealKubernetes;
import io.quotient.it.harness.ScriptRunner;
import io.quotient.it.harness.TestNamespace;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@code bin/fake-gpu-node} makes the same nodes as the Java fixture, and refuses bad input. */
@RealKubernetes
class FakeGpuNodeScriptIT {

    private static final Duration SCRIPT_TIMEOUT = Duration.ofMinutes(1);

    @Test
    void scriptMakesASchedulableGpuNodeWithLabelsAndAReadyReport(ControlPlane controlPlane, TestNamespace namespace)
            throws ApiException {
        CoreV1Api api = new CoreV1Api(controlPlane.apiClient());
        String name = "script-" + UUID.randomUUID().toString().substring(0, 8);
        try {
            List<String> output = ScriptRunner.run(SCRIPT_TIMEOUT, fakeGpuNode(controlPlane, name, "2", "NVIDIA-L4"));
            assertThat(output).last().isEqualTo(name);

            V1Node node = api.readNode(name).execute();
            assertThat(node.getMetadata().getLabels())
                    .containsEntry(Conventions.GPU_COUNT_LABEL, "2")
                    .containsEntry(Conventions.GPU_MEMORY_LABEL, "23034")
                    .containsEntry(Conventions.GPU_PRODUCT_LABEL, "NVIDIA-L4")
                    .containsEntry(Conventions.HOSTNAME_LABEL, name);
            assertThat(node.getStatus()
                            .getAllocatable()
                            .get(Conventions.GPU_RESOURCE)
                            .getNumber()
                            .intValue())
                    .isEqualTo(2);
            assertThat(node.getStatus().getConditions())
                    .anySatisfy(
                            c -> assertThat(c.getType() + "=" + c.getStatus()).isEqualTo("Ready=True"));
            assertThat(
                            node.getSpec().getTaints() == null
                                    ? List.of()
                                    : node.getSpec().getTaints())
                    .isEmpty();
            var report = JsonParser.parseString(
                            node.getMetadata().getAnnotations().get(Conventions.GPU_REPORT_ANNOTATION))
                    .getAsJsonObject();
            assertThat(report.get("ready").getAsBoolean()).isTrue();
            List<String> uuids = new ArrayList<>();
            report.getAsJsonArray("gpus")
                    .forEach(gpu -> uuids.add(gpu.getAsJsonObject().get("uuid").getAsString()));
            assertThat(uuids).containsExactly(FakeGpuReports.gpuUuid(name, 0), FakeGpuReports.gpuUuid(name, 1));

            // Schedulable for real: the kube-scheduler binds a pod that requires this node and both its GPUs,
            // and the fake kubelet serves the script's node as it serves the Java fixture's.
            api.createNamespacedPod(namespace.name(), Workloads.gpuPod("on-script-node", 2, name))
                    .execute();
            V1Pod running = FakeKubeletIT.awaitPhase(api, namespace, "on-script-node", "Running");
            assertThat(running.getSpec().getNodeName()).isEqualTo(name);
        } finally {
            KubeCalls.deleteIgnoringMissing(
                    "deleting node " + name, () -> api.deleteNode(name).buildCall(null));
        }
    }

    @Test
    void scriptRefusesABadGpuCountAndCreatesNothing(ControlPlane controlPlane) throws ApiException {
        String name = "script-bad-" + UUID.randomUUID().toString().substring(0, 8);

        ScriptRunner.Result result =
                ScriptRunner.execute(SCRIPT_TIMEOUT, fakeGpuNode(controlPlane, name, "two", "NVIDIA-L4"));

        assertThat(result.exitCode()).isNotZero();
        assertThat(result.output()).contains("--gpus must be a whole number, got 'two'");
        assertThat(new CoreV1Api(controlPlane.apiClient())
                        .listNode()
                        .fieldSelector("metadata.name=" + name)
                        .execute()
                        .getItems())
                .isEmpty();
    }

    private static List<String> fakeGpuNode(ControlPlane controlPlane, String name, String gpus, String model) {
        String script = HarnessSettings.fromSystemProperties()
                .scriptsDir()
                .resolve("fake-gpu-node")
                .toString();
        return List.of(
                script,
                "--kubeconfig",
                controlPlane.kubeconfig().toString(),
                name,
                "--gpus",
                gpus,
                "--gpu-memory-mib",
                "23034",
                "--model",
                model);
    }
}
