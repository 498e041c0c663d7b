package io.quotient.access;

import io.quotient.core.tenancy.TeamNamespaces;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The questions a call on a team's jobs asks, as Kubernetes RBAC words them: the GpuJob resource
 * ({@code gpujobs.quotient.io}) in the team's namespace; POST → {@code create}, GET of one job → {@code get}, GET of
 * the list → {@code list} (in every namespace of the team, since the list shows them all), DELETE → {@code delete}.
 * A deploy goes to the team's primary namespace; a job is asked about in the namespace it lives in. A job kept in
 * the shared namespace (the service's own, teams listing it share their access) is asked about there.
 */
public final class JobAccess {

    public static final String GROUP = "quotient.io";
    public static final String RESOURCE = "gpujobs";

    private JobAccess() {}

    /**
     * @param method       the HTTP method
     * @param job          the job's name, or null for the team's list (or a deploy)
     * @param jobNamespace where the job lives, when it exists
     * @return the questions to ask, all of which must be allowed; empty for a method that is not a job call
     */
    public static List<AccessRequest> requests(
            String method, String team, String job, TeamNamespaces namespaces, Optional<String> jobNamespace) {
        String primary = namespaces.primaryNamespace(team);
        List<AccessRequest> result = new ArrayList<>();
        switch (method) {
            case "POST" -> result.add(new AccessRequest("create", GROUP, RESOURCE, primary, null));
            case "GET", "HEAD" -> {
                if (job == null) {
                    namespaces
                            .namespacesOf(team)
                            .forEach(ns -> result.add(new AccessRequest("list", GROUP, RESOURCE, ns, null)));
                } else {
                    result.add(new AccessRequest("get", GROUP, RESOURCE, jobNamespace.orElse(primary), job));
                }
            }
            case "DELETE" ->
                result.add(new AccessRequest("delete", GROUP, RESOURCE, jobNamespace.orElse(primary), job));
            default -> {}
        }
        return result;
    }
}
