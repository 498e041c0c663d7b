package io.quotient.adapters.rest;

import io.quotient.core.request.GangAsk;
import io.quotient.core.request.GpuAsk;
import io.quotient.core.request.JobRequestInput;
import io.quotient.core.request.Placement;
import io.quotient.core.request.RequestException;
import io.quotient.core.request.Resources;
import io.quotient.core.request.RuntimeOptions;
import io.quotient.deploy.port.JobSubmission;
import io.quotient.deploy.port.Metadata;
import io.quotient.deploy.port.PodOptions;
import io.quotient.deploy.port.VolumeRequest;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * The body of {@code POST /api/v1/teams/{team}/jobs}. Everything is checked by the service, which names the
 * offending field in its 400 answer; unknown fields are refused (a typo must not silently drop a limit). The body is
 * the API's flat JSON object; {@link #toSubmission} maps it to the request's groups ({@link JobRequestInput}) in one
 * place (Jackson 2.17 cannot unwrap groups into a record's creator: "combination not yet supported").
 */
@Schema(description = "A GPU job to deploy")
public record JobRequestBody(
        @Schema(description = "job name, unique in the team (DNS label)", example = "train-resnet")
        String name,

        @Schema(
                description = "template: job (default), pytorchjob, trainjob, notebook or a custom one",
                example = "job")
        String template,

        @Schema(description = "container image; the template's when left out", example = "pytorch/pytorch:2.3.0")
        String image,

        List<String> command,
        List<String> args,

        @Schema(description = "GPU request: {count} or {fraction, fractionLimit} or {memoryMib, memoryLimitMib}")
        GpuBody gpu,

        @Schema(description = "the same fraction or MiB on this many GPUs of one node")
        Integer gpuDevices,

        @ArraySchema(
                uniqueItems = true,
                arraySchema = @Schema(description = "allowed GPU models, each once; any when empty"))
        List<String> gpuModels,

        Long cpuMilli,
        Long memoryMib,

        @Schema(description = "priority within the team; higher runs first and is preempted last")
        Integer priority,

        @Schema(description = "may borrow idle GPUs beyond the team's guarantee (and be preempted)")
        Boolean preemptible,

        @Schema(description = "not preempted before it ran this long")
        Long minRuntimeSeconds,

        Map<String, String> labels,
        Map<String, String> env,

        @Schema(description = "extra pod annotations (not under quotient.io/, no gpu-fraction*/gpu-memory*)")
        Map<String, String> annotations,

        @Schema(description = "the pods' service account in the team's namespace; default: default")
        String serviceAccountName,

        @Schema(description = "volumes of the team's namespace mounted into the main container")
        List<VolumeRequest> volumes,

        @Schema(description = "names of docker-registry secrets of the team's namespace")
        List<String> imagePullSecrets,

        @Schema(description = "distributed training: replicas, one per node, each with the GPUs of gpu; default 1")
        Integer replicas,

        @Schema(description = "elastic gang: start with at least this many replicas; default all")
        Integer minReplicas,

        @Schema(
                description = "trainjob templates: the Kubeflow Trainer ClusterTrainingRuntime to run; default the"
                        + " template's",
                example = "torch-distributed")
        String runtime,

        @Schema(
                description = "train (default), notebook or inference: what the team's idle policy watches",
                example = "train")
        String kind) {

    /** The GPU part of a request; exactly one style (count, fraction or memory). */
    public record GpuBody(
            Integer count, BigDecimal fraction, BigDecimal fractionLimit, Long memoryMib, Long memoryLimitMib) {

        static final GpuBody NONE = new GpuBody(null, null, null, null, null);

        /** The request's GPU ask: this, on {@code devices} GPUs of one node. */
        GpuAsk ask(Integer devices) {
            return new GpuAsk(count, fraction, fractionLimit, memoryMib, memoryLimitMib, devices);
        }
    }

    /**
     * The submission as written, for the team of the path.
     *
     * @throws RequestException for a {@code gpu} that asks for nothing ({@code {}}): it would silently be a job
     *                          without GPUs, which leaving {@code gpu} out says
     */
    public JobSubmission toSubmission(String team) {
        if (GpuBody.NONE.equals(gpu)) {
            throw new RequestException(
                    "gpu",
                    "asks for no GPU; give gpu.count, gpu.fraction or gpu.memoryMib, or leave"
                            + " gpu out for a job without GPUs");
        }
        JobRequestInput input = JobRequestInput.of(team, name)
                .with((gpu == null ? GpuBody.NONE : gpu).ask(gpuDevices))
                .with(new Resources(cpuMilli, memoryMib))
                .with(new Placement(gpuModels))
                .with(new RuntimeOptions(priority, preemptible, minRuntimeSeconds, kind))
                .with(new GangAsk(replicas, minReplicas));
        // the namespace is the service's choice (the team's primary one), not the body's
        return JobSubmission.onRuntime(
                input,
                template,
                image,
                command,
                args,
                new Metadata(labels, annotations),
                env,
                new PodOptions(null, serviceAccountName, volumes, imagePullSecrets),
                runtime);
    }
}
