package io.quotient.enforcer.core;

/** Port: what the enforcement cycle reports (events, metrics, logs, the node report). */
public interface EnforcementListener {

    /** A kill was decided; {@code forced} is the SIGKILL after the grace period. */
    void onKill(KillDecision decision, ProcessSignaller.Result result, boolean forced);

    /** A cycle finished (also when the GPUs could not be read). */
    void onCycle(CycleReport report);
}
