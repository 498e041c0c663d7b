package io.quotient.app;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Usage accounting ({@code quotient.usage.*}, docs/usage.md).
 *
 * @param interval        how often the leader observes placements and the enforcers' counters
 * @param maxGap          the longest silence (restart, failover) whose allocation is still counted
 * @param persistInterval how often changed usage records are stored
 */
@ConfigurationProperties("quotient.usage")
public record UsageProperties(
        @DefaultValue("10s") Duration interval,
        @DefaultValue("5m") Duration maxGap,
        @DefaultValue("60s") Duration persistInterval) {

    public UsageProperties {
        SettingChecks.positive("quotient.usage.interval", interval);
        SettingChecks.positive("quotient.usage.max-gap", maxGap);
        SettingChecks.positive("quotient.usage.persist-interval", persistInterval);
        if (maxGap.compareTo(persistInterval.plus(interval)) < 0) {
            throw new IllegalArgumentException("quotient.usage.max-gap (" + maxGap + ") must be at least "
                    + "persist-interval + interval (" + persistInterval.plus(interval) + "), or a restart would lose "
                    + "the allocation counted since the last stored record");
        }
    }
}
