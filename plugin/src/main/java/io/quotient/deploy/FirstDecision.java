package io.quotient.deploy;

import io.quotient.core.model.PlacedJob;

/**
 * What the first decision on a job not yet recorded says its record should be created with: placed (the placement
 * is assumed until written), pending for a reason, or undecided, because the plan first evicts other jobs and
 * those evictions must be applied to written records, after the new one exists.
 */
public sealed interface FirstDecision {

    FirstDecision UNDECIDED = new Undecided();

    /** Record it placed here. */
    record Place(PlacedJob placement) implements FirstDecision {}

    /** Record it pending, for this reason. */
    record Wait(String reason) implements FirstDecision {}

    /** Record it undecided, then decide with the lock held for the whole plan. */
    record Undecided() implements FirstDecision {}
}
