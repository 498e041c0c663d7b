package io.quotient.adapters.hook;

import io.quotient.core.request.GpuAsk;
import io.quotient.core.request.JobRequestInput;
import io.quotient.core.request.Resources;
import io.quotient.core.request.RuntimeOptions;
import io.quotient.deploy.port.JobSubmission;
import io.quotient.deploy.port.Metadata;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the request a {@link DeployHook} takes, field by field, with the REST body's names and defaults: what a
 * control service writes instead of the JSON of {@code POST /api/v1/teams/{team}/jobs}. Nothing is checked here;
 * {@link DeployHook#beforeDeploy} validates exactly as the REST API does and names the field at fault.
 *
 * <pre>{@code
 * JobSubmission job = HookRequest.job("team-a", "nightly-ingest").wholeGpus(2)
 *         .image("registry.example/ingest:1.4").command("python", "ingest.py").preemptible(true)
 *         .label("vdk.io/data-job", "nightly-ingest").build();
 * }</pre>
 */
public final class HookRequest {

    private final String team;
    private final String name;
    private String template;
    private String image;
    private List<String> command = List.of();
    private final Map<String, String> labels = new LinkedHashMap<>();
    private final Map<String, String> env = new LinkedHashMap<>();
    private GpuAsk gpu = GpuAsk.NONE;
    private Resources resources = Resources.NONE;
    private RuntimeOptions runtime = RuntimeOptions.DEFAULTS;

    private HookRequest(String team, String name) {
        this.team = team;
        this.name = name;
    }

    /** A job of {@code team} named {@code name}, rendered from the default template ({@code job}). */
    public static HookRequest job(String team, String name) {
        return new HookRequest(team, name);
    }

    public HookRequest template(String template) {
        this.template = template;
        return this;
    }

    public HookRequest image(String image) {
        this.image = image;
        return this;
    }

    public HookRequest command(String... command) {
        this.command = List.of(command);
        return this;
    }

    /** {@code gpu.count}: whole GPUs. */
    public HookRequest wholeGpus(int count) {
        this.gpu = gpu.withCount(count);
        return this;
    }

    /** {@code gpu.fraction} and {@code gpu.fractionLimit}: a guaranteed share of a GPU and its burst limit. */
    public HookRequest fraction(double request, double limit) {
        this.gpu = gpu.withFraction(GpuAsk.decimal(request), GpuAsk.decimal(limit));
        return this;
    }

    /** {@code gpu.memoryMib} and {@code gpu.memoryLimitMib}: guaranteed MiB of a GPU and the burst limit. */
    public HookRequest gpuMemoryMib(long request, long limit) {
        this.gpu = gpu.withMemory(request, limit);
        return this;
    }

    /** {@code gpuDevices}: the same fraction or MiB on this many GPUs of one node. */
    public HookRequest gpuDevices(int devices) {
        this.gpu = gpu.onDevices(devices);
        return this;
    }

    /** {@code cpuMilli} and {@code memoryMib}: the container's CPU and memory requests. */
    public HookRequest cpuAndMemory(long cpuMilli, long memoryMib) {
        this.resources = new Resources(cpuMilli, memoryMib);
        return this;
    }

    public HookRequest priority(int priority) {
        this.runtime = new RuntimeOptions(priority, runtime.preemptible(), runtime.minRuntimeSeconds());
        return this;
    }

    /** May borrow idle GPUs beyond the team's guarantee, and be preempted when the owner needs them back. */
    public HookRequest preemptible(boolean preemptible) {
        this.runtime = runtime.withPreemptible(preemptible);
        return this;
    }

    public HookRequest minRuntimeSeconds(long seconds) {
        this.runtime = new RuntimeOptions(runtime.priority(), runtime.preemptible(), seconds);
        return this;
    }

    public HookRequest label(String key, String value) {
        labels.put(key, value);
        return this;
    }

    public HookRequest env(String name, String value) {
        env.put(name, value);
        return this;
    }

    public JobSubmission build() {
        JobRequestInput request =
                JobRequestInput.of(team, name).with(gpu).with(resources).with(runtime);
        return new JobSubmission(
                request, template, image, new ArrayList<>(command), List.of(), Metadata.labels(labels), env);
    }
}
