package io.quotient.core.tenancy;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Which Kubernetes namespaces belong to which team (a Kubeflow profile namespace, say). A team's jobs, their
 * records and the volumes, secrets and service accounts they use live in the team's namespaces; access to them is
 * decided per namespace. A namespace belongs to at most one team. A team without configured namespaces has one,
 * named after the team. The first namespace of a team is its primary one: where REST deploys go.
 *
 * <p>The one exception is the service's own namespace (the <em>shared</em> namespace): any number of teams may list
 * it, which keeps the single-namespace layout of earlier versions (every team's jobs beside the service). Objects
 * there are told apart by the team written in them, not by the namespace.
 */
public final class TeamNamespaces {

    private final Map<String, List<String>> byTeam;
    private final Map<String, String> teamByNamespace;
    private final String shared;

    private TeamNamespaces(Map<String, List<String>> byTeam, String shared) {
        this.byTeam = byTeam;
        this.shared = shared;
        this.teamByNamespace = new LinkedHashMap<>();
        byTeam.forEach((team, namespaces) -> {
            if (namespaces.isEmpty()) {
                throw new IllegalArgumentException("team " + team + " has an empty list of namespaces; leave"
                        + " 'namespaces' out for the default (one namespace named " + team + ")");
            }
            for (String namespace : namespaces) {
                if (namespace.equals(shared)) {
                    continue;
                }
                String owner = teamByNamespace.putIfAbsent(namespace, team);
                if (owner != null) {
                    throw new IllegalArgumentException("namespace " + namespace + " is given to team " + team
                            + " but already belongs to team " + owner + "; a namespace belongs to at most one team");
                }
            }
        });
    }

    /**
     * @param byTeam each team's namespaces, primary first; a team mapped to null gets the default
     * @param shared the service's own namespace, which teams may share; null when there is none
     * @throws IllegalArgumentException when a namespace is given to two teams, or a list is empty
     */
    public static TeamNamespaces of(Map<String, List<String>> byTeam, String shared) {
        Map<String, List<String>> copy = new LinkedHashMap<>();
        byTeam.forEach(
                (team, namespaces) -> copy.put(team, namespaces == null ? List.of(team) : List.copyOf(namespaces)));
        return new TeamNamespaces(copy, shared);
    }

    /** Every team in its own namespace named after it. */
    public static TeamNamespaces defaults(Collection<String> teams) {
        Map<String, List<String>> byTeam = new LinkedHashMap<>();
        teams.forEach(team -> byTeam.put(team, null));
        return of(byTeam, null);
    }

    /** The team's namespaces, primary first; a team not listed here has the default one. */
    public List<String> namespacesOf(String team) {
        return byTeam.getOrDefault(team, List.of(team));
    }

    /** Where the team's jobs go when the request names no namespace. */
    public String primaryNamespace(String team) {
        return namespacesOf(team).get(0);
    }

    /** Whether objects in this namespace belong to the team they name (the shared namespace), not to its owner. */
    public boolean isShared(String namespace) {
        return namespace.equals(shared);
    }

    /** The team that owns the namespace, if any (none for the shared namespace). */
    public Optional<String> teamOf(String namespace) {
        return Optional.ofNullable(teamByNamespace.get(namespace));
    }

    /** Every team namespace, in team order. */
    public Collection<String> allNamespaces() {
        return teamByNamespace.keySet();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TeamNamespaces other && byTeam.equals(other.byTeam) && Objects.equals(shared, other.shared);
    }

    @Override
    public int hashCode() {
        return byTeam.hashCode();
    }

    @Override
    public String toString() {
        return byTeam.toString();
    }
}
