package io.quotient.it.kubeflow;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The pods the Training Operator makes for a PyTorchJob: for each replica type (Master first) {@code replicas} pods
 * named {@code <job>-<type>-<index>} from that type's template, with the operator's labels.
 */
final class PyTorchJobPods {

    static final String JOB_NAME_LABEL = "training.kubeflow.org/job-name";
    static final String REPLICA_TYPE_LABEL = "training.kubeflow.org/replica-type";
    static final String REPLICA_INDEX_LABEL = "training.kubeflow.org/replica-index";

    private PyTorchJobPods() {}

    static boolean suspended(JsonObject job) {
        return TrainingPods.isTrue(job, "spec", "runPolicy", "suspend");
    }

    static List<JsonObject> desired(JsonObject job) {
        JsonElement specs = TrainingPods.at(job, "spec", "pytorchReplicaSpecs");
        List<JsonObject> pods = new ArrayList<>();
        if (specs == null || !specs.isJsonObject()) {
            return pods;
        }
        List<String> types = new ArrayList<>(specs.getAsJsonObject().keySet());
        types.sort((a, b) -> a.equals("Master") ? -1 : b.equals("Master") ? 1 : a.compareTo(b));
        for (String type : types) {
            JsonObject replicaSpec = specs.getAsJsonObject().getAsJsonObject(type);
            int replicas =
                    replicaSpec.has("replicas") ? replicaSpec.get("replicas").getAsInt() : 1;
            JsonObject template = replicaSpec.has("template") ? replicaSpec.getAsJsonObject("template") : null;
            String lowerType = type.toLowerCase(Locale.ROOT);
            for (int index = 0; index < replicas; index++) {
                JsonObject pod = TrainingPods.fromTemplate(
                        template,
                        job,
                        TrainingPods.name(job) + "-" + lowerType + "-" + index,
                        Map.of(
                                JOB_NAME_LABEL,
                                TrainingPods.name(job),
                                REPLICA_TYPE_LABEL,
                                lowerType,
                                REPLICA_INDEX_LABEL,
                                Integer.toString(index)));
                pod.getAsJsonObject("spec").addProperty("restartPolicy", podRestartPolicy(replicaSpec));
                pods.add(pod);
            }
        }
        return pods;
    }

    /** The operator's ExitCode policy is its own (restart on retryable exit codes); the pod itself never restarts. */
    private static String podRestartPolicy(JsonObject replicaSpec) {
        String policy = replicaSpec.has("restartPolicy")
                ? replicaSpec.get("restartPolicy").getAsString()
                : "OnFailure";
        return policy.equals("ExitCode") ? "Never" : policy;
    }
}
