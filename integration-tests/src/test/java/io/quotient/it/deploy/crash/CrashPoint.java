package io.quotient.it.deploy.crash;

import io.quotient.adapters.k8s.workloads.KubernetesWorkloadGateway;
import io.quotient.app.kubernetes.WorkloadGatewayInterceptor;
import io.quotient.core.model.JobId;
import io.quotient.core.model.PlacedJob;
import io.quotient.deploy.port.ForwardingWorkloadGateway;
import io.quotient.deploy.port.GpuBinding;
import io.quotient.deploy.port.JobRecord;
import io.quotient.deploy.port.WorkloadGateway;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Crash testing only ({@code quotient.kubernetes.testing-crash-at}): the process SIGKILLs itself at a chosen point of
 * a deploy or a preemption, so that tests can show a restarted service converges from exactly that state. It lives in
 * the integration tests' sources, not in the service's jar: the service processes these tests start run on the tests'
 * classpath, where {@link CrashPointConfiguration} contributes it as the service's workload-gateway interceptor.
 */
enum CrashPoint implements WorkloadGatewayInterceptor {
    /** After the first workload (Job) is created in the API server, before its status is written Running. */
    AFTER_WORKLOAD_CREATED,
    /** After an eviction is recorded (Preempted), before the evicted job's pods are deleted. */
    BEFORE_EVICTION_STOP;

    private static final Logger LOG = LoggerFactory.getLogger(CrashPoint.class);

    /** @throws IllegalArgumentException naming the valid values */
    static CrashPoint parse(String value) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "quotient.kubernetes.testing-crash-at is '" + value
                            + "'; use after-workload-created or before-eviction-stop, or leave it unset (production)",
                    e);
        }
    }

    /** The gateway that dies at this point. */
    @Override
    public WorkloadGateway around(KubernetesWorkloadGateway real) {
        return new Crashing(real, this);
    }

    private void die(String where) {
        long pid = ProcessHandle.current().pid();
        LOG.warn("crash point {} reached ({}): process {} kills itself with SIGKILL", this, where, pid);
        try {
            new ProcessBuilder("kill", "-KILL", Long.toString(pid))
                    .inheritIO()
                    .start()
                    .waitFor();
        } catch (IOException e) {
            LOG.warn("kill -KILL {} could not run ({}); halting instead", pid, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Runtime.getRuntime().halt(137); // no shutdown hooks either way, as with SIGKILL
    }

    private static final class Crashing extends ForwardingWorkloadGateway {

        private final KubernetesWorkloadGateway real;
        private final CrashPoint point;

        Crashing(KubernetesWorkloadGateway real, CrashPoint point) {
            super(real);
            this.real = real;
            this.point = point;
        }

        @Override
        public void deploy(JobRecord record, PlacedJob placement, List<GpuBinding> gpus) {
            real.deploy(record, placement, gpus);
            if (point == AFTER_WORKLOAD_CREATED) {
                real.awaitQueuedWrites();
                point.die("workload of job " + record.id() + " created");
            }
        }

        @Override
        public void stop(JobId job, Duration grace) {
            if (point == BEFORE_EVICTION_STOP) {
                point.die("stopping job " + job);
            }
            real.stop(job, grace);
        }
    }
}
