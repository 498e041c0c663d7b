package io.quotient.enforcer.core;

/** Names one pod, for the usage report (the service joins on the UID, people read the name). */
public record PodRef(String namespace, String name, String uid) {

  public static PodRef of(PodInfo pod) {
    return new PodRef(pod.namespace(), pod.name(), pod.uid());
  }

  @Override
  public String toString() {
    return namespace + "/" + name;
  }
}
