package io.quotient.deploy.port;

import java.util.Optional;

/**
 * What the deploy path must know of a template to refuse a request it cannot render before anything is recorded.
 *
 * @param preemptible whether its jobs are preemptible when a request does not say; null: the template does not declare
 * @param spansNodes  whether it runs a job of several replicas one per node (PyTorchJob, TrainJob)
 * @param runsOnNamedRuntime whether a request may name the training runtime it runs on (TrainJob)
 */
public record TemplateTraits(Boolean preemptible, boolean spansNodes, boolean runsOnNamedRuntime) {

    /** What the template declares about preemption, empty when it declares nothing. */
    public Optional<Boolean> preemptibleByDefault() {
        return Optional.ofNullable(preemptible);
    }
}
