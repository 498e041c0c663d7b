package io.quotient.deploy;

import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;
import io.quotient.deploy.port.ForwardingWorkloadGateway;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.WorkloadGateway;
import java.time.Duration;
import java.util.List;

/** A gateway that dies (as the process would) at a chosen point of the next deploy or stop, once. */
final class FaultyGateway extends ForwardingWorkloadGateway {

    enum Fault {
        NONE,
        BEFORE_DEPLOY,
        AFTER_DEPLOY,
        BEFORE_STOP
    }

    Fault next = Fault.NONE;
    /** Runs after each stop, e.g. to take the leadership away in the middle of a plan. */
    Runnable afterStop = () -> {};

    FaultyGateway(WorkloadGateway real) {
        super(real);
    }

    @Override
    public void deploy(JobRecord record, PlacedJob placement, List<GpuBinding> gpus) {
        fail(Fault.BEFORE_DEPLOY);
        super.deploy(record, placement, gpus);
        fail(Fault.AFTER_DEPLOY);
    }

    @Override
    public void stop(JobId job, Duration grace) {
        fail(Fault.BEFORE_STOP);
        super.stop(job, grace);
        afterStop.run();
    }

    private void fail(Fault at) {
        if (next == at) {
            next = Fault.NONE;
            throw new IllegalStateException("simulated crash " + at);
        }
    }
}
