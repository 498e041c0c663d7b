package io.quotient.adapters.k8s;

import io.quotient.core.model.JobId;
import io.quotient.deploy.port.GpuSlot;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Deterministic object names. A job's GpuJob and its workload share one name derived from team and job, so
 * after a restart or a leader change the service finds the objects it created instead of creating twins.
 */
public final class KubernetesNames {

    /** Job controllers copy the Job name into a label value, so names stay within a label's 63 characters. */
    static final int MAX_LENGTH = 63;

    private static final int HASH_CHARS = 10;
    /** Room for what controllers append to a workload's name ({@code -worker-123}) within a 63-character name. */
    static final int MAX_WORKLOAD_LENGTH = 47;

    private static final int WORKLOAD_HASH_CHARS = 8;

    private KubernetesNames() {}

    /**
     * {@code <team>.<job>} when that fits and is unambiguous (neither part holds a dot), else a readable prefix
     * plus a hash of both parts. Plain names hold exactly one dot and hashed names none, so they never collide.
     */
    public static String ofJob(JobId job) {
        String plain = job.team() + "." + job.name();
        if (plain.length() <= MAX_LENGTH
                && !job.team().contains(".")
                && !job.name().contains(".")) {
            return plain;
        }
        return hashed((job.team() + "-" + job.name()).replace('.', '-'), job.team() + "\n" + job.name());
    }

    /**
     * The name of a job's workload (Job, PyTorchJob, Pod): {@code <team>-<job>-<hash>}, a DNS-1035 label of at most
     * {@value #MAX_WORKLOAD_LENGTH} characters. Unlike the GpuJob's name it holds no dot, because controllers derive
     * Service names from it (Kubeflow's training operator names one per replica, {@code <name>-worker-12}), and
     * Service names must be DNS-1035 labels within 63 characters. The hash keeps {@code a-b}/{@code c} and
     * {@code a}/{@code b-c} apart.
     */
    public static String ofWorkload(JobId job) {
        String name = hashed(
                (job.team() + "-" + job.name()).replace('.', '-'),
                job.team() + "\n" + job.name(),
                MAX_WORKLOAD_LENGTH,
                WORKLOAD_HASH_CHARS);
        // a DNS-1035 label starts with a letter; team names are DNS-1123 labels and may start with a digit
        return Character.isLetter(name.charAt(0)) ? name : "q" + name.substring(0, name.length() - 1);
    }

    /** {@code quotient-reservation-<node>-<gpuIndex>}, hashed down to 63 characters for long node names. */
    public static String ofReservation(GpuSlot slot) {
        String plain = "quotient-reservation-" + slot.node() + "-" + slot.gpuIndex();
        return plain.length() <= MAX_LENGTH
                ? plain
                : hashed(plain.replace('.', '-'), slot.node() + "\n" + slot.gpuIndex());
    }

    /** A label value, or a hashed stand-in when the value is longer than a label value may be. */
    public static String labelValue(String value) {
        return value.length() <= MAX_LENGTH ? value : hashed(value.replace('.', '-'), value);
    }

    private static String hashed(String readable, String identity) {
        return hashed(readable, identity, MAX_LENGTH, HASH_CHARS);
    }

    private static String hashed(String readable, String identity, int maxLength, int hashChars) {
        String hash = sha256(identity).substring(0, hashChars);
        String prefix = readable.substring(0, Math.min(readable.length(), maxLength - hashChars - 1));
        // a name must end alphanumeric before the '-' we add
        prefix = prefix.replaceAll("[^a-z0-9]+$", "");
        return prefix.isEmpty() ? "q" + hash : prefix + "-" + hash;
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
