package io.quotient.adapters.quota;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotient.testing.TestClocks;
import io.quotient.time.MutableClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TeamsFileSourceTest {

    @TempDir
    Path dir;

    private final MutableClock clock = new MutableClock(TestClocks.START);

    @Test
    void reloadsAChangedFileAfterThePollInterval() throws IOException {
        Path file = write("teams:\n  - {name: team-a, guaranteedGpus: 20}\n");
        TeamsFileSource source = new TeamsFileSource(file, Duration.ofSeconds(5), clock);

        write("teams:\n  - {name: team-a, guaranteedGpus: 12}\n  - {name: team-c, guaranteedGpus: 4}\n");
        assertThat(source.teams()).containsOnlyKeys("team-a"); // not yet polled

        clock.advance(Duration.ofSeconds(5));
        assertThat(source.teams()).containsOnlyKeys("team-a", "team-c");
        assertThat(source.teams().get("team-a").guaranteedMilli()).isEqualTo(12_000);
    }

    @Test
    void keepsTheLastGoodConfigurationWhenTheFileBreaks() throws IOException {
        Path file = write("teams:\n  - {name: team-a, guaranteedGpus: 20}\n");
        TeamsFileSource source = new TeamsFileSource(file, Duration.ofSeconds(1), clock);

        write("teams:\n  - {name: team-a, guaranteedGpus: lots}\n");
        assertThat(source.reloadIfChanged()).isFalse();

        assertThat(source.teams().get("team-a").guaranteedMilli()).isEqualTo(20_000);
        assertThat(source.lastError()).hasValueSatisfying(e -> {
            assertThat(e.line()).isEqualTo(2);
            assertThat(e.reason()).contains("guaranteedGpus must be a number");
        });

        write("teams:\n  - {name: team-a, guaranteedGpus: 25}\n");
        assertThat(source.reloadIfChanged()).isTrue();
        assertThat(source.teams().get("team-a").guaranteedMilli()).isEqualTo(25_000);
        assertThat(source.lastError()).isEmpty();
    }

    @Test
    void keepsTheLastGoodConfigurationWhenTheFileVanishes() throws IOException {
        Path file = write("teams:\n  - {name: team-a, guaranteedGpus: 20}\n");
        TeamsFileSource source = new TeamsFileSource(file, Duration.ofSeconds(1), clock);
        Files.delete(file);

        assertThat(source.reloadIfChanged()).isFalse();
        assertThat(source.teams()).containsOnlyKeys("team-a");
        assertThat(source.lastError())
                .hasValueSatisfying(e -> assertThat(e.reason()).contains("cannot read"));
    }

    @Test
    void anInvalidFileFailsTheStart() throws IOException {
        Path file = write("teams:\n  - {name: team-a}\n");
        assertThatThrownBy(() -> new TeamsFileSource(file, Duration.ofSeconds(1), clock))
                .isInstanceOf(ConfigFileException.class)
                .hasMessageContaining(file + ":2")
                .hasMessageContaining("needs 'name' and 'guaranteedGpus'");
    }

    private Path write(String content) throws IOException {
        return Files.writeString(dir.resolve("teams.yaml"), content);
    }
}
