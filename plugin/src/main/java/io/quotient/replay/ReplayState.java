package io.quotient.replay;

import io.quotient.core.cluster.NodeSpec;
import java.util.Collection;
import java.util.List;

/**
 * What the replay holds at an instant, for listeners: the nodes, the jobs running and waiting. {@code version} changes
 * whenever any of it does, so a listener can keep what it derives until then.
 */
public interface ReplayState {

    List<NodeSpec> nodes();

    long capacityMilli();

    Collection<JobRun> running();

    Collection<JobRun> waiting();

    long version();
}
