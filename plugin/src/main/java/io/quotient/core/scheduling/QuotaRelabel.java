package io.quotient.core.scheduling;

import io.quotient.core.model.JobId;
import io.quotient.core.model.QuotaState;

/** A placed job whose stored quota state differs from the one recomputed now ({@link QuotaStates}): store this. */
public record QuotaRelabel(JobId job, QuotaState state) {}
