package io.quotient.adapters.template;

import io.quotient.deploy.port.TemplateTraits;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * The templates requests may name. Built from the built-in set shipped in the jar (copied from the
 * repository's {@code templates/} folder) and, optionally, a folder of {@code *.yaml} files whose templates
 * add to the built-ins or replace those of the same name. Every file is checked when the catalog is loaded;
 * all problems are reported together, each with its file.
 */
public final class TemplateCatalog {

    /** The built-in templates, by name; their files are {@code quotient/templates/<name>.yaml} on the classpath. */
    public static final List<String> BUILT_IN = List.of("job", "pytorchjob", "trainjob", "notebook");

    private static final String CLASSPATH_FOLDER = "quotient/templates/";

    private final Map<String, JobTemplate> templates;

    private TemplateCatalog(Map<String, JobTemplate> templates) {
        this.templates = Collections.unmodifiableMap(new TreeMap<>(templates));
    }

    /** The built-in templates only. */
    public static TemplateCatalog builtIn() {
        return load(Optional.empty());
    }

    /**
     * The built-in templates plus those of {@code folder} (when given).
     *
     * @throws TemplateException naming every malformed file and why; nothing is loaded then
     */
    public static TemplateCatalog load(Optional<Path> folder) {
        Map<String, JobTemplate> loaded = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        for (String name : BUILT_IN) {
            String resource = CLASSPATH_FOLDER + name + ".yaml";
            InputStream in = TemplateCatalog.class.getClassLoader().getResourceAsStream(resource);
            if (in == null) {
                problems.add("classpath:" + resource + ": missing from the build (templates/ is copied into the jar)");
                continue;
            }
            readOne(name, "classpath:" + resource, in, loaded, problems);
        }
        folder.ifPresent(dir -> readFolder(dir, loaded, problems));
        if (!problems.isEmpty()) {
            throw new TemplateException(problems);
        }
        return new TemplateCatalog(loaded);
    }

    public Optional<JobTemplate> find(String name) {
        return Optional.ofNullable(templates.get(name));
    }

    /** Every template by name (sorted), with what the deploy path checks a request against before recording it. */
    public Map<String, TemplateTraits> traits() {
        Map<String, TemplateTraits> traits = new TreeMap<>();
        templates.forEach((name, template) -> traits.put(name, template.traits()));
        return traits;
    }

    /** The names requests may use, sorted. */
    public List<String> names() {
        return List.copyOf(templates.keySet());
    }

    private static void readFolder(Path dir, Map<String, JobTemplate> loaded, List<String> problems) {
        if (!Files.isDirectory(dir)) {
            problems.add(dir + ": the configured template folder does not exist or is not a directory");
            return;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(TemplateCatalog::isYaml).sorted().toList()) {
                String fileName = file.getFileName().toString();
                String name = fileName.substring(0, fileName.lastIndexOf('.'));
                readOne(name, file.toString(), Files.newInputStream(file), loaded, problems);
            }
        } catch (IOException e) {
            problems.add(dir + ": cannot list the template folder: " + e.getMessage());
        }
    }

    private static boolean isYaml(Path file) {
        String name = file.getFileName().toString();
        return Files.isRegularFile(file) && (name.endsWith(".yaml") || name.endsWith(".yml"));
    }

    private static void readOne(
            String name, String source, InputStream in, Map<String, JobTemplate> loaded, List<String> problems) {
        try (Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
            List<Object> documents = TemplateYaml.readAll(reader);
            if (documents.size() != 1) {
                problems.add(source + ": holds " + documents.size() + " YAML documents; a template is exactly one");
                return;
            }
            loaded.put(name, JobTemplate.check(name, source, documents.get(0)));
        } catch (IOException | UncheckedIOException e) {
            problems.add(source + ": cannot be read: " + e.getMessage());
        } catch (MarkedYAMLException e) {
            Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            problems.add(source + (mark == null ? "" : ":" + (mark.getLine() + 1)) + ": not valid YAML: "
                    + (e.getContext() == null ? "" : e.getContext() + ", ") + e.getProblem());
        } catch (RuntimeException e) {
            // other SnakeYAML errors and our structural checks end here, with their reason
            problems.add(source + ": " + e.getMessage().strip());
        }
    }
}
