package io.quotient.adapters.template;

import java.util.List;

/**
 * One or more templates cannot be used: each problem names the template file and the reason. Raised at
 * start-up, so a broken template stops the service before any job is rendered from it.
 */
public final class TemplateException extends RuntimeException {

    private final List<String> problems;

    public TemplateException(List<String> problems) {
        super("invalid job templates; fix or remove these files and restart:\n  - " + String.join("\n  - ", problems));
        this.problems = List.copyOf(problems);
    }

    /** One line per bad file: {@code <file>: <reason>}. */
    public List<String> problems() {
        return problems;
    }
}
