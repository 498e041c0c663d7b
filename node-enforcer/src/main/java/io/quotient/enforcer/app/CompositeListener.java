package io.quotient.enforcer.app;

import io.quotient.enforcer.core.CycleReport;
import io.quotient.enforcer.core.EnforcementListener;
import io.quotient.enforcer.core.KillDecision;
import io.quotient.enforcer.core.ProcessSignaller;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Passes each report to every listener; one failing listener does not stop the others or the cycle. */
final class CompositeListener implements EnforcementListener {

    private static final Logger LOG = LoggerFactory.getLogger(CompositeListener.class);

    private final List<EnforcementListener> listeners;

    CompositeListener(List<EnforcementListener> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    @Override
    public void onKill(KillDecision decision, ProcessSignaller.Result result, boolean forced) {
        for (EnforcementListener listener : listeners) {
            try {
                listener.onKill(decision, result, forced);
            } catch (RuntimeException e) {
                LOG.warn("{} failed to report a kill: {}", listener.getClass().getSimpleName(), e.toString());
            }
        }
    }

    @Override
    public void onCycle(CycleReport report) {
        for (EnforcementListener listener : listeners) {
            try {
                listener.onCycle(report);
            } catch (RuntimeException e) {
                LOG.warn("{} failed to report a cycle: {}", listener.getClass().getSimpleName(), e.toString());
            }
        }
    }
}
