package io.quotient.enforcer.app;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The node enforcer: one per GPU node (DaemonSet), makes GPU memory requests and limits real. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class NodeEnforcerApplication {

    static final String HELP = "/node-enforcer-help.txt";

    public static void main(String[] args) {
        if (printHelp(args, System.out)) {
            return;
        }
        SpringApplication.run(NodeEnforcerApplication.class, args);
    }

    /** Prints the usage and the properties for {@code --help} / {@code -h}; true when it did. */
    static boolean printHelp(String[] args, PrintStream out) {
        if (Arrays.stream(args).noneMatch(a -> a.equals("--help") || a.equals("-h"))) {
            return false;
        }
        try (InputStream help = NodeEnforcerApplication.class.getResourceAsStream(HELP)) {
            if (help == null) {
                throw new IllegalStateException(HELP + " is missing from the jar: the build is broken, rebuild it");
            }
            out.print(new String(help.readAllBytes(), StandardCharsets.UTF_8));
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
