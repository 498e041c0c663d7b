package io.quotient.deploy.port;

import io.quotient.core.model.UsageRecord;
import java.util.Optional;

/**
 * Where the teams' usage history behind decayed fair shares is kept, so that it survives a restart (and, with a
 * durable adapter, a failover): loaded once when the service starts, saved after each time borrowing is recorded.
 */
public interface FairShareUsageStore {

    /** The record saved last, if any. */
    Optional<UsageRecord> load();

    void save(UsageRecord record);
}
