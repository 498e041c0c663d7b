package io.quotient.app.kubernetes;

import io.quotient.adapters.k8s.webhook.CaBundleInjector;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the issued CA in the webhooks' caBundle: at start and then periodically, on every replica (they serve the
 * same certificate, so they agree), because a configuration may be applied after the service started, or applied
 * again with an empty bundle. A failed round is logged and retried by the next.
 */
final class CaBundleInjection implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CaBundleInjection.class);

    private final CaBundleInjector injector;
    private final List<String> configurations;
    private final Optional<byte[]> caBundle;
    private final Duration period;
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "quotient-ca-bundle");
        thread.setDaemon(true);
        return thread;
    });

    /** {@code caBundlePem} empty: the certificate was not issued by the service, and nothing is injected. */
    CaBundleInjection(
            CaBundleInjector injector, List<String> configurations, Optional<String> caBundlePem, Duration period) {
        this.injector = injector;
        this.configurations = List.copyOf(configurations);
        this.caBundle = caBundlePem.map(pem -> pem.getBytes(StandardCharsets.US_ASCII));
        this.period = period;
    }

    void start() {
        if (caBundle.isEmpty()) {
            executor.shutdown();
            return;
        }
        executor.scheduleWithFixedDelay(this::injectOnce, 0, period.toMillis(), TimeUnit.MILLISECONDS);
    }

    void injectOnce() {
        try {
            injector.inject(configurations, caBundle.orElseThrow());
        } catch (RuntimeException e) {
            LOG.warn(
                    "admission webhook: setting the caBundle of {} failed ({}); tried again in {}",
                    configurations,
                    e.getMessage(),
                    period);
        }
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
