package io.quotient.adapters.k8s.adoption;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import io.quotient.adapters.k8s.AdmissionReviews;
import io.quotient.adapters.k8s.TenantScope;
import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.request.ForeignDemand;
import io.quotient.core.request.RequestException;
import io.quotient.deploy.LogValues;
import io.quotient.deploy.PodAdmissions;
import io.quotient.deploy.port.JobRecord;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admission webhook of workloads created outside Quotient (batch Jobs, PyTorchJobs, TrainJobs): in a team's
 * namespace, one that asks for GPUs is suspended and labelled {@value AdoptionLabels#ADOPTED} (mutating), so that it
 * waits for Quotient's placement instead of starting wherever the kube-scheduler puts it; one whose GPU annotations
 * are invalid is refused with the field and the reason (mutating and validating); an update that unsuspends an adopted
 * workload whose job is not placed is refused (validating). Anything else passes untouched: workloads without GPUs,
 * other namespaces, other updates, and Jobs another controller owns (a JobSet's Jobs belong to
 * the TrainJob that is governed itself; only a CronJob's Jobs are adopted). Pods that ask for GPUs are decided at once
 * by {@link PodAdmission}: admitted pinned to their job's placement, or refused while it waits.
 */
public final class WorkloadAdmission {

    private static final Logger LOG = LoggerFactory.getLogger(WorkloadAdmission.class);

    private final TenantScope scope;
    private final Function<JobId, Optional<JobRecord>> records;
    private final Optional<PodAdmission> pods;

    /** @param records the job's record: an adopted workload may be unsuspended only while its job is placed */
    public WorkloadAdmission(TenantScope scope, Function<JobId, Optional<JobRecord>> records) {
        this(scope, records, null);
    }

    /**
     * @param pods decides on pods that ask for GPUs (admitted pinned to their job's placement, or refused while it
     *             waits); null: pods pass untouched
     */
    public WorkloadAdmission(TenantScope scope, Function<JobId, Optional<JobRecord>> records, PodAdmissions pods) {
        this.scope = scope;
        this.records = records;
        this.pods = Optional.ofNullable(pods).map(PodAdmission::new);
    }

    /** The mutating answer: refusal, JSONPatch (suspend + label) for a workload that asks for GPUs, or allowed. */
    public String mutate(String reviewJson) {
        return review(reviewJson, true);
    }

    /** The validating answer: refusal or allowed, never a patch. */
    public String validate(String reviewJson) {
        return review(reviewJson, false);
    }

    private String review(String reviewJson, boolean mutate) {
        JsonObject request = AdmissionReviews.request(reviewJson);
        JsonObject kindOfRequest = request.getAsJsonObject("kind");
        Optional<ForeignWorkloadKind> kind = ForeignWorkloadKind.of(
                AdmissionReviews.text(kindOfRequest, "group"),
                AdmissionReviews.text(kindOfRequest, "version"),
                AdmissionReviews.text(kindOfRequest, "kind"));
        JsonElement object = request.get("object");
        String namespace = AdmissionReviews.text(request, "namespace");
        String operation = AdmissionReviews.text(request, "operation");
        if (isPod(kindOfRequest)
                && mutate
                && pods.isPresent()
                && "CREATE".equals(operation)
                && namespace != null
                && object != null
                && object.isJsonObject()) {
            Optional<String> team = scope.now().ownerOf(namespace);
            return team.isEmpty()
                    ? AdmissionReviews.allowed(request)
                    : pods.get().review(request, team.get(), namespace, object.getAsJsonObject());
        }
        if (kind.isEmpty()
                || object == null
                || !object.isJsonObject()
                || namespace == null
                || !scope.now().managed(namespace)) {
            return AdmissionReviews.allowed(request);
        }
        JsonObject workload = object.getAsJsonObject();
        if ("UPDATE".equals(operation)) {
            String refusal = unsuspendRefusal(kind.get(), namespace, request.getAsJsonObject("oldObject"), workload);
            return refusal == null ? AdmissionReviews.allowed(request) : AdmissionReviews.refused(request, refusal);
        }
        if (!"CREATE".equals(operation)) {
            return AdmissionReviews.allowed(request);
        }
        if (kind.get() == ForeignWorkloadKind.BATCH_JOB && ownedByAnotherController(workload)) {
            return AdmissionReviews.allowed(request);
        }
        String name = Optional.ofNullable(JsonTree.text(JsonTree.object(workload, "metadata"), "name"))
                .orElse(JsonTree.text(JsonTree.object(workload, "metadata"), "generateName") + "*");
        Optional<ForeignDemand> demand;
        JsonArray shareEnv = new JsonArray();
        try {
            demand = kind.get().demand(workload);
            if (demand.isPresent() && !(demand.get().perReplica() instanceof GpuRequest.WholeGpus)) {
                shareEnv = ShareEnvPatch.operations(kind.get(), workload);
            }
        } catch (RequestException e) {
            LOG.info(
                    "{} {}/{} refused at admission: {}",
                    kind.get().kind(),
                    namespace,
                    name,
                    LogValues.escape(e.getMessage()));
            return AdmissionReviews.refused(request, e.getMessage());
        }
        if (demand.isEmpty() || !mutate) {
            return AdmissionReviews.allowed(request);
        }
        LOG.info(
                "{} {}/{} asks for {} x {}: suspended until Quotient places it",
                kind.get().kind(),
                namespace,
                name,
                demand.get().replicas(),
                demand.get().perReplica());
        JsonArray patch = suspendAndLabel(kind.get(), workload);
        patch.addAll(shareEnv);
        return AdmissionReviews.patched(request, patch);
    }

    /**
     * Why an update may not unsuspend an adopted workload, or null: only Quotient unsuspends it, once its job is placed
     * (its record then says Placed or Running), so that a user cannot start it past quotas and packing.
     */
    private String unsuspendRefusal(ForeignWorkloadKind kind, String namespace, JsonObject old, JsonObject workload) {
        boolean adopted = labelled(old) || labelled(workload);
        if (!adopted || old == null || !kind.suspended(old) || kind.suspended(workload)) {
            return null;
        }
        JsonObject metadata = JsonTree.object(workload, "metadata");
        String name = JsonTree.text(metadata, "name");
        Optional<String> team = scope.now().ownerOf(namespace);
        Optional<JobRecord> record = team.flatMap(t -> records.apply(new JobId(t, name)));
        boolean placed = record.isPresent()
                && record.get().phase().holdsCapacity()
                && record.get().submission().adopted()
                && record.get().submission().workload().uid().equals(JsonTree.text(metadata, "uid"));
        if (placed) {
            return null;
        }
        String why = record.map(r -> "job " + name + " of team " + r.id().team() + " is "
                        + r.phase().wireName()
                        + (r.status().reason() == null ? "" : ": " + r.status().reason()))
                .orElse("it has no job record yet");
        LOG.info("{} {}/{}: unsuspending refused, {}", kind.kind(), namespace, name, why);
        return String.join(".", kind.suspendPath()) + ": Quotient unsuspends this " + kind.kind() + " when it places"
                + " it (" + why + "); do not unsuspend it yourself. Delete it to give up the job";
    }

    private static boolean isPod(JsonObject kindOfRequest) {
        String group = AdmissionReviews.text(kindOfRequest, "group");
        return (group == null || group.isEmpty())
                && "v1".equals(AdmissionReviews.text(kindOfRequest, "version"))
                && "Pod".equals(AdmissionReviews.text(kindOfRequest, "kind"));
    }

    private static boolean labelled(JsonObject workload) {
        return "true".equals(JsonTree.text(JsonTree.object(workload, "metadata", "labels"), AdoptionLabels.ADOPTED));
    }

    /** Jobs of a JobSet, an Argo workflow or any controller but a CronJob are governed through their owner, or not. */
    private static boolean ownedByAnotherController(JsonObject workload) {
        return PodAdmission.controller(JsonTree.object(workload, "metadata"))
                .filter(kind -> !"CronJob".equals(kind))
                .isPresent();
    }

    /** RFC 6902 operations setting the suspend switch and the adopted label, creating missing parents. */
    static JsonArray suspendAndLabel(ForeignWorkloadKind kind, JsonObject workload) {
        JsonArray patch = new JsonArray();
        patch.add(addOperation(workload, kind.suspendPath(), new JsonPrimitive(true)));
        patch.add(addOperation(
                workload, List.of("metadata", "labels", AdoptionLabels.ADOPTED), new JsonPrimitive("true")));
        return patch;
    }

    /** An {@code add} of {@code value} at {@code path}, at the first missing parent with the rest nested in it. */
    private static JsonObject addOperation(JsonObject root, List<String> path, JsonElement value) {
        JsonObject current = root;
        int depth = 0;
        while (depth < path.size() - 1
                && current.has(path.get(depth))
                && current.get(path.get(depth)).isJsonObject()) {
            current = current.getAsJsonObject(path.get(depth));
            depth++;
        }
        JsonElement nested = value;
        for (int i = path.size() - 1; i > depth; i--) {
            JsonObject parent = new JsonObject();
            parent.add(path.get(i), nested);
            nested = parent;
        }
        StringBuilder pointer = new StringBuilder();
        for (String step : path.subList(0, depth + 1)) {
            pointer.append('/').append(step.replace("~", "~0").replace("/", "~1"));
        }
        JsonObject operation = new JsonObject();
        operation.addProperty("op", "add");
        operation.addProperty("path", pointer.toString());
        operation.add("value", nested);
        return operation;
    }
}
