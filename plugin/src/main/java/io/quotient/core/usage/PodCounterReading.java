package io.quotient.core.usage;

import io.quotient.core.model.JobId;
import java.util.Objects;

/** One pod's totals on one GPU as one node's latest report gives them, with the job the pod belongs to. */
public record PodCounterReading(String node, String podUid, String gpuUuid, JobId job, PodCounters counters) {

    public PodCounterReading {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(podUid, "podUid");
        Objects.requireNonNull(gpuUuid, "gpuUuid");
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(counters, "counters");
    }

    /** Names the counter: a pod on a GPU of a node. */
    public String key() {
        return node + "/" + podUid + "/" + gpuUuid;
    }
}
