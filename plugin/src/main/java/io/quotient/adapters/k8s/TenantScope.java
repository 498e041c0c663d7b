package io.quotient.adapters.k8s;

import io.quotient.core.model.JobId;
import io.quotient.core.tenancy.TeamNamespaces;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Which namespaces the service manages and who owns what is in them: the service's own namespace (shared by the
 * teams that list it, and the home of records written before teams had namespaces) and each team's namespaces. An
 * object in a team's namespace belongs to that team only, so that a user of team-b cannot make a pod labelled as
 * team-a's count against team-a, and a GpuJob there is named by the job alone.
 */
public final class TenantScope {

    private final String serviceNamespace;
    private final Supplier<TeamNamespaces> teams;

    /** @param teams the teams' namespaces in force (re-read on each use: the configuration may change) */
    public TenantScope(String serviceNamespace, Supplier<TeamNamespaces> teams) {
        this.serviceNamespace = serviceNamespace;
        this.teams = teams;
    }

    /** A view for one pass over many objects: the configuration is read once. */
    public View now() {
        return new View(teams.get());
    }

    public String serviceNamespace() {
        return serviceNamespace;
    }

    /** The configuration as of one moment. */
    public final class View {

        private final TeamNamespaces namespaces;

        private View(TeamNamespaces namespaces) {
            this.namespaces = namespaces;
        }

        public boolean shared(String namespace) {
            return serviceNamespace.equals(namespace);
        }

        /** Whether an object of {@code team} in {@code namespace} may be believed. */
        public boolean holds(String namespace, String team) {
            return shared(namespace)
                    || namespaces.teamOf(namespace).filter(team::equals).isPresent();
        }

        /** The team owning a (non-shared) namespace. */
        public Optional<String> ownerOf(String namespace) {
            return shared(namespace) ? Optional.empty() : namespaces.teamOf(namespace);
        }

        public boolean managed(String namespace) {
            return shared(namespace) || namespaces.teamOf(namespace).isPresent();
        }

        /** Where the job's GpuJob may be, most likely first: the team's namespaces, then the shared one (older records). */
        public List<Location> candidates(JobId job) {
            List<Location> result = new ArrayList<>();
            for (String namespace : namespaces.namespacesOf(job.team())) {
                if (!shared(namespace)) {
                    result.add(new Location(namespace, job.name()));
                }
            }
            result.add(new Location(serviceNamespace, KubernetesNames.ofJob(job)));
            return result;
        }

        /** The GpuJob's name for a job recorded in {@code namespace}. */
        public Location locationIn(String namespace, JobId job) {
            return new Location(namespace, shared(namespace) ? KubernetesNames.ofJob(job) : job.name());
        }

        public TeamNamespaces namespaces() {
            return namespaces;
        }
    }

    /** A GpuJob's namespace and name. */
    public record Location(String namespace, String name) {
        public String key() {
            return namespace + "/" + name;
        }
    }
}
