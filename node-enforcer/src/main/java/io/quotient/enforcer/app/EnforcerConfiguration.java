package io.quotient.enforcer.app;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quotient.enforcer.core.BudgetConventions;
import io.quotient.enforcer.core.EnforcementCycle;
import io.quotient.enforcer.core.EnforcementListener;
import io.quotient.enforcer.core.EnforcerHealth;
import io.quotient.enforcer.core.KillPolicy;
import io.quotient.enforcer.core.PodDirectory;
import io.quotient.enforcer.core.PolicySettings;
import io.quotient.enforcer.core.SnapshotBuilder;
import io.quotient.enforcer.nvml.Nvml;
import io.quotient.enforcer.nvml.NvmlGpuReader;
import io.quotient.enforcer.proc.IdentityCheckingSignaller;
import io.quotient.enforcer.proc.ProcFs;
import java.time.Clock;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the enforcement cycle: NVML reader, /proc, pods, policy, signals, and what reports on them. */
@Configuration(proxyBeanMethods = false)
class EnforcerConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    EnforcerHealth enforcerHealth() {
        return new EnforcerHealth();
    }

    @Bean
    ProcFs procFs(EnforcerProperties properties) {
        return new ProcFs(properties.procRoot());
    }

    @Bean(destroyMethod = "close")
    NvmlGpuReader gpuReader(EnforcerProperties properties) {
        return new NvmlGpuReader(() -> Nvml.open(properties.nvmlLibraries()));
    }

    @Bean
    KillLog killLog(EnforcerProperties properties, PodDirectory pods) {
        return new KillLog(properties.nodeName(), pods);
    }

    @Bean
    EnforcerMetrics enforcerMetrics(MeterRegistry registry) {
        return new EnforcerMetrics(registry);
    }

    @Bean
    EnforcementCycle enforcementCycle(
            EnforcerProperties properties,
            NvmlGpuReader gpus,
            ProcFs procFs,
            PodDirectory pods,
            List<EnforcementListener> listeners,
            EnforcerHealth health,
            Clock clock) {
        return new EnforcementCycle(
                gpus,
                new SnapshotBuilder(procFs, pods, new BudgetConventions()),
                new KillPolicy(new PolicySettings(properties.reclaimHeadroomFraction())),
                new IdentityCheckingSignaller(procFs),
                new CompositeListener(listeners),
                health,
                new EnforcementCycle.Settings(properties.gracePeriod(), properties.dryRun()),
                clock,
                System::nanoTime);
    }

    @Bean
    PeriodicTask enforcementLoop(EnforcementCycle cycle, EnforcerProperties properties, MeterRegistry registry) {
        Timer timer = Timer.builder("quotient.enforcer.cycle")
                .description("time of one enforcement cycle")
                .register(registry);
        return new PeriodicTask("enforcement-cycle", () -> timer.record(cycle::run), properties.pollInterval());
    }

    @Bean("nvml")
    NvmlHealthIndicator nvmlHealthIndicator(EnforcerHealth health) {
        return new NvmlHealthIndicator(health);
    }
}
