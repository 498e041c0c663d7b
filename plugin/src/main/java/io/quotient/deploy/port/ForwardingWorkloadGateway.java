package io.quotient.deploy.port;

import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A gateway that forwards every call to another one; subclasses override only the calls they watch (the crash
 * points of the crash-safety tests, fault injection), so a new gateway method is forwarded everywhere at once.
 */
public abstract class ForwardingWorkloadGateway implements WorkloadGateway {

    private final WorkloadGateway delegate;

    protected ForwardingWorkloadGateway(WorkloadGateway delegate) {
        this.delegate = delegate;
    }

    @Override
    public Map<String, TemplateTraits> templates() {
        return delegate.templates();
    }

    @Override
    public void deploy(JobRecord record, PlacedJob placement, List<GpuBinding> gpus) {
        delegate.deploy(record, placement, gpus);
    }

    @Override
    public void stop(JobId job, Duration grace) {
        delegate.stop(job, grace);
    }

    @Override
    public void removeSurplusPods(JobId job, Duration grace) {
        delegate.removeSurplusPods(job, grace);
    }

    @Override
    public String ensureReservation(GpuSlot gpu) {
        return delegate.ensureReservation(gpu);
    }

    @Override
    public void releaseReservation(GpuSlot gpu) {
        delegate.releaseReservation(gpu);
    }

    @Override
    public void recordEvent(JobId job, String reason, String message) {
        delegate.recordEvent(job, reason, message);
    }
}
