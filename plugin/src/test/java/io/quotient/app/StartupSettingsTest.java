package io.quotient.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * The service's settings bound as at start-up (Spring's binder, the property names and text a user writes): each
 * value below started the service before, to fail later with a scheduler's exception naming no setting
 * ({@code Repeat Interval cannot be zero}, a cron's parse error), or to run with it read as "never" (an interval of
 * 27 million years), a spinning poll (0 s) or an infinite fair-share gain that no team could ever reach.
 */
class StartupSettingsTest {

    private static QuotientProperties bind(Map<String, String> settings) {
        return new Binder(new MapConfigurationPropertySource(settings))
                .bindOrCreate("quotient", QuotientProperties.class);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "quotient.schedules.requeue-interval|0s|quotient.schedules.requeue-interval must be a positive duration",
                "quotient.schedules.requeue-interval|-5s|quotient.schedules.requeue-interval must be a positive duration",
                "quotient.schedules.reclaim-interval|9999999999d|quotient.schedules.reclaim-interval must be at most 365 days",
                "quotient.schedules.metrics-interval|-1s|quotient.schedules.metrics-interval must be a positive duration",
                "quotient.schedules.defragment-cron|bogus|quotient.schedules.defragment-cron 'bogus' is not a Quartz cron",
                "quotient.schedules.defragment-max-moved-share|NaN|quotient.schedules.defragment-max-moved-share must be",
                "quotient.teams-poll-interval|0s|quotient.teams-poll-interval must be a positive duration",
                "quotient.scheduling.stop-grace|-30s|quotient.scheduling.stop-grace must be 0 or a positive duration",
                "quotient.scheduling.fair-share-min-gain-gpus|Infinity|quotient.scheduling.fair-share-min-gain-gpus must be",
                "quotient.scheduling.fair-share-min-gain-gpus|-1|quotient.scheduling.fair-share-min-gain-gpus must be",
                "quotient.scheduling.pod-arrival-grace|0s|quotient.scheduling.pod-arrival-grace must be a positive duration",
                "quotient.scheduling.max-min-runtime|-1h|quotient.scheduling.max-min-runtime must be 0 or a positive",
                "quotient.scheduling.fair-share.usage-half-life|-12h|quotient.scheduling.fair-share.usage-half-life must",
                "quotient.scheduling.fair-share.window|0s|quotient.scheduling.fair-share.window must be a positive duration",
                "quotient.scheduling.fair-share.save-interval|0s|quotient.scheduling.fair-share.save-interval must be",
            })
    void aSettingNoTimerCanUseStopsTheStartNamingIt(String property, String value, String expected) {
        assertThatThrownBy(() -> bind(Map.of(property, value)))
                .isInstanceOf(BindException.class)
                .rootCause()
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(expected);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "quotient.kubernetes.retry-period|0s|quotient.kubernetes.retry-period must be a positive duration",
                "quotient.kubernetes.lease-duration|-8s|quotient.kubernetes.lease-duration must be a positive duration",
                "quotient.kubernetes.cache-sync-timeout|0s|quotient.kubernetes.cache-sync-timeout must be a positive",
                "quotient.access.cache-ttl|-10s|quotient.access.cache-ttl must be 0 or a positive duration",
                "quotient.admission.port|70000|quotient.admission.port must be a TCP port from 1 to 65535",
                "quotient.admission.ca-bundle-check|0s|quotient.admission.ca-bundle-check must be a positive duration",
            })
    void theClusterAccessAndAdmissionSettingsLikewise(String property, String value, String expected) {
        Binder binder = new Binder(new MapConfigurationPropertySource(Map.of(property, value)));
        Class<?> type = property.startsWith("quotient.kubernetes")
                ? io.quotient.app.kubernetes.KubernetesProperties.class
                : property.startsWith("quotient.access") ? AccessProperties.class : AdmissionProperties.class;
        String prefix = property.substring(0, property.lastIndexOf('.'));
        assertThatThrownBy(() -> binder.bindOrCreate(prefix, type))
                .isInstanceOf(BindException.class)
                .rootCause()
                .hasMessageContaining(expected);
        assertThat(new Binder(new MapConfigurationPropertySource(Map.of())).bindOrCreate(prefix, type))
                .as("the defaults of %s bind", prefix)
                .isNotNull();
    }

    @Test
    void theDefaultsAndUsualValuesBind() {
        QuotientProperties defaults = bind(Map.of());
        assertThat(defaults.schedules().requeueInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(defaults.scheduling().fairShare().usageHalfLife()).isZero();

        QuotientProperties usual = bind(Map.of(
                "quotient.schedules.reclaim-interval", "1m",
                "quotient.scheduling.stop-grace", "0s",
                "quotient.scheduling.fair-share.usage-half-life", "12h",
                "quotient.schedules.defragment-cron", "0 30 2 ? * SUN"));
        assertThat(usual.schedules().reclaimInterval()).isEqualTo(Duration.ofMinutes(1));
        assertThat(usual.scheduling().fairShare().usageHalfLife()).isEqualTo(Duration.ofHours(12));
        Assertions.assertThat(usual.schedules().defragmentCron()).isEqualTo("0 30 2 ? * SUN");
    }
}
