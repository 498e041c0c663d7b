package io.quotient.core.model;

import java.util.Objects;

/**
 * An optional level above teams: its teams borrow idle capacity from each other first, then from other departments,
 * and another department's reclaim never takes the department below its own guarantee.
 *
 * @param guaranteedMilli capacity the department's teams may always reclaim from other departments, in milli-GPU
 * @param maxMilli        hard ceiling on everything its teams hold together; {@link Team#UNLIMITED} when none
 * @param overQuotaWeight the department's share of idle capacity relative to other departments (and loose teams)
 * @param modelGuarantees guarantees and maxima per GPU model group; {@link ModelGuarantees#NONE}: any model
 */
public record Department(
        String name, long guaranteedMilli, long maxMilli, double overQuotaWeight, ModelGuarantees modelGuarantees) {

    public Department {
        Objects.requireNonNull(name, "department name");
        Team.checkLimits("department " + name, guaranteedMilli, maxMilli, overQuotaWeight);
        modelGuarantees = modelGuarantees == null ? ModelGuarantees.NONE : modelGuarantees;
        Team.checkSplit("department " + name, guaranteedMilli, modelGuarantees);
    }

    /** A department whose quota is "any model". */
    public Department(String name, long guaranteedMilli, long maxMilli, double overQuotaWeight) {
        this(name, guaranteedMilli, maxMilli, overQuotaWeight, ModelGuarantees.NONE);
    }

    public boolean hasMax() {
        return maxMilli != Team.UNLIMITED;
    }
}
