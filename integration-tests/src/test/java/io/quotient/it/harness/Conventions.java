package io.quotient.it.harness;

/** Names shared with the deployer and the node enforcer (see docs/design.md, "Conventions"), and the harness's own. */
public final class Conventions {

    public static final String GPU_RESOURCE = "nvidia.com/gpu";
    public static final String GPU_COUNT_LABEL = "nvidia.com/gpu.count";
    public static final String GPU_MEMORY_LABEL = "nvidia.com/gpu.memory";
    public static final String GPU_PRODUCT_LABEL = "nvidia.com/gpu.product";
    public static final String HOSTNAME_LABEL = "kubernetes.io/hostname";
    public static final String NOT_READY_TAINT = "node.kubernetes.io/not-ready";

    /** The node enforcer's JSON report on the node. */
    public static final String GPU_REPORT_ANNOTATION = "quotient.io/gpu-report";
    /** Set on reservation pods by the node enforcer (here: the fake kubelet) to the GPU the kubelet gave them. */
    public static final String GPU_UUID_ANNOTATION = "quotient.io/gpu-uuid";

    public static final String ROLE_LABEL = "quotient.io/role";
    public static final String RESERVATION_ROLE = "gpu-reservation";
    /** On reservation pods: the index of the GPU they hold. */
    public static final String GPU_INDEX_LABEL = "quotient.io/gpu-index";

    /** Marks nodes made by the harness: the fake kubelet serves exactly these. */
    public static final String FAKE_NODE_LABEL = "quotient.io/fake-node";
    /** Marks namespaces made by the harness, so leftovers of killed runs can be found. */
    public static final String TEST_NAMESPACE_LABEL = "quotient.io/test-namespace";

    private Conventions() {}
}
