package io.quotient.deploy.port;

/**
 * A volume of the team's namespace mounted into the job's main container, as the user wrote it: exactly one of
 * {@code persistentVolumeClaim}, {@code secret} or {@code configMap} names the object (checked before anything is
 * recorded). Rendered as a pod volume plus a volume mount, never as text.
 *
 * @param name      the volume's name in the pod (a DNS label)
 * @param mountPath absolute path in the container
 * @param readOnly  mounted read-only (default false)
 */
public record VolumeRequest(
        String name,
        String persistentVolumeClaim,
        String secret,
        String configMap,
        String mountPath,
        Boolean readOnly) {}
