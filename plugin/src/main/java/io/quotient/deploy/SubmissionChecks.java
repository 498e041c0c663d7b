package io.quotient.deploy;

import io.quotient.core.request.LabelValue;
import io.quotient.core.request.RequestException;
import io.quotient.deploy.port.JobSubmission;
import io.quotient.deploy.port.TemplateTraits;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Checks the parts of a submission the scheduling core does not look at (template, image, labels, env, pod
 * options), so that a bad request is refused with the field named before anything is recorded. Names that would
 * let a job escape its quota are refused by {@link ReservedNames}.
 */
public final class SubmissionChecks {

    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    /** A Kubernetes object name (DNS-1123 subdomain), as a ClusterTrainingRuntime's. */
    private static final Pattern OBJECT_NAME =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    private SubmissionChecks() {}

    /**
     * @param templates the templates deploys may name (an adopted workload's job renders none: not checked)
     * @throws RequestException naming the field and the reason
     */
    public static void check(JobSubmission submission, Map<String, TemplateTraits> templates) {
        if (!submission.adopted()) {
            checkFitsTemplate(submission, templates);
        }
        PodOptionsChecks.checkImage(submission.image());
        checkArguments("command", submission.command());
        checkArguments("args", submission.args());
        submission.metadata().labels().forEach(SubmissionChecks::checkLabel);
        for (Map.Entry<String, String> e : submission.env().entrySet()) {
            if (!ENV_NAME.matcher(e.getKey()).matches()) {
                throw new RequestException(
                        "env." + e.getKey(),
                        "is not a valid environment variable name (letters,"
                                + " digits and '_', not starting with a digit)");
            }
            ReservedNames.checkEnv(e.getKey());
            if (e.getValue() == null) {
                throw new RequestException("env." + e.getKey(), "must have a value (a string), not null");
            }
            requireNoNul("env." + e.getKey(), e.getValue());
        }
        PodOptionsChecks.check(submission.pod());
        PodOptionsChecks.checkAnnotations(submission.metadata().annotations());
        String runtime = submission.runtime();
        if (runtime != null && runtime.isBlank()) {
            // as a blank template or image: an empty name was read as no runtime and the default taken in silence
            throw new RequestException(
                    "runtime",
                    "must not be empty; name a ClusterTrainingRuntime, or leave runtime out for the template's");
        }
        if (runtime != null
                && (runtime.length() > 253 || !OBJECT_NAME.matcher(runtime).matches())) {
            throw new RequestException(
                    "runtime",
                    "'" + runtime + "' is not a Kubernetes object name (lowercase"
                            + " letters, digits, '-' and '.', at most 253 characters); name a ClusterTrainingRuntime such as"
                            + " torch-distributed");
        }
    }

    /** Every entry a string a process can be given: no null, no NUL, and the executable (command[0]) named. */
    private static void checkArguments(String kind, List<String> values) {
        for (int i = 0; i < values.size(); i++) {
            String field = kind + "[" + i + "]";
            if (values.get(i) == null) {
                throw new RequestException(field, "must be a string, not null");
            }
            requireNoNul(field, values.get(i));
        }
        if (kind.equals("command") && !values.isEmpty() && values.get(0).isEmpty()) {
            throw new RequestException(
                    "command[0]",
                    "is empty, but it names the executable to run; leave command out"
                            + " to run the image's entrypoint");
        }
    }

    private static void requireNoNul(String field, String value) {
        if (value.indexOf('\0') >= 0) {
            throw new RequestException(
                    field, "contains a NUL character, which no container runtime passes to a" + " process");
        }
    }

    /** What the template cannot render is refused now, not when the placed job is rendered. */
    private static void checkFitsTemplate(JobSubmission submission, Map<String, TemplateTraits> templates) {
        String template = submission.template();
        if (template.isBlank()) {
            throw new RequestException(
                    "template",
                    "must not be empty; leave it out for the default template (" + JobSubmission.DEFAULT_TEMPLATE
                            + ")");
        }
        TemplateTraits traits = templates.get(template);
        if (traits == null) {
            throw new RequestException(
                    "template",
                    "unknown template '" + template + "'; known templates: "
                            + String.join(
                                    ", ", templates.keySet().stream().sorted().toList()));
        }
        Integer replicas = submission.request().gang().replicas();
        if (replicas != null && replicas > 1 && !traits.spansNodes()) {
            throw new RequestException(
                    "replicas",
                    "the template '" + template + "' runs one pod, so it cannot run "
                            + replicas + " replicas on " + replicas
                            + " nodes; use a template of kind PyTorchJob or TrainJob"
                            + " (e.g. pytorchjob, trainjob) — known templates that can: "
                            + String.join(
                                    ", ",
                                    templates.entrySet().stream()
                                            .filter(e -> e.getValue().spansNodes())
                                            .map(Map.Entry::getKey)
                                            .sorted()
                                            .toList()));
        }
        if (submission.runtime() != null && !traits.runsOnNamedRuntime()) {
            throw new RequestException(
                    "runtime",
                    "the template '" + template + "' runs on no training runtime; name"
                            + " a runtime only with a template of kind TrainJob (e.g. trainjob), or leave runtime out");
        }
    }

    private static void checkLabel(String key, String value) {
        String field = "labels." + key;
        ReservedNames.checkMetadataKey("labels", key);
        MetadataKeys.checkKey("labels", key);
        if (value == null) {
            throw new RequestException(field, "must have a value (a string, may be empty), not null");
        }
        if (!LabelValue.valid(value)) {
            throw new RequestException(
                    field,
                    "value '" + value + "' is not a valid Kubernetes label value (at most"
                            + " 63 characters of letters, digits, '-', '_', '.', starting and ending alphanumeric)");
        }
    }
}
