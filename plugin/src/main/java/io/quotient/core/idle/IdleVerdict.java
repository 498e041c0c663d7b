package io.quotient.core.idle;

import io.quotient.core.model.IdleAction;
import io.quotient.core.model.JobId;
import io.quotient.core.model.JobKind;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The idle decision on one watched job.
 *
 * @param idleSince   when its idle stretch began; null when it is busy
 * @param utilisation the last utilisation measured (0..1); 0 when none was
 * @param waiter      the waiting job the job's GPUs would place (released for it, or the one to tell); empty if none
 * @param explanation the decision in a plain sentence with the numbers, for the job's Event and condition
 * @param waiterNote  what the waiter's reason says about this job ("would be placed when ..."); empty without waiter
 * @param action      what releasing does to a job Quotient deploys (a Notebook is stopped the Kubeflow way)
 * @param requeuedAt  for a released job that releasing puts back in the queue (preempted), the instant its place in
 *                    the queue counts from: the release, not its submission (see {@link IdleDecider}); empty for
 *                    every other verdict
 */
public record IdleVerdict(
        JobId job,
        JobKind kind,
        IdleState state,
        Instant idleSince,
        double utilisation,
        Optional<JobId> waiter,
        String explanation,
        String waiterNote,
        IdleAction action,
        Optional<Instant> requeuedAt) {

    public IdleVerdict {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(waiter, "waiter");
        Objects.requireNonNull(explanation, "explanation");
        Objects.requireNonNull(waiterNote, "waiterNote");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(requeuedAt, "requeuedAt");
    }

    /** The same verdict on a job that re-enters the queue as of {@code instant}. */
    public IdleVerdict withRequeuedAt(Instant instant) {
        return new IdleVerdict(
                job,
                kind,
                state,
                idleSince,
                utilisation,
                waiter,
                explanation,
                waiterNote,
                action,
                Optional.of(instant));
    }
}
