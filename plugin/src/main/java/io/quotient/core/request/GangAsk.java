package io.quotient.core.request;

import io.quotient.core.model.Gang;

/**
 * Distributed training as written: replicas placed one per node, each with the GPUs of the request. The validator
 * turns it into a {@link Gang}; this is the unchecked ask, every field may be null.
 *
 * @param replicas    this many replicas ({@code replicas}); null means one
 * @param minReplicas an elastic gang starts with at least this many ({@code minReplicas}); null means all
 */
public record GangAsk(Integer replicas, Integer minReplicas) {

    /** One replica: not a gang. */
    public static final GangAsk SINGLE = new GangAsk(null, null);
}
