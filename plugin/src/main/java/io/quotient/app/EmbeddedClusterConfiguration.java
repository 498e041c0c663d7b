package io.quotient.app;

import io.quotient.adapters.memory.EmbeddedCluster;
import io.quotient.adapters.memory.EmbeddedClusterFileParser;
import io.quotient.adapters.memory.InMemoryJobRecordStore;
import io.quotient.adapters.quota.ConfigFileException;
import io.quotient.adapters.quota.TeamsFileParser;
import io.quotient.adapters.template.TemplateCatalog;
import io.quotient.core.cluster.NodeSpec;
import io.quotient.core.model.Team;
import io.quotient.deploy.port.LeadershipGate;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * The embedded in-memory cluster: 4 nodes × 10 GPUs and two teams guaranteed 20 GPUs each unless files say
 * otherwise. Records live in memory; this replica is always the leader.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(ClusterModeCondition.Embedded.class)
public class EmbeddedClusterConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedClusterConfiguration.class);
    private static final String CLUSTER_RESOURCE = "quotient/embedded/cluster.yaml";
    private static final String TEAMS_RESOURCE = "quotient/embedded/teams.yaml";

    @Bean
    EmbeddedCluster embeddedCluster(QuotientProperties properties) {
        Path file = properties.embedded().clusterFile();
        List<NodeSpec> nodes = file == null
                ? EmbeddedClusterFileParser.parse(resource(CLUSTER_RESOURCE), "classpath:" + CLUSTER_RESOURCE)
                : EmbeddedClusterFileParser.parse(read(file), file.toString());
        TemplateCatalog templates = TemplateCatalog.load(Optional.ofNullable(properties.templatesFolder()));
        LOG.info("cluster mode: embedded demo cluster: nothing is deployed to Kubernetes (give --quotient.kubeconfig or"
                + " KUBECONFIG to work on a cluster)");
        LOG.info(
                "embedded cluster: {} nodes, {} GPUs; templates {}",
                nodes.size(),
                nodes.stream().mapToInt(NodeSpec::gpuCount).sum(),
                templates.names());
        return new EmbeddedCluster(nodes, templates.traits());
    }

    @Bean
    InMemoryJobRecordStore inMemoryJobRecordStore() {
        return new InMemoryJobRecordStore();
    }

    @Bean
    LeadershipGate alwaysLeader() {
        return LeadershipGate.ALWAYS;
    }

    @Bean
    ClusterDefaultTeams embeddedTeams() {
        Map<String, Team> teams = TeamsFileParser.parse(resource(TEAMS_RESOURCE), "classpath:" + TEAMS_RESOURCE);
        return new ClusterDefaultTeams(() -> teams);
    }

    static String resource(String name) {
        try (InputStream in =
                EmbeddedClusterConfiguration.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the jar; rebuild it with mvn package");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new ConfigFileException(file.toString(), 0, "cannot read the embedded cluster file: " + e);
        }
    }
}
