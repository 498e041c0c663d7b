package io.quotient.adapters.memory;

import io.quotient.core.model.UsageRecord;
import io.quotient.deploy.port.FairShareUsageStore;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/** The fair-share usage record in this process's memory: survives nothing but the process (embedded mode, tests). */
public final class InMemoryFairShareUsageStore implements FairShareUsageStore {

    private final AtomicReference<UsageRecord> record = new AtomicReference<>();

    @Override
    public Optional<UsageRecord> load() {
        return Optional.ofNullable(record.get());
    }

    @Override
    public void save(UsageRecord r) {
        record.set(r);
    }
}
