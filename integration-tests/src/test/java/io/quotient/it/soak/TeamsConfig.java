package io.quotient.it.soak;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.yaml.snakeyaml.Yaml;

/**
 * The teams file the replicas read (and re-read on change): guarantees in milli-GPUs, changed by the soak's
 * operations. Written whole to a temporary file and moved into place, so a replica never reads half a file. Every
 * team keeps its jobs in the soak's one namespace (the service's own, which teams may share), so the invariants
 * read one namespace; a team may also own a namespace of its own (listed second, so REST deploys stay in the shared
 * one), where its Kubeflow objects are created directly.
 */
final class TeamsConfig {

    private final Path file;
    private final String namespace;
    private final Map<String, Long> guarantees = new TreeMap<>();
    private final Map<String, String> ownNamespaces;

    TeamsConfig(Path file, String namespace, Map<String, Long> initial, Map<String, String> ownNamespaces) {
        this.file = file;
        this.namespace = namespace;
        this.ownNamespaces = Map.copyOf(ownNamespaces);
        guarantees.putAll(initial);
        write();
    }

    Path file() {
        return file;
    }

    synchronized Map<String, Long> guarantees() {
        return Map.copyOf(guarantees);
    }

    synchronized long total() {
        return guarantees.values().stream().mapToLong(Long::longValue).sum();
    }

    synchronized void set(String team, long milli) {
        guarantees.put(team, milli);
        write();
    }

    private void write() {
        List<Map<String, Object>> teams = new ArrayList<>();
        guarantees.forEach((team, milli) -> {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("name", team);
            entry.put("guaranteedGpus", milli / 1000.0);
            entry.put("overQuotaWeight", 1);
            entry.put(
                    "namespaces",
                    ownNamespaces.containsKey(team) ? List.of(namespace, ownNamespaces.get(team)) : List.of(namespace));
            teams.add(entry);
        });
        try {
            Files.createDirectories(file.getParent());
            Path partial = file.resolveSibling(file.getFileName() + ".partial");
            Files.writeString(partial, new Yaml().dump(Map.of("teams", teams)));
            Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the teams file " + file, e);
        }
    }
}
