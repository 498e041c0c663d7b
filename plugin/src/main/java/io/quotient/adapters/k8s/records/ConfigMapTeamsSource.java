package io.quotient.adapters.k8s.records;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.quotient.adapters.k8s.ApiCalls;
import io.quotient.adapters.quota.ConfigFileException;
import io.quotient.adapters.quota.TeamNamespacesParser;
import io.quotient.adapters.quota.TeamsFileParser;
import io.quotient.core.model.Team;
import io.quotient.core.tenancy.TeamNamespaces;
import io.quotient.deploy.port.TeamsSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Teams from the ConfigMap {@code quotient-teams} (key {@code teams.yaml}, the teams-file format) in the
 * service's namespace, read on first use and then at most once per poll interval; an invalid or missing update
 * is logged with its line and reason and the last good configuration stays in force.
 */
public final class ConfigMapTeamsSource implements TeamsSource {

    private static final Logger LOG = LoggerFactory.getLogger(ConfigMapTeamsSource.class);
    public static final String CONFIG_MAP = "quotient-teams";
    public static final String KEY = "teams.yaml";

    private final CoreV1Api core;
    private final String namespace;
    private final Duration pollInterval;
    private final Clock clock;
    private Map<String, Team> teams = Map.of();
    private TeamNamespaces namespaces = TeamNamespaces.defaults(List.of());
    private String loadedText;
    private Instant nextCheck = Instant.MIN;

    public ConfigMapTeamsSource(CoreV1Api core, String namespace, Duration pollInterval, Clock clock) {
        this.core = core;
        this.namespace = namespace;
        this.pollInterval = pollInterval;
        this.clock = clock;
    }

    @Override
    public synchronized Map<String, Team> teams() {
        if (!clock.instant().isBefore(nextCheck)) {
            nextCheck = clock.instant().plus(pollInterval);
            reload();
        }
        return teams;
    }

    /** The teams' namespaces; the service's namespace may be shared by teams (the layout of earlier versions). */
    @Override
    public synchronized TeamNamespaces namespaces() {
        teams();
        return namespaces;
    }

    private void reload() {
        String source = "ConfigMap " + namespace + "/" + CONFIG_MAP + " key " + KEY;
        String text;
        try {
            V1ConfigMap map =
                    core.readNamespacedConfigMap(CONFIG_MAP, namespace).execute();
            text = map.getData() == null ? null : map.getData().get(KEY);
        } catch (ApiException e) {
            keepLastGood(
                    source,
                    e.getCode() == ApiCalls.NOT_FOUND
                            ? "the ConfigMap does not exist (kubectl apply -f " + "deploy/30-teams-configmap.yaml)"
                            : "HTTP " + e.getCode() + ": " + e.getResponseBody());
            return;
        } catch (RuntimeException e) {
            keepLastGood(source, "the API server could not be reached: " + e);
            return;
        }
        if (text == null) {
            keepLastGood(source, "the key is missing");
        } else if (!Objects.equals(text, loadedText)) {
            loadedText = text; // a bad version is reported once, not on every poll
            try {
                Map<String, Team> parsed = TeamsFileParser.parse(text, source);
                namespaces = TeamNamespacesParser.parse(text, source, namespace);
                teams = parsed;
                LOG.info("loaded {} teams from {}: {}", teams.size(), source, teams.keySet());
            } catch (ConfigFileException e) {
                keepLastGood(source, e.getMessage());
            }
        }
    }

    private void keepLastGood(String source, String why) {
        LOG.error(
                "teams from {} not loaded: {}. Keeping the last good configuration ({} teams).",
                source,
                why,
                teams.size());
    }
}
