package io.quotient.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.springframework.test.context.DynamicPropertyRegistry;

/** A teams file for one test class's service, written to a temporary file removed when the JVM exits. */
final class TestTeamsFile {

    private TestTeamsFile() {}

    /** Writes {@code yaml} (a whole teams file) and points {@code quotient.teams-file} at it. */
    static void register(DynamicPropertyRegistry registry, String yaml) throws IOException {
        Path file = Files.createTempFile("quotient-teams", ".yaml");
        file.toFile().deleteOnExit();
        Files.writeString(file, yaml);
        registry.add("quotient.teams-file", file::toString);
    }
}
