package io.quotient.core.model;

/**
 * What a team holds of one of its model groups, in milli-GPU, for views: what runs on nodes of the group's models,
 * how much of it is inside the group's guarantee (the rest is borrowed), and the team's fair share of the group's
 * GPUs (0 when it is not known).
 */
public record ModelGroupUsage(ModelGuarantee guarantee, long heldMilli, long inQuotaMilli, long fairShareMilli) {

    /** The usage before its fair share is known. */
    public ModelGroupUsage(ModelGuarantee guarantee, long heldMilli, long inQuotaMilli) {
        this(guarantee, heldMilli, inQuotaMilli, 0);
    }

    public long borrowedMilli() {
        return heldMilli - inQuotaMilli;
    }

    public ModelGroupUsage withFairShare(long milli) {
        return new ModelGroupUsage(guarantee, heldMilli, inQuotaMilli, milli);
    }
}
