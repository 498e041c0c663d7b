package io.quotient.adapters.quota;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.core.model.Team;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The teams file a newcomer copies from the README is one the service accepts, with the meaning the README gives. */
class ReadmeTeamsExampleTest {

    private static final Pattern TEAMS_BLOCK = Pattern.compile("```yaml\\n(teams:\\n.*?)```", Pattern.DOTALL);

    @Test
    void theReadmesTeamsFileParsesAsDescribed() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        Matcher block = TEAMS_BLOCK.matcher(readme);
        assertThat(block.find()).as("the README shows a teams file").isTrue();

        Map<String, Team> teams = TeamsFileParser.parse(block.group(1), "README.md");

        assertThat(teams).containsOnlyKeys("team-a", "team-b");
        assertThat(teams.get("team-a").guaranteedMilli()).isEqualTo(20_000);
        assertThat(teams.get("team-b").guaranteedMilli())
                .as("the per-model guarantees add up to the team's")
                .isEqualTo(20_000);
        assertThat(teams.get("team-a").idle().isOff())
                .as("idle reclaim is off unless set")
                .isTrue();
        assertThat(teams.get("team-b").idle().isOff()).isFalse();
    }
}
