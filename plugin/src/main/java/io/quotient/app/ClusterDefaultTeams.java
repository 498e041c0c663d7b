package io.quotient.app;

import io.quotient.deploy.port.TeamsSource;

/**
 * The teams a cluster mode offers when no teams file is configured ({@code quotient.teams-file}): the embedded
 * cluster's two demo teams, or the teams ConfigMap in Kubernetes. A configured file always wins.
 */
public record ClusterDefaultTeams(TeamsSource source, String sharedNamespace) {

    /** @param sharedNamespace the service's own namespace, which teams may share (null: none, embedded cluster) */
    public ClusterDefaultTeams {}

    public ClusterDefaultTeams(TeamsSource source) {
        this(source, null);
    }
}
