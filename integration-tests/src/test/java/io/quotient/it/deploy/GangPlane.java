package io.quotient.it.deploy;

import io.kubernetes.client.openapi.ApiClient;
import io.quotient.it.harness.FakeGpuNodeSpec;
import io.quotient.it.harness.FakeGpuNodes;
import io.quotient.it.kubeflow.KubeflowCrds;

/** What the distributed-training ITs start from: the GpuJob and Kubeflow CRDs, and whole 8 × A100 nodes. */
final class GangPlane {

    private GangPlane() {}

    /** Installs the CRDs (kept when present) and makes {@code count} fake nodes of 8 A100 GPUs named after prefix. */
    static void prepare(ApiClient client, FakeGpuNodes nodes, String prefix, int count) {
        QuotientManifests.installCrd(client);
        KubeflowCrds.install(client);
        for (int i = 0; i < count; i++) {
            nodes.create(FakeGpuNodeSpec.of(prefix, 8, 81920, "NVIDIA-A100-SXM4-80GB"));
        }
    }
}
