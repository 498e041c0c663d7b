package io.quotient.core.model;

import java.util.Objects;

/**
 * An optional level above teams: its teams borrow idle capacity from each other first, then from other departments,
 * and another department's reclaim never takes the department below its own guarantee.
 *
 * @param guaranteedMilli capacity the department's teams may always reclaim from other departments, in milli-GPU
 * @param maxMilli        hard ceiling on everything its teams hold together; {@link Team#UNLIMITED} when none
 * @param overQuotaWeight the department's share of idle capacity relative to other departments (and loose teams)
 */
public record Department(String name, long guaranteedMilli, long maxMilli, double overQuotaWeight) {

    public Department {
        Objects.requireNonNull(name, "department name");
        Team.checkLimits("department " + name, guaranteedMilli, maxMilli, overQuotaWeight);
    }

    public boolean hasMax() {
        return maxMilli != Team.UNLIMITED;
    }
}
