package io.quotient.adapters.template;

import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobSpec;
import io.quotient.core.model.PlacedJob;
import io.quotient.deploy.port.JobSubmission;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Renders a job's workload from its template: loads the template's objects (a deep copy) and sets fields on
 * them — name, namespace and labels; the request's image, command, args and env; CPU and memory requests;
 * whole GPUs as {@code nvidia.com/gpu}, fractions as request annotations plus the env binding them to the
 * reserved GPU; the service account, volumes and image pull secrets of the team's namespace; and a required
 * node affinity to the planned node on every pod template. User values are
 * only ever set as data, never pasted into YAML text.
 */
public final class TemplateRenderer {

    public static final String HASH_ANNOTATION = "quotient.io/spec-hash";
    public static final String TEAM_LABEL = "quotient.io/team";
    public static final String JOB_LABEL = "quotient.io/job";
    public static final String QUOTA_STATE_LABEL = "quotient.io/quota-state";
    public static final String MANAGED_BY_LABEL = "app.kubernetes.io/managed-by";
    public static final String MANAGED_BY = "quotient";

    private final TemplateCatalog catalog;

    public TemplateRenderer(TemplateCatalog catalog) {
        this.catalog = catalog;
    }

    public TemplateCatalog catalog() {
        return catalog;
    }

    /**
     * Renders the job's template for its placement.
     *
     * @throws IllegalArgumentException when the template is unknown, or a fractional job's GPU UUIDs or the
     *                                  node's GPU memory are not known (render again once they are)
     */
    public RenderedWorkload render(RenderRequest request) {
        JobSubmission submission = request.record().submission();
        JobTemplate template = catalog.find(submission.template())
                .orElseThrow(() -> new IllegalArgumentException(
                        "unknown template '" + submission.template() + "'; known templates: " + catalog.names()));
        Map<String, Object> document = template.copyDocument();
        PlacedJob placement = request.placement();
        JobSpec spec = request.record().spec();
        Map<String, String> labels = labels(submission, placement);

        if (submission.runtime() != null) {
            template.kind().useRuntime(document, submission.runtime());
        }
        Map<String, Object> metadata = Trees.childMap(document, "metadata");
        metadata.keySet().removeAll(List.of("generateName", "resourceVersion", "uid", "creationTimestamp"));
        metadata.put("name", request.objectName());
        metadata.put("namespace", request.namespace());
        ContainerEdits.putAll(metadata, "labels", labels);

        GpuSettings gpu = GpuSettings.of(spec.gpu(), request.gpus(), request.gpuMemoryMib(), placement.node());
        List<ReplicaShare> shares = ReplicaShare.plan(
                template.kind(),
                document,
                spec,
                gpu.wholeGpus(),
                placement.replicas().size());
        List<String> nodes =
                placement.replicas().stream().map(PlacedJob.Replica::node).toList();
        for (ReplicaShare share : shares) {
            PodTemplate pod = share.pod();
            ContainerEdits.putAll(pod.metadata(), "labels", labels);
            // the user's annotations first: the GPU request annotations are Quotient's and win
            ContainerEdits.putAll(
                    pod.metadata(), "annotations", submission.metadata().annotations());
            ContainerEdits.putAll(pod.metadata(), "annotations", gpu.annotations());
            Map<String, Object> podSpec = pod.spec();
            setMainContainer(pod.mainContainer(), submission, share);
            PodAccess.apply(podSpec, pod.mainContainer(), submission.pod());
            setGpuContainer(pod, podSpec, share, gpu);
        }
        template.kind()
                .place(
                        document,
                        shares.stream().map(ReplicaShare::pod).toList(),
                        nodes,
                        spec.gang().spansNodes(),
                        Map.of(TEAM_LABEL, labels.get(TEAM_LABEL), JOB_LABEL, labels.get(JOB_LABEL)));

        String hash = ObjectHash.of(document);
        ContainerEdits.putAll(metadata, "annotations", Map.of(HASH_ANNOTATION, hash));
        return new RenderedWorkload(template.kind(), request.namespace(), request.objectName(), document, hash);
    }

    private static Map<String, String> labels(JobSubmission submission, PlacedJob placement) {
        Map<String, String> labels = new LinkedHashMap<>(submission.metadata().labels());
        // Quotient's own labels win: observers and quotas rely on them.
        labels.put(TEAM_LABEL, placement.id().team());
        labels.put(JOB_LABEL, placement.id().name());
        labels.put(QUOTA_STATE_LABEL, placement.quotaState().wireName());
        labels.put(MANAGED_BY_LABEL, MANAGED_BY);
        return labels;
    }

    private static void setMainContainer(Map<String, Object> container, JobSubmission submission, ReplicaShare share) {
        if (submission.image() != null && !submission.image().isBlank()) {
            container.put("image", submission.image());
        }
        ContainerEdits.setStrings(container, "command", submission.command());
        ContainerEdits.setStrings(container, "args", submission.args());
        ContainerEdits.setEnv(container, new TreeMap<>(submission.env()));
        if (share.cpuMilli() > 0) {
            ContainerEdits.setRequest(container, "cpu", share.cpuMilli() + "m");
        }
        if (share.memoryMib() > 0) {
            ContainerEdits.setRequest(container, "memory", share.memoryMib() + "Mi");
        }
    }

    private static void setGpuContainer(
            PodTemplate pod, Map<String, Object> podSpec, ReplicaShare share, GpuSettings gpu) {
        ContainerEdits.removeGpuResources(podSpec);
        Map<String, Object> container = pod.gpuContainer();
        if (share.wholeGpus() > 0) {
            ContainerEdits.setRequestAndLimit(
                    container, ContainerEdits.GPU_RESOURCE, Integer.toString(share.wholeGpus()));
        }
        if (share.getsFraction()) {
            ContainerEdits.setEnv(container, gpu.env());
        }
    }

    /** Whether the request is for a share of GPUs rather than whole ones (used by {@link ReplicaShare}). */
    static boolean fractional(GpuRequest gpu) {
        return gpu instanceof GpuRequest.Fraction || gpu instanceof GpuRequest.Memory;
    }
}
