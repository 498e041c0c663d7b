package io.quotient.app;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The idle pass ({@code quotient.idle.*}, docs/usage.md, "Idle policy"): the teams' idle policies are in the teams
 * file; this is only how often the leader looks.
 *
 * @param interval how often the leader samples utilisation and decides on idle jobs; a job's idle stretch is known
 *                 to within this and the enforcers' report period
 */
@ConfigurationProperties("quotient.idle")
public record IdleProperties(@DefaultValue("30s") Duration interval) {

    public IdleProperties {
        SettingChecks.positive("quotient.idle.interval", interval);
    }
}
