package io.quotient.enforcer.core;

import java.util.Objects;

/**
 * A container's GPU memory request (guaranteed) and limit (may burst to), per GPU, and which
 * convention they were read from (for messages).
 */
public record MemoryBudget(MemoryAmount request, MemoryAmount limit, String source) {

    public MemoryBudget {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(limit, "limit");
        Objects.requireNonNull(source, "source");
    }

    /** The budget in bytes on a GPU of {@code totalBytes}; a limit below the request is an error. */
    public ResolvedBudget resolve(long totalBytes) {
        long requestBytes = Math.min(request.toBytes(totalBytes), totalBytes);
        long limitBytes = Math.min(limit.toBytes(totalBytes), totalBytes);
        if (limitBytes < requestBytes) {
            throw new InvalidBudgetException("the GPU memory limit (" + limit + ") is below the request (" + request
                    + ") in " + source + "; set the limit at or above the request");
        }
        return new ResolvedBudget(requestBytes, limitBytes);
    }
}
