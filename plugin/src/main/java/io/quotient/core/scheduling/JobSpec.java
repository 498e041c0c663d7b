package io.quotient.core.scheduling;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * A validated job request (built by JobSpecValidator from user input). Immutable.
 *
 * @param priority    order within the team: higher runs first and is preempted last
 * @param preemptible only preemptible jobs may borrow beyond the team's guarantee
 * @param minRuntime  a placed job is not preempted before it has run this long
 */
public record JobSpec(JobId id, GpuRequest gpu, long cpuMilli, long memoryMib, Set<String> allowedModels,
                      int priority, boolean preemptible, Duration minRuntime) {

    public JobSpec {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(gpu, "gpu");
        allowedModels = allowedModels == null ? Set.of() : Set.copyOf(allowedModels);
        minRuntime = minRuntime == null ? Duration.ZERO : minRuntime;
    }

    public String team() {
        return id.team();
    }
}
