package io.quotient.enforcer.core;

import java.util.Optional;

/** Port: who a PID is right now (start time, pod, container); empty when no such process exists. */
public interface ProcessInspector {
    Optional<ProcessIdentity> identify(int pid);
}
