package io.quotient.deploy;

import io.quotient.core.model.GpuRequest;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobSpec;
import io.quotient.core.request.GpuAsk;
import io.quotient.core.request.JobRequestInput;
import io.quotient.core.request.RuntimeOptions;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.JobStatus;
import io.quotient.deploy.port.JobSubmission;
import io.quotient.deploy.port.Metadata;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Requests and records for tests of the application layer and its adapters. */
public final class JobFixtures {

    private JobFixtures() {}

    /** A preemptible request for whole GPUs. */
    public static JobSubmission wholeGpus(String team, String name, int gpus) {
        return submission(
                JobRequestInput.of(team, name).with(GpuAsk.whole(gpus)).with(new RuntimeOptions(null, true, null)));
    }

    /** A request that must stay within the team's guarantee (not preemptible). */
    public static JobSubmission inQuotaOnly(String team, String name, int gpus) {
        return submission(
                JobRequestInput.of(team, name).with(GpuAsk.whole(gpus)).with(new RuntimeOptions(null, false, null)));
    }

    /** A preemptible request for a fraction of one GPU. */
    public static JobSubmission fraction(String team, String name, double fraction) {
        return submission(JobRequestInput.of(team, name)
                .with(GpuAsk.fraction(fraction, null))
                .with(new RuntimeOptions(null, true, null)));
    }

    public static JobSubmission submission(JobRequestInput input) {
        return new JobSubmission(
                input, "job", "busybox:1.36", List.of("sleep", "3600"), List.of(), Metadata.NONE, Map.of());
    }

    /** A pending record of a whole-GPU job, built without the validator. */
    public static JobRecord pendingRecord(String team, String name, int gpus, Instant createdAt) {
        JobSubmission submission = wholeGpus(team, name, gpus);
        JobSpec spec = new JobSpec(
                new JobId(team, name), new GpuRequest.WholeGpus(gpus), 0, 0, Set.of(), 0, true, Duration.ZERO);
        return new JobRecord(submission, spec, JobStatus.pending("waiting"), createdAt, null);
    }
}
