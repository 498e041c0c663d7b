package io.quotient.deploy.port;

import java.util.Objects;

/**
 * The existing workload a job governs, when it was created outside Quotient (kubectl, the Kubeflow UI, a CronJob)
 * and adopted: instead of rendering a template, the gateway patches this object (placement, unsuspend) and suspends
 * it again on preemption. Its record is owned by it, so deleting the workload ends the job. In the job's namespace.
 *
 * @param apiVersion e.g. {@code kubeflow.org/v1}
 * @param kind       e.g. {@code PyTorchJob}
 * @param name       the workload's name
 * @param uid        the workload's uid (the owner reference of the record; a new object of the same name is another);
 *                   empty for a pod, which is governed from its admission on, before it has a uid
 */
public record WorkloadRef(String apiVersion, String kind, String name, String uid) {

    private static final String POD_API_VERSION = "v1";
    private static final String POD_KIND = "Pod";

    /**
     * A pod governed at its admission (a Notebook's StatefulSet pod, a bare GPU pod): its controller, not Quotient,
     * creates it, so the job lives as long as the pod does and is known by the pod's name only (a StatefulSet's
     * replacement pod of the same name is the same job).
     */
    public static WorkloadRef pod(String name) {
        return new WorkloadRef(POD_API_VERSION, POD_KIND, name, "");
    }

    /** Whether this is a pod governed at its admission ({@link #pod}). */
    public boolean isPod() {
        return POD_API_VERSION.equals(apiVersion) && POD_KIND.equals(kind);
    }

    public WorkloadRef {
        Objects.requireNonNull(apiVersion, "apiVersion");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(uid, "uid");
    }

    @Override
    public String toString() {
        return kind + " " + name;
    }
}
