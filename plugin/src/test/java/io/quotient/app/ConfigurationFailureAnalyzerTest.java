package io.quotient.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotient.adapters.quota.ConfigFileException;
import io.quotient.adapters.template.TemplateException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;

class ConfigurationFailureAnalyzerTest {

    private final ConfigurationFailureAnalyzer analyzer = new ConfigurationFailureAnalyzer();

    @Test
    void aBadTemplateDeepInABeanFailureIsReportedWithItsFileAndReason() {
        TemplateException bad = new TemplateException(List.of("/srv/templates/train.yaml:4: not valid YAML: oops"));

        FailureAnalysis analysis = analyzer.analyze(new BeanCreationException(
                "jobsController", "failed", new BeanCreationException("templateRenderer", "failed", bad)));

        assertThat(analysis.getDescription()).contains("/srv/templates/train.yaml:4: not valid YAML: oops");
        assertThat(analysis.getAction()).contains("quotient.templates-folder");
        assertThat(analysis.getCause()).isSameAs(bad);
    }

    @Test
    void aBadTeamsFileIsReportedWithItsLine() {
        FailureAnalysis analysis = analyzer.analyze(new BeanCreationException(
                "teamsSource",
                "failed",
                new ConfigFileException("/etc/quotient/teams.yaml", 3, "guaranteedGpus must be a number")));

        assertThat(analysis.getDescription()).contains("/etc/quotient/teams.yaml:3: guaranteedGpus must be a number");
        assertThat(analysis.getAction()).contains("Fix the file");
    }

    @Test
    void otherFailuresAreLeftToSpringBoot() {
        assertThat(analyzer.analyze(new IllegalStateException("port in use"))).isNull();
    }
}
