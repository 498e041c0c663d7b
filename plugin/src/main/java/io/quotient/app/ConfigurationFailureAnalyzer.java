package io.quotient.app;

import io.quotient.adapters.quota.ConfigFileException;
import io.quotient.adapters.template.TemplateException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;

/**
 * Explains a start-up stopped by the user's own files (job templates, teams file, embedded cluster file) in
 * Spring Boot's "APPLICATION FAILED TO START" report: which file, which line, why, and what to do. Without it
 * the reason would sit at the bottom of a long bean-creation stack trace.
 */
public final class ConfigurationFailureAnalyzer implements FailureAnalyzer {

    @Override
    public FailureAnalysis analyze(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof TemplateException e) {
                return new FailureAnalysis(
                        "Quotient could not load its job templates:\n  - " + String.join("\n  - ", e.problems()),
                        "Fix or remove these files (quotient.templates-folder) and start again; no job was rendered.",
                        e);
            }
            if (t instanceof ConfigFileException e) {
                return new FailureAnalysis(
                        "Quotient could not use the configuration file " + e.getMessage(),
                        "Fix the file and start again (a teams file that turns invalid while the service runs is"
                                + " rejected instead, and the last good teams stay in force).",
                        e);
            }
        }
        return null;
    }
}
