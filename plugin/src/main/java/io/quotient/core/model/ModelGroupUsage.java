package io.quotient.core.model;

/**
 * What a team holds of one of its model groups, in milli-GPU, for views: what runs on nodes of the group's models,
 * and how much of it is inside the group's guarantee (the rest is borrowed).
 */
public record ModelGroupUsage(ModelGuarantee guarantee, long heldMilli, long inQuotaMilli) {

    public long borrowedMilli() {
        return heldMilli - inQuotaMilli;
    }
}
