package io.quotient.deploy;

import java.util.Collection;

/** The team is not in the quota configuration (REST: 404). */
public final class TeamNotFoundException extends RuntimeException {

    public TeamNotFoundException(String team, Collection<String> known) {
        super("team '" + team + "' is not configured; known teams: "
                + String.join(", ", known.stream().sorted().toList())
                + ". Add it to the teams file to deploy jobs for it");
    }
}
