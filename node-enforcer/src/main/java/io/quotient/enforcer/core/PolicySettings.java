package io.quotient.enforcer.core;

/**
 * Tuning of the kill policy.
 *
 * @param reclaimHeadroomFraction loans are reclaimed only once the GPU's free memory falls below this
 *     share of its memory (and below what owners miss of their requests): that is when an owner's next
 *     allocation would fail. Above it, owners can still grow, so borrowers keep their loans.
 */
public record PolicySettings(double reclaimHeadroomFraction) {

    public static final PolicySettings DEFAULTS = new PolicySettings(0.05);

    public PolicySettings {
        if (!(reclaimHeadroomFraction >= 0 && reclaimHeadroomFraction < 1)) {
            throw new IllegalArgumentException(
                    "reclaimHeadroomFraction must be in [0, 1), got " + reclaimHeadroomFraction);
        }
    }

    long headroomBytes(long totalBytes) {
        return Math.max(1, (long) (totalBytes * reclaimHeadroomFraction));
    }
}
