package io.quotient.deploy.port;

import io.quotient.core.model.Team;
import io.quotient.core.tenancy.TeamNamespaces;
import java.util.Map;

/**
 * The teams and their quotas in force (a YAML file re-read on change, or a ConfigMap in-cluster). A source
 * that meets an invalid update keeps serving the last good configuration.
 */
public interface TeamsSource {

    /** The teams by name; never null. */
    Map<String, Team> teams();

    /** Each team's namespaces (configured, or one named after the team), consistent with {@link #teams()}. */
    default TeamNamespaces namespaces() {
        return TeamNamespaces.defaults(teams().keySet());
    }
}
