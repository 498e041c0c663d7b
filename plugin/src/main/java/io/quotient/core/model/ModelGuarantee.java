package io.quotient.core.model;

import java.util.Objects;

/**
 * A team's (or department's) guarantee and maximum in one model group, in milli-GPU.
 *
 * @param guaranteedMilli what the owner may always reclaim on nodes of the group's models (0: it only borrows there)
 * @param maxMilli        ceiling on what the owner holds on those nodes; {@link Team#UNLIMITED} when none
 */
public record ModelGuarantee(ModelGroup group, long guaranteedMilli, long maxMilli) {

    public ModelGuarantee {
        Objects.requireNonNull(group, "group");
        if (guaranteedMilli < 0) {
            throw new IllegalArgumentException("gpus must not be negative");
        }
        if (maxMilli < guaranteedMilli) {
            throw new IllegalArgumentException(
                    "maxGpus (" + maxMilli / 1000.0 + ") is below gpus (" + guaranteedMilli / 1000.0 + ")");
        }
    }

    public boolean hasMax() {
        return maxMilli != Team.UNLIMITED;
    }
}
