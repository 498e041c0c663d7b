package io.quotient.it.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes the service's teams file (--quotient.teams-file) for a test. */
final class TeamsFile {

    private TeamsFile() {}

    /** A team line: guaranteed GPUs, and a maximum when {@code maxGpus} is not null. */
    record Quota(String name, double guaranteedGpus, Double maxGpus) {
        String yaml(String namespace) {
            return "  - name: " + name + "\n    guaranteedGpus: " + guaranteedGpus + "\n"
                    + (maxGpus == null ? "" : "    maxGpus: " + maxGpus + "\n") + "    overQuotaWeight: 1\n"
                    + "    namespaces: [" + namespace + "]\n";
        }
    }

    /**
     * Teams that all keep their jobs in {@code sharedNamespace}, the service's own namespace of the test (the layout
     * before teams had namespaces of their own), so that each test finds its objects in its one namespace.
     */
    static Path write(Path file, String sharedNamespace, Quota... teams) {
        StringBuilder yaml = new StringBuilder("teams:\n");
        for (Quota team : teams) {
            yaml.append(team.yaml(sharedNamespace));
        }
        return writeText(file, yaml.toString());
    }

    static Path writeText(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            return Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write teams file " + file, e);
        }
    }
}
