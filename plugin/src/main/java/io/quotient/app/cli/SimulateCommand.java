package io.quotient.app.cli;

import io.quotient.app.QuotientCli;

/** Placeholder until its owner fills it in. */
public final class SimulateCommand implements QuotientCli.Command {
    @Override
    public int run(String[] args) {
        System.err.println("not available yet");
        return 1;
    }

    @Override
    public String summary() {
        return "simulate";
    }
}
