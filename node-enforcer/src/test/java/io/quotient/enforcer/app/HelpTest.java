package io.quotient.enforcer.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class HelpTest {

    @Test
    void helpNamesEverySettingTheEnforcerHas() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        assertThat(NodeEnforcerApplication.printHelp(
                        new String[] {"--help"}, new PrintStream(out, true, StandardCharsets.UTF_8)))
                .isTrue();

        String help = out.toString(StandardCharsets.UTF_8);
        for (RecordComponent component : EnforcerProperties.class.getRecordComponents()) {
            if (!component.getName().equals("kubernetes")) {
                assertThat(help).contains("--quotient.enforcer." + kebab(component.getName()) + "=");
            }
        }
        for (RecordComponent component : EnforcerProperties.Kubernetes.class.getRecordComponents()) {
            assertThat(help).contains("--quotient.enforcer.kubernetes." + kebab(component.getName()) + "=");
        }
    }

    @Test
    void withoutHelpTheApplicationStarts() {
        assertThat(NodeEnforcerApplication.printHelp(new String[] {"--quotient.enforcer.dry-run=true"}, System.out))
                .isFalse();
    }

    private static String kebab(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase();
    }
}
