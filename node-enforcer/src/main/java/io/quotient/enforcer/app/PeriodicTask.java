package io.quotient.enforcer.app;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/** Runs a task on a thread of its own, with a fixed delay, for as long as the application runs. */
final class PeriodicTask implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(PeriodicTask.class);

    private final String name;
    private final Runnable task;
    private final Duration interval;
    private ScheduledExecutorService executor;

    PeriodicTask(String name, Runnable task, Duration interval) {
        this.name = name;
        this.task = task;
        this.interval = interval;
    }

    @Override
    public synchronized void start() {
        executor = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, name));
        executor.scheduleWithFixedDelay(this::runOnce, 0, interval.toNanos(), TimeUnit.NANOSECONDS);
    }

    void runOnce() {
        try {
            task.run();
        } catch (RuntimeException | Error e) {
            // One failed run must not end the schedule: the next one may well succeed.
            LOG.error("{} failed; retrying in {}", name, interval, e);
        }
    }

    @Override
    public synchronized void stop() {
        if (executor != null) {
            executor.shutdownNow();
            executor = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return executor != null;
    }
}
