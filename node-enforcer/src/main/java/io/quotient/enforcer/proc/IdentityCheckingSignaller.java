package io.quotient.enforcer.proc;

import io.quotient.enforcer.core.ProcessIdentity;
import io.quotient.enforcer.core.ProcessInspector;
import io.quotient.enforcer.core.ProcessSignaller;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends SIGTERM / SIGKILL through {@link ProcessHandle}, after checking that the PID still is the
 * process the decision was about (same start time, same pod and container).
 *
 * <p>The handle is taken before the check: the JDK records the process's start time in it and
 * refuses to signal a different process that took the PID after that, which closes the window
 * between our check and the signal.
 */
public final class IdentityCheckingSignaller implements ProcessSignaller {

    private static final Logger LOG = LoggerFactory.getLogger(IdentityCheckingSignaller.class);

    private final ProcessInspector inspector;

    public IdentityCheckingSignaller(ProcessInspector inspector) {
        this.inspector = inspector;
    }

    @Override
    public Result terminate(ProcessIdentity expected) {
        return send(expected, false);
    }

    @Override
    public Result kill(ProcessIdentity expected) {
        return send(expected, true);
    }

    private Result send(ProcessIdentity expected, boolean force) {
        Optional<ProcessHandle> handle = ProcessHandle.of(expected.pid());
        if (handle.isEmpty() || !handle.get().isAlive()) {
            return Result.GONE;
        }
        Optional<ProcessIdentity> now = inspector.identify(expected.pid());
        if (now.isEmpty()) {
            return Result.GONE;
        }
        if (!now.get().equals(expected)) {
            LOG.warn(
                    "Not signalling pid {}: it is now {} but the decision was about {} (PID reused or moved)",
                    expected.pid(),
                    now.get(),
                    expected);
            return Result.IDENTITY_CHANGED;
        }
        try {
            boolean sent = force ? handle.get().destroyForcibly() : handle.get().destroy();
            return sent ? Result.SIGNALLED : Result.FAILED;
        } catch (IllegalStateException | UnsupportedOperationException e) {
            LOG.warn("Cannot signal pid {}: {}", expected.pid(), e.getMessage());
            return Result.FAILED;
        }
    }
}
