package io.quotient.core.request;

import java.util.Collection;

/** A request names a team that is not in the quota configuration (REST answers 404). Nothing is changed. */
public final class UnknownTeamException extends RuntimeException {

    private final String team;

    public UnknownTeamException(String team, Collection<String> known) {
        super("team '" + team + "' is not configured; known teams: "
                + String.join(", ", known.stream().sorted().toList())
                + ". Add it to the teams file to deploy jobs for it");
        this.team = team;
    }

    public String team() {
        return team;
    }
}
