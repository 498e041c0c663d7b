package io.quotient.deploy.port;

import java.util.List;

/**
 * Where and as whom a job's pods run, and what of its namespace they may use: the team's namespace, the service
 * account, volumes (PVCs, secrets, config maps by name) and image pull secrets (the pods' annotations are the
 * submission's {@link Metadata}).
 *
 * @param namespace          the namespace of the job's record and workload; null until the service chose it (the
 *                           team's primary namespace for a REST deploy; the GpuJob's own for one applied with kubectl)
 * @param serviceAccountName the pods' service account; null means the namespace's {@code default}
 * @param volumes            volumes mounted into the main container
 * @param imagePullSecrets   names of docker-registry secrets of the namespace
 */
public record PodOptions(
        String namespace, String serviceAccountName, List<VolumeRequest> volumes, List<String> imagePullSecrets) {

    /** Nothing asked for: the default service account, no volumes, the namespace chosen by the service. */
    public static final PodOptions NONE = new PodOptions(null, null, List.of(), List.of());

    public PodOptions {
        volumes = Copies.list(volumes);
        imagePullSecrets = Copies.list(imagePullSecrets);
    }

    public PodOptions withNamespace(String chosen) {
        return new PodOptions(chosen, serviceAccountName, volumes, imagePullSecrets);
    }
}
