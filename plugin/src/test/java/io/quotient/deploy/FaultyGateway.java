package io.quotient.deploy;

import io.quotient.core.scheduling.JobId;
import io.quotient.core.scheduling.PlacedJob;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.GpuSlot;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.WorkloadGateway;

import java.time.Duration;
import java.util.List;
import java.util.Set;

/** A gateway that dies (as the process would) at a chosen point of the next deploy or stop, once. */
final class FaultyGateway implements WorkloadGateway {

    enum Fault { NONE, BEFORE_DEPLOY, AFTER_DEPLOY, BEFORE_STOP }

    private final WorkloadGateway real;
    Fault next = Fault.NONE;
    /** Runs after each stop, e.g. to take the leadership away in the middle of a plan. */
    Runnable afterStop = () -> {
    };

    FaultyGateway(WorkloadGateway real) {
        this.real = real;
    }

    @Override
    public Set<String> templateNames() {
        return real.templateNames();
    }

    @Override
    public void deploy(JobRecord record, PlacedJob placement, List<GpuBinding> gpus) {
        fail(Fault.BEFORE_DEPLOY);
        real.deploy(record, placement, gpus);
        fail(Fault.AFTER_DEPLOY);
    }

    @Override
    public void stop(JobId job, Duration grace) {
        fail(Fault.BEFORE_STOP);
        real.stop(job, grace);
        afterStop.run();
    }

    @Override
    public String ensureReservation(GpuSlot gpu) {
        return real.ensureReservation(gpu);
    }

    @Override
    public void releaseReservation(GpuSlot gpu) {
        real.releaseReservation(gpu);
    }

    @Override
    public void recordEvent(JobId job, String reason, String message) {
        real.recordEvent(job, reason, message);
    }

    private void fail(Fault at) {
        if (next == at) {
            next = Fault.NONE;
            throw new IllegalStateException("simulated crash " + at);
        }
    }
}
