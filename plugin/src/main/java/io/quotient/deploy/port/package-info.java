/**
 * The ports of the application layer: what the deployment use cases need from the world, implemented
 * by adapters (Kubernetes in {@code io.quotient.adapters.k8s}, the embedded in-memory cluster in
 * {@code io.quotient.adapters.memory}). Pure Java: no Spring or Kubernetes types cross these interfaces.
 *
 * <p>The flow is observe → snapshot → plan → apply: {@link io.quotient.deploy.port.ClusterObserver} and
 * {@link io.quotient.deploy.port.JobRecordStore} are observed into a snapshot, the core plans, and the plan
 * is applied through {@link io.quotient.deploy.port.JobRecordStore} (intent first) and
 * {@link io.quotient.deploy.port.WorkloadGateway} (then the objects). Every gateway call is idempotent, so
 * re-applying the recorded intent after a crash converges instead of duplicating.
 */
package io.quotient.deploy.port;
