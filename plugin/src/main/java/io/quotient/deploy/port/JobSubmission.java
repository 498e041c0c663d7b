package io.quotient.deploy.port;

import io.quotient.core.model.JobId;
import io.quotient.core.request.JobRequestInput;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A deployment exactly as the user submitted it (REST body, VDK hook): the resource request that the core
 * validates and schedules, and what the template needs to build the workload. This is the custom
 * resource's {@code spec}; it never changes after creation.
 *
 * @param request  the resource request as written (team, name, GPU request, priority, ...), not yet validated
 * @param template template name ({@code job}, {@code pytorchjob}, {@code notebook}, or a custom one)
 * @param image    container image; may be null when the template has a default
 * @param command  container command; empty means the image's entrypoint
 * @param args     container arguments
 * @param metadata the user's labels and annotations for the workload's pods
 * @param env      extra environment variables for the GPU container
 * @param pod      namespace, service account, volumes and image pull secrets of the pods
 * @param runtime  the Kubeflow Trainer runtime (ClusterTrainingRuntime) a TrainJob template's job references instead
 *                 of the template's; null: the template's
 * @param workload the existing workload this job governs (adopted), or null when the template renders one
 */
public record JobSubmission(
        JobRequestInput request,
        String template,
        String image,
        List<String> command,
        List<String> args,
        Metadata metadata,
        Map<String, String> env,
        PodOptions pod,
        String runtime,
        WorkloadRef workload) {

    /** The template used when the user names none. */
    public static final String DEFAULT_TEMPLATE = "job";

    public JobSubmission {
        Objects.requireNonNull(request, "request");
        // "" is kept (and refused by the submission checks): only a template left out means the default
        template = template == null ? DEFAULT_TEMPLATE : template;
        command = Copies.list(command);
        args = Copies.list(args);
        metadata = metadata == null ? Metadata.NONE : metadata;
        env = Copies.map(env);
        pod = pod == null ? PodOptions.NONE : pod;
    }

    /** A submission whose template renders its workload and takes the template's runtime. */
    public JobSubmission(
            JobRequestInput request,
            String template,
            String image,
            List<String> command,
            List<String> args,
            Metadata metadata,
            Map<String, String> env,
            PodOptions pod) {
        this(request, template, image, command, args, metadata, env, pod, null, null);
    }

    /** A submission whose template renders its workload on the named runtime (a TrainJob template's). */
    public static JobSubmission onRuntime(
            JobRequestInput request,
            String template,
            String image,
            List<String> command,
            List<String> args,
            Metadata metadata,
            Map<String, String> env,
            PodOptions pod,
            String runtime) {
        return new JobSubmission(request, template, image, command, args, metadata, env, pod, runtime, null);
    }

    /** A job that governs an existing workload (adopted) in {@code namespace} instead of rendering one. */
    public static JobSubmission governing(JobRequestInput request, String namespace, WorkloadRef workload) {
        Objects.requireNonNull(workload, "workload");
        return new JobSubmission(
                request, null, null, null, null, null, null, PodOptions.NONE.withNamespace(namespace), null, workload);
    }

    /** Whether this job governs an existing workload rather than rendering its own. */
    public boolean adopted() {
        return workload != null;
    }

    /** A submission without pod options (the namespace's default service account, no volumes). */
    public JobSubmission(
            JobRequestInput request,
            String template,
            String image,
            List<String> command,
            List<String> args,
            Metadata metadata,
            Map<String, String> env) {
        this(request, template, image, command, args, metadata, env, PodOptions.NONE);
    }

    /** The same submission with another request (defaults filled in before the record is stored). */
    public JobSubmission withRequest(JobRequestInput filled) {
        return new JobSubmission(filled, template, image, command, args, metadata, env, pod, runtime, workload);
    }

    /** The same submission placed in a namespace (chosen by the service before the record is stored). */
    public JobSubmission inNamespace(String namespace) {
        return new JobSubmission(
                request,
                template,
                image,
                command,
                args,
                metadata,
                env,
                pod.withNamespace(namespace),
                runtime,
                workload);
    }

    public JobId id() {
        return new JobId(request.team(), request.name());
    }
}
