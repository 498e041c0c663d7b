package io.quotient.core.request;

import io.quotient.core.model.JobSpec;

/**
 * A job request exactly as a user wrote it (REST body, GpuJob spec, template parameters, VDK hook), before
 * validation: who asks ({@code team}, {@code name}) and what, in groups (GPUs, host resources, where it may run,
 * runtime options, the gang). Every edge maps its own wire form to this one shape; {@link JobSpecValidator} turns it into a
 * {@link JobSpec} or a {@link RequestException} naming the offending field as the REST API spells it. Fields inside
 * the groups may be null (not written); the groups themselves never are (an absent group is its empty value).
 *
 * @param team      the team the job runs for ({@code team})
 * @param name      the job's name in the team ({@code name})
 * @param gpu       the GPUs asked for
 * @param resources CPU and memory besides the GPUs
 * @param placement the GPU models it may run on
 * @param runtime   priority, preemptibility and minimum runtime
 * @param gang      replicas, one per node, for distributed training
 */
public record JobRequestInput(
        String team,
        String name,
        GpuAsk gpu,
        Resources resources,
        Placement placement,
        RuntimeOptions runtime,
        GangAsk gang) {

    public JobRequestInput {
        gpu = gpu == null ? GpuAsk.NONE : gpu;
        resources = resources == null ? Resources.NONE : resources;
        placement = placement == null ? Placement.ANYWHERE : placement;
        runtime = runtime == null ? RuntimeOptions.DEFAULTS : runtime;
        gang = gang == null ? GangAsk.SINGLE : gang;
    }

    /** A request of {@code team} for job {@code name} that asks for nothing yet; the {@code with} methods add. */
    public static JobRequestInput of(String team, String name) {
        return new JobRequestInput(team, name, null, null, null, null, null);
    }

    public JobRequestInput with(GpuAsk value) {
        return new JobRequestInput(team, name, value, resources, placement, runtime, gang);
    }

    public JobRequestInput with(Resources value) {
        return new JobRequestInput(team, name, gpu, value, placement, runtime, gang);
    }

    public JobRequestInput with(Placement value) {
        return new JobRequestInput(team, name, gpu, resources, value, runtime, gang);
    }

    public JobRequestInput with(RuntimeOptions value) {
        return new JobRequestInput(team, name, gpu, resources, placement, value, gang);
    }

    public JobRequestInput with(GangAsk value) {
        return new JobRequestInput(team, name, gpu, resources, placement, runtime, value);
    }

    /** The same request with the preemptible flag set (a template's default when the user left it open). */
    public JobRequestInput withPreemptible(Boolean value) {
        return with(runtime.withPreemptible(value));
    }

    /** The same request of another kind (a Notebook's pod is adopted as a notebook). */
    public JobRequestInput withKind(String value) {
        return with(runtime.withKind(value));
    }
}
