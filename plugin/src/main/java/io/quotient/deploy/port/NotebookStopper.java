package io.quotient.deploy.port;

import java.time.Instant;

/**
 * Stops a Kubeflow Notebook the Kubeflow way: the annotation {@code kubeflow-resource-stopped} (an RFC 3339 time) on
 * the Notebook object, which its controller honours by scaling the notebook's StatefulSet to zero; its volumes and
 * everything its user saved stay, and the user starts it again from the Kubeflow UI. Nothing is deleted.
 */
public interface NotebookStopper {

    /** The annotation Kubeflow's notebook controller stops a Notebook by. */
    String STOPPED_ANNOTATION = "kubeflow-resource-stopped";

    /**
     * Stops the Notebook whose pod {@code record} governs (adopted at the pod's admission), stamped {@code at}.
     *
     * @return false when the job governs no Notebook's pod, or its Notebook is not found (nothing was changed)
     */
    boolean stop(JobRecord record, Instant at);

    /** Where no Notebook can exist (the embedded cluster). */
    NotebookStopper NONE = (record, at) -> false;
}
