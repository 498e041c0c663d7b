package io.quotient.it.deploy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Samples of a Prometheus text scrape, looked up by metric name and labels. */
final class PrometheusSamples {

    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})?\\s+(\\S+).*$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    private record Sample(String name, Map<String, String> labels, double value) {}

    private final List<Sample> samples = new ArrayList<>();
    private final String text;

    PrometheusSamples(String text) {
        this.text = text;
        for (String line : text.split("\n")) {
            Matcher m = SAMPLE.matcher(line.trim());
            if (line.startsWith("#") || !m.matches()) {
                continue;
            }
            Map<String, String> labels = new HashMap<>();
            if (m.group(3) != null) {
                Matcher l = LABEL.matcher(m.group(3));
                while (l.find()) {
                    labels.put(l.group(1), l.group(2));
                }
            }
            samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(4))));
        }
    }

    /**
     * The value of the one sample of {@code name} whose labels include {@code labels}.
     *
     * @throws AssertionError when there is none or more than one, quoting the scrape's lines of that metric
     */
    double value(String name, Map<String, String> labels) {
        List<Sample> found = samples.stream()
                .filter(s -> s.name().equals(name) && s.labels().entrySet().containsAll(labels.entrySet()))
                .toList();
        if (found.size() != 1) {
            throw new AssertionError("expected one sample " + name + labels + " in the scrape, found " + found.size()
                    + ":\n"
                    + String.join(
                            "\n", text.lines().filter(l -> l.startsWith(name)).toList()));
        }
        return found.get(0).value();
    }

    /** The value, or {@code missing} when no sample of {@code name} has these labels (counters start absent). */
    double valueOr(String name, Map<String, String> labels, double missing) {
        boolean present = samples.stream()
                .anyMatch(s -> s.name().equals(name) && s.labels().entrySet().containsAll(labels.entrySet()));
        return present ? value(name, labels) : missing;
    }
}
