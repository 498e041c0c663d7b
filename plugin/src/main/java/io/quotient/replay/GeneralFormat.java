package io.quotient.replay;

import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobKind;
import io.quotient.sim.TraceReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The replay's own job format (docs/replay.md), columns by name, only {@code submit}, {@code duration} and
 * {@code team} required:
 * {@code name,submit,duration,team,gpus,gpu_fraction,gpu_limit_fraction,gpu_mib,gpu_limit_mib,cpu,memory_mib,model,
 * replicas,kind,priority,preemptible,checkpoint_minutes,min_runtime_minutes,idle_profile}. The GPU request is per replica: whole
 * GPUs ({@code gpus}), or a fraction or MiB of each of {@code gpus} GPUs (default 1) with an optional higher limit.
 * The kind is the service's ({@link JobKind}); training checkpoints and resumes, so it alone is preemptible unless
 * the trace says otherwise (an interactive notebook or a serving job is not, as the service's notebook template says).
 */
final class GeneralFormat {

    static final List<String> REQUIRED = List.of("submit", "duration", "team");

    private GeneralFormat() {}

    static List<ReplayJob> read(CsvTable table) {
        table.require(REQUIRED, "the replay's job format");
        List<ReplayJob> jobs = new ArrayList<>();
        Map<String, Integer> lineOfName = new HashMap<>();
        table.forEachRow(row -> {
            ReplayJob job = job(row);
            Integer earlier = lineOfName.putIfAbsent(job.name(), row.line());
            if (earlier != null) {
                // found here, with both lines, rather than when the replay reaches the second submission
                throw row.error(
                        "name",
                        "job name " + job.name() + " is already the name of the job on line " + earlier
                                + "; give each job its own name (an empty name is job-LINE, the line less one)");
            }
            jobs.add(job);
        });
        return jobs;
    }

    private static ReplayJob job(CsvTable.Row row) {
        String name = row.text("name").isEmpty() ? "job-" + (row.line() - 1) : row.text("name");
        long submit = PhillyFormat.timestamp(row, "submit");
        long durationMs = Math.round(row.number("duration", 0, 0, 1e10) * 1000);
        JobKind kind;
        try {
            kind = row.text("kind").isEmpty() ? JobKind.TRAIN : JobKind.fromWireName(row.text("kind"));
        } catch (IllegalArgumentException e) {
            throw row.error("kind", "kind " + e.getMessage());
        }
        IdleProfile profile;
        try {
            profile = IdleProfile.parse(row.text("idle_profile"));
        } catch (IllegalArgumentException e) {
            throw row.error("idle_profile", "idle_profile: " + e.getMessage());
        }
        boolean preemptible = switch (row.text("preemptible").toLowerCase(Locale.ROOT)) {
            case "" -> kind == JobKind.TRAIN;
            case "true", "yes", "1" -> true;
            case "false", "no", "0" -> false;
            default ->
                throw row.error(
                        "preemptible", "preemptible must be true or false, was '" + row.text("preemptible") + "'");
        };
        long checkpointMs = Math.round(
                row.number("checkpoint_minutes", ReplayJob.DEFAULT_CHECKPOINT_MS / 60_000.0, 0, 1e7) * 60_000);
        Duration minRuntime = Duration.ofMillis(Math.round(row.number("min_runtime_minutes", 0, 0, 1e7) * 60_000));
        return new ReplayJob(
                name,
                row.required("team"),
                submit,
                durationMs,
                gpu(row),
                Math.round(row.number("cpu", 0, 0, 1e6) * 1000),
                row.whole("memory_mib", 0, 0, 1_000_000_000_000L),
                TraceReader.models(row.text("model")),
                (int) row.whole("replicas", 1, 1, 10_000),
                kind,
                (int) row.whole("priority", 0, -1_000_000, 1_000_000),
                preemptible,
                checkpointMs,
                minRuntime,
                profile);
    }

    private static GpuRequest gpu(CsvTable.Row row) {
        boolean fraction = !row.text("gpu_fraction").isEmpty();
        boolean mib = !row.text("gpu_mib").isEmpty();
        if (fraction && mib) {
            throw row.error("gpu_mib", "give gpu_fraction or gpu_mib, not both");
        }
        if (fraction) {
            int milli = (int) Math.round(row.number("gpu_fraction", 1, 0.001, 1) * 1000);
            int limit = (int) Math.round(row.number("gpu_limit_fraction", milli / 1000.0, milli / 1000.0, 1) * 1000);
            return new GpuRequest.Fraction(milli, limit, (int) row.whole("gpus", 1, 1, 64));
        }
        if (mib) {
            long request = row.whole("gpu_mib", 1, 1, 10_000_000);
            long limit = row.whole("gpu_limit_mib", request, request, 10_000_000);
            return new GpuRequest.Memory(request, limit, (int) row.whole("gpus", 1, 1, 64));
        }
        int gpus = (int) row.whole("gpus", 0, 0, 1024);
        return gpus == 0 ? new GpuRequest.None() : GpuRequest.WholeGpus.of(gpus);
    }
}
