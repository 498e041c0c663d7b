package io.quotient.enforcer.core;

/**
 * Kill this process (identified by PID and start time, so a reused PID is not mistaken for it),
 * for this reason, with the figures that justify it.
 */
public record KillDecision(
        ProcessIdentity target,
        String gpuUuid,
        ContainerRef container,
        KillReason reason,
        long processBytes,
        String explanation) {}
