package io.quotient.enforcer.core;

import java.util.Collection;
import java.util.Optional;

/** Port: the pods on this node, as last seen from the API server. */
public interface PodDirectory {

    Optional<PodInfo> byUid(String uid);

    Collection<PodInfo> all();
}
