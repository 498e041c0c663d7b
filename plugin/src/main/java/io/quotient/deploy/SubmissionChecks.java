package io.quotient.deploy;

import io.quotient.core.scheduling.RequestException;
import io.quotient.deploy.port.JobSubmission;
import io.quotient.deploy.port.TemplateTraits;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * Checks the parts of a submission the scheduling core does not look at (template, image, labels, env, pod
 * options), so that a bad request is refused with the field named before anything is recorded. Names that would
 * let a job escape its quota are refused by {@link ReservedNames}.
 */
public final class SubmissionChecks {

    private static final Pattern LABEL_NAME = Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)");
    private static final Pattern LABEL_PREFIX = Pattern.compile("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?");
    private static final Pattern LABEL_VALUE = Pattern.compile("(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?");
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    /** A Kubernetes object name (DNS-1123 subdomain), as a ClusterTrainingRuntime's. */
    private static final Pattern OBJECT_NAME =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    private SubmissionChecks() {
    }

    /**
     * @param templates the templates deploys may name (an adopted workload's job renders none: not checked)
     * @throws RequestException naming the field and the reason
     */
    public static void check(JobSubmission submission, Map<String, TemplateTraits> templates) {
        if (!submission.adopted()) {
            checkFitsTemplate(submission, templates);
        }
        PodOptionsChecks.checkImage(submission.image());
        submission.labels().forEach(SubmissionChecks::checkLabel);
        for (Map.Entry<String, String> e : submission.env().entrySet()) {
            if (!ENV_NAME.matcher(e.getKey()).matches()) {
                throw new RequestException("env." + e.getKey(), "is not a valid environment variable name (letters,"
                        + " digits and '_', not starting with a digit)");
            }
            ReservedNames.checkEnv(e.getKey());
            if (e.getValue() == null) {
                throw new RequestException("env." + e.getKey(), "must have a value");
            }
        }
        PodOptionsChecks.check(submission.pod());
        String runtime = submission.runtime();
        if (runtime != null && (runtime.length() > 253 || !OBJECT_NAME.matcher(runtime).matches())) {
            throw new RequestException("runtime", "'" + runtime + "' is not a Kubernetes object name (lowercase"
                    + " letters, digits, '-' and '.', at most 253 characters); name a ClusterTrainingRuntime such as"
                    + " torch-distributed");
        }
    }

    /** What the template cannot render is refused now, not when the placed job is rendered. */
    private static void checkFitsTemplate(JobSubmission submission, Map<String, TemplateTraits> templates) {
        String template = submission.template();
        TemplateTraits traits = templates.get(template);
        if (traits == null) {
            throw new RequestException("template", "unknown template '" + template + "'; known templates: "
                    + String.join(", ", templates.keySet().stream().sorted().toList()));
        }
        Integer replicas = submission.request().replicas();
        if (replicas != null && replicas > 1 && !traits.spansNodes()) {
            throw new RequestException("replicas", "the template '" + template + "' runs one pod, so it cannot run "
                    + replicas + " replicas on " + replicas + " nodes; use a template of kind PyTorchJob or TrainJob"
                    + " (e.g. pytorchjob, trainjob) — known templates that can: " + String.join(", ",
                    templates.entrySet().stream().filter(e -> e.getValue().spansNodes()).map(Map.Entry::getKey)
                            .sorted().toList()));
        }
        if (submission.runtime() != null && !traits.runsOnNamedRuntime()) {
            throw new RequestException("runtime", "the template '" + template + "' runs on no training runtime; name"
                    + " a runtime only with a template of kind TrainJob (e.g. trainjob), or leave runtime out");
        }
    }

    private static void checkLabel(String key, String value) {
        String field = "labels." + key;
        ReservedNames.checkMetadataKey("labels", key);
        int slash = key.indexOf('/');
        String name = slash < 0 ? key : key.substring(slash + 1);
        boolean prefixOk = slash < 0 || LABEL_PREFIX.matcher(key.substring(0, slash)).matches();
        if (!prefixOk || !LABEL_NAME.matcher(name).matches()) {
            throw new RequestException(field, "is not a valid Kubernetes label key ([prefix/]name, name at most 63"
                    + " characters of letters, digits, '-', '_', '.')");
        }
        if (value == null || !LABEL_VALUE.matcher(value).matches()) {
            throw new RequestException(field, "value '" + value + "' is not a valid Kubernetes label value (at most"
                    + " 63 characters of letters, digits, '-', '_', '.', starting and ending alphanumeric)");
        }
    }
}
