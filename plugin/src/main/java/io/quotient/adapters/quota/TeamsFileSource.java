package io.quotient.adapters.quota;

import io.quotient.core.model.Team;
import io.quotient.core.tenancy.TeamNamespaces;
import io.quotient.deploy.port.TeamsSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Teams from a YAML file, re-read when its content changes. Checks for a change at most once per
 * {@code pollInterval}, on the next read, so no thread is needed. An invalid update is logged with its line
 * and reason and the last good configuration stays in force; an invalid file at start-up fails the start.
 */
public final class TeamsFileSource implements TeamsSource {

    private static final Logger LOG = LoggerFactory.getLogger(TeamsFileSource.class);

    private final Path file;
    private final Duration pollInterval;
    private final Clock clock;
    private final String sharedNamespace;
    private byte[] loadedContent;
    private Map<String, Team> teams;
    private TeamNamespaces namespaces;
    private Instant nextCheck;
    private ConfigFileException lastError;

    /** @throws ConfigFileException when the file is missing or invalid at start-up */
    public TeamsFileSource(Path file, Duration pollInterval, Clock clock) {
        this(file, pollInterval, clock, null);
    }

    /**
     * @param sharedNamespace the service's own namespace, which teams may share; null on the embedded cluster
     * @throws ConfigFileException when the file is missing or invalid at start-up
     */
    public TeamsFileSource(Path file, Duration pollInterval, Clock clock, String sharedNamespace) {
        this.file = file;
        this.pollInterval = pollInterval;
        this.clock = clock;
        this.sharedNamespace = sharedNamespace;
        byte[] content = read();
        String text = new String(content, StandardCharsets.UTF_8);
        teams = TeamsFileParser.parse(text, file.toString());
        namespaces = TeamNamespacesParser.parse(text, file.toString(), sharedNamespace);
        loadedContent = content;
        nextCheck = clock.instant().plus(pollInterval);
        LOG.info("loaded {} teams from {}: {}", teams.size(), file, teams.keySet());
    }

    @Override
    public synchronized Map<String, Team> teams() {
        if (!clock.instant().isBefore(nextCheck)) {
            reloadIfChanged();
        }
        return teams;
    }

    @Override
    public synchronized TeamNamespaces namespaces() {
        teams();
        return namespaces;
    }

    /** Re-reads the file now; returns whether a new configuration took effect. */
    public synchronized boolean reloadIfChanged() {
        nextCheck = clock.instant().plus(pollInterval);
        byte[] content;
        try {
            content = read();
        } catch (ConfigFileException e) {
            return reject(e);
        }
        if (Arrays.equals(content, loadedContent)) {
            return false;
        }
        try {
            String text = new String(content, StandardCharsets.UTF_8);
            Map<String, Team> parsed = TeamsFileParser.parse(text, file.toString());
            namespaces = TeamNamespacesParser.parse(text, file.toString(), sharedNamespace);
            teams = parsed;
        } catch (ConfigFileException e) {
            loadedContent = content; // report a bad version once, not on every poll
            return reject(e);
        }
        loadedContent = content;
        lastError = null;
        LOG.info("reloaded teams from {}: {}", file, teams.keySet());
        return true;
    }

    /** The problem with the file's current content, while the last good configuration is used instead. */
    public synchronized Optional<ConfigFileException> lastError() {
        return Optional.ofNullable(lastError);
    }

    private boolean reject(ConfigFileException e) {
        lastError = e;
        LOG.error(
                "teams file rejected, keeping the last good configuration ({} teams): {}. Fix the file; it is"
                        + " re-read when it changes.",
                teams.size(),
                e.getMessage());
        return false;
    }

    private byte[] read() {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new ConfigFileException(file.toString(), 0, "cannot read the teams file: " + e);
        }
    }
}
