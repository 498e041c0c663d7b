package io.quotient.adapters.template;

import java.io.Reader;
import java.util.ArrayList;
import java.util.List;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.representer.Representer;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * Reads template files safely: plain maps, lists and scalars only (no Java types), duplicate keys refused,
 * no alias bombs, and dates left as strings (Kubernetes fields are never YAML timestamps).
 */
final class TemplateYaml {

    private TemplateYaml() {}

    /** The documents of a YAML stream; a template file must hold exactly one. */
    static List<Object> readAll(Reader reader) {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        options.setMaxAliasesForCollections(10);
        options.setAllowRecursiveKeys(false);
        Yaml yaml = new Yaml(
                new SafeConstructor(options),
                new Representer(new DumperOptions()),
                new DumperOptions(),
                options,
                new NoTimestampResolver());
        List<Object> documents = new ArrayList<>();
        yaml.loadAll(reader).forEach(documents::add);
        return documents;
    }

    /** YAML 1.1's implicit timestamps would turn {@code 2024-07-29} into a date; Kubernetes wants the string. */
    private static final class NoTimestampResolver extends Resolver {
        @Override
        protected void addImplicitResolvers() {
            addImplicitResolver(Tag.BOOL, BOOL, "yYnNtTfFoO");
            addImplicitResolver(Tag.INT, INT, "-+0123456789");
            addImplicitResolver(Tag.FLOAT, FLOAT, "-+0123456789.");
            addImplicitResolver(Tag.MERGE, MERGE, "<");
            addImplicitResolver(Tag.NULL, NULL, "~nN\0");
            addImplicitResolver(Tag.NULL, EMPTY, null);
        }
    }
}
