package io.quotient.enforcer.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class EnforcerPropertiesTest {

    private static EnforcerProperties bind(Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values))
                .bindOrCreate("quotient.enforcer", EnforcerProperties.class);
    }

    @Test
    void defaults() {
        EnforcerProperties properties = bind(Map.of("quotient.enforcer.node-name", "node-a"));

        assertThat(properties.pollInterval()).isEqualTo(Duration.ofMillis(500));
        assertThat(properties.gracePeriod()).isEqualTo(Duration.ofSeconds(10));
        assertThat(properties.dryRun()).isFalse();
        assertThat(properties.procRoot()).isEqualTo(Path.of("/proc"));
        assertThat(properties.nvmlLibraries()).containsExactly("nvidia-ml", "libnvidia-ml.so.1");
        assertThat(properties.kubernetes().enabled()).isTrue();
        assertThat(properties.kubernetes().podResourcesSocket())
                .isEqualTo(Path.of("/var/lib/kubelet/pod-resources/kubelet.sock"));
    }

    @Test
    void badSettingsAreRejectedWithWhatToDo() {
        assertThatThrownBy(() -> bind(Map.of()))
                .rootCause()
                .hasMessageContaining("node-name is not set")
                .hasMessageContaining("NODE_NAME");
        assertThatThrownBy(
                        () -> bind(Map.of("quotient.enforcer.node-name", "n", "quotient.enforcer.poll-interval", "0s")))
                .rootCause()
                .hasMessageContaining("poll-interval must be positive");
        assertThat(bind(Map.of("quotient.enforcer.kubernetes.enabled", "false")).nodeName())
                .isEmpty();
        assertThat(List.of(bind(Map.of("quotient.enforcer.node-name", "n", "quotient.enforcer.dry-run", "true"))
                        .dryRun()))
                .containsExactly(true);
    }

    /** Each of these started the enforcer: a NaN or negative headroom never reclaimed a loan, 2 reclaimed every one. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource(
            delimiter = '|',
            value = {
                "reclaim-headroom-fraction|NaN|reclaim-headroom-fraction must be a share of a GPU's memory from 0 to 1",
                "reclaim-headroom-fraction|-0.1|reclaim-headroom-fraction must be a share",
                "reclaim-headroom-fraction|2|reclaim-headroom-fraction must be a share",
                "kubernetes.report-min-interval|-1s|kubernetes.report-min-interval must be 0 or more",
            })
    void aSettingOutOfItsRangeStopsTheStartNamingIt(String property, String value, String expected) {
        assertThatThrownBy(
                        () -> bind(Map.of("quotient.enforcer.node-name", "n", "quotient.enforcer." + property, value)))
                .rootCause()
                .hasMessageContaining("quotient.enforcer." + expected);
    }
}
