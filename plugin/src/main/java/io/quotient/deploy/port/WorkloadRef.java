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
 * @param uid        the workload's uid (the owner reference of the record; a new object of the same name is another)
 */
public record WorkloadRef(String apiVersion, String kind, String name, String uid) {

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
