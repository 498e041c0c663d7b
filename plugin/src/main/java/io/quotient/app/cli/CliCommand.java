package io.quotient.app.cli;

/** A subcommand of {@code quotient.jar}: takes its own arguments, returns the process exit code. */
public interface CliCommand {

    int run(String[] args);

    String summary();
}
