package io.quotient.core.scheduling;

import io.quotient.core.cluster.ResourceDemand;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Room-making searches of one planning round that found nothing. Until capacity is freed (something evicted or
 * moved) a round only takes capacity, so a search under the same rights for a demand at least as large fails again:
 * a re-queue of thousands of jobs on a full cluster then searches once per kind of job, not once per job.
 */
final class FailedSearches {

    private final Map<String, List<ResourceDemand>> failed = new HashMap<>();

    /** The key of a search's rights: what names the rule and the claimant's traits the rights depend on. */
    static String key(Object... parts) {
        StringBuilder key = new StringBuilder();
        for (Object part : parts) {
            key.append(key.isEmpty() ? "" : "|").append(part);
        }
        return key.toString();
    }

    /**
     * Runs the search unless one under these rights already failed for a demand no larger; remembers its failure, and
     * forgets every failure when it finds room (the round's state then changes).
     */
    <T> Optional<T> unlessFailed(String rights, ResourceDemand demand, Supplier<Optional<T>> search) {
        if (covers(rights, demand)) {
            return Optional.empty();
        }
        Optional<T> found = search.get();
        if (found.isEmpty()) {
            add(rights, demand);
        } else {
            clear();
        }
        return found;
    }

    /** Whether a search under these rights already failed for a demand no larger than this one. */
    boolean covers(String rights, ResourceDemand demand) {
        List<ResourceDemand> known = failed.get(rights);
        return known != null && known.stream().anyMatch(d -> noLarger(d, demand));
    }

    void add(String rights, ResourceDemand demand) {
        failed.computeIfAbsent(rights, r -> new ArrayList<>()).add(demand);
    }

    /** Capacity was freed: earlier failures say nothing any more. */
    void clear() {
        failed.clear();
    }

    private static boolean noLarger(ResourceDemand d, ResourceDemand than) {
        return d.gpuCount() <= than.gpuCount()
                && d.gpuMilli() <= than.gpuMilli()
                && (d.gpuMemoryMib() == 0) == (than.gpuMemoryMib() == 0)
                && d.gpuMemoryMib() <= than.gpuMemoryMib()
                && d.cpuMilli() <= than.cpuMilli()
                && d.memoryMib() <= than.memoryMib()
                && d.allowedModels().equals(than.allowedModels());
    }
}
