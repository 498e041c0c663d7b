package io.quotient.adapters.k8s;

import io.quotient.core.scheduling.JobId;
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

    private KubernetesNames() {
    }

    /**
     * {@code <team>.<job>} when that fits and is unambiguous (neither part holds a dot), else a readable prefix
     * plus a hash of both parts. Plain names hold exactly one dot and hashed names none, so they never collide.
     */
    public static String ofJob(JobId job) {
        String plain = job.team() + "." + job.name();
        if (plain.length() <= MAX_LENGTH && !job.team().contains(".") && !job.name().contains(".")) {
            return plain;
        }
        return hashed((job.team() + "-" + job.name()).replace('.', '-'), job.team() + "\n" + job.name());
    }

    /** {@code quotient-reservation-<node>-<gpuIndex>}, hashed down to 63 characters for long node names. */
    public static String ofReservation(GpuSlot slot) {
        String plain = "quotient-reservation-" + slot.node() + "-" + slot.gpuIndex();
        return plain.length() <= MAX_LENGTH ? plain : hashed(plain.replace('.', '-'), slot.node() + "\n" + slot.gpuIndex());
    }

    /** A label value, or a hashed stand-in when the value is longer than a label value may be. */
    static String labelValue(String value) {
        return value.length() <= MAX_LENGTH ? value : hashed(value.replace('.', '-'), value);
    }

    private static String hashed(String readable, String identity) {
        String hash = sha256(identity).substring(0, HASH_CHARS);
        String prefix = readable.substring(0, Math.min(readable.length(), MAX_LENGTH - HASH_CHARS - 1));
        // a name must end alphanumeric before the '-' we add
        prefix = prefix.replaceAll("[^a-z0-9]+$", "");
        return prefix.isEmpty() ? "q" + hash : prefix + "-" + hash;
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
