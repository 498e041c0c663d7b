package io.quotient.core.model;

import java.util.Objects;

/** A job is named within its team; the pair is unique in the cluster. */
public record JobId(String team, String name) {
    public JobId {
        Objects.requireNonNull(team, "team");
        Objects.requireNonNull(name, "name");
    }

    @Override
    public String toString() {
        return team + "/" + name;
    }
}
