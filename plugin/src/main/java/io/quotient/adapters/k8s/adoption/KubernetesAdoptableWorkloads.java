package io.quotient.adapters.k8s.adoption;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesListObject;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.options.ListOptions;
import io.quotient.adapters.k8s.TenantScope;
import io.quotient.core.request.ForeignDemand;
import io.quotient.core.request.RequestException;
import io.quotient.deploy.LogValues;
import io.quotient.deploy.port.AdoptableWorkloads;
import io.quotient.deploy.port.JobSubmission;
import io.quotient.deploy.port.WorkloadRef;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists the workloads the webhook labelled for adoption (one list call per kind, all namespaces) and turns each that
 * is still suspended, in a team's own namespace, into the submission of a job governing it (named as the workload).
 * A kind whose CRD is not installed (no Kubeflow) is skipped quietly.
 */
public final class KubernetesAdoptableWorkloads implements AdoptableWorkloads {

    private static final Logger LOG = LoggerFactory.getLogger(KubernetesAdoptableWorkloads.class);
    private static final int NOT_FOUND = 404;

    private final Map<ForeignWorkloadKind, DynamicKubernetesApi> apis = new EnumMap<>(ForeignWorkloadKind.class);
    private final TenantScope scope;

    public KubernetesAdoptableWorkloads(ApiClient client, TenantScope scope) {
        this.scope = scope;
        for (ForeignWorkloadKind kind : ForeignWorkloadKind.values()) {
            apis.put(kind, new DynamicKubernetesApi(kind.group(), kind.version(), kind.plural(), client));
        }
    }

    @Override
    public List<JobSubmission> suspendedForAdoption() {
        TenantScope.View view = scope.now();
        List<JobSubmission> result = new ArrayList<>();
        ListOptions labelled = new ListOptions();
        labelled.setLabelSelector(AdoptionLabels.ADOPTED + "=true");
        for (Map.Entry<ForeignWorkloadKind, DynamicKubernetesApi> entry : apis.entrySet()) {
            KubernetesApiResponse<DynamicKubernetesListObject> listed =
                    entry.getValue().list(labelled);
            if (!listed.isSuccess()) {
                if (listed.getHttpStatusCode() != NOT_FOUND) {
                    LOG.warn(
                            "listing {}s for adoption failed: HTTP {} {}",
                            entry.getKey().kind(),
                            listed.getHttpStatusCode(),
                            listed.getStatus() == null ? "" : listed.getStatus().getMessage());
                }
                continue;
            }
            for (DynamicKubernetesObject object : listed.getObject().getItems()) {
                submission(entry.getKey(), object.getRaw(), view).ifPresent(result::add);
            }
        }
        return result;
    }

    private static Optional<JobSubmission> submission(
            ForeignWorkloadKind kind, JsonObject workload, TenantScope.View view) {
        JsonObject metadata = JsonTree.object(workload, "metadata");
        String namespace = JsonTree.text(metadata, "namespace");
        String name = JsonTree.text(metadata, "name");
        Optional<String> team = view.ownerOf(namespace);
        if (team.isEmpty() || metadata.has("deletionTimestamp") || !kind.suspended(workload)) {
            return Optional.empty(); // not a team's own namespace, going away, or already running
        }
        try {
            Optional<ForeignDemand> demand = kind.demand(workload);
            return demand.map(d -> JobSubmission.governing(
                    d.request(team.get(), name),
                    namespace,
                    new WorkloadRef(kind.apiVersion(), kind.kind(), name, JsonTree.text(metadata, "uid"))));
        } catch (RequestException e) {
            LOG.warn(
                    "{} {}/{} of team {} cannot be adopted: {}; it stays suspended",
                    kind.kind(),
                    namespace,
                    name,
                    team.get(),
                    LogValues.escape(e.getMessage()));
            return Optional.empty();
        }
    }
}
