package io.quotient.it.harness;

/** A process of the local control plane that a test may restart (a fault: {@link ControlPlane#restart}). */
public enum PlaneComponent {
    ETCD("etcd"),
    API_SERVER("kube-apiserver");

    private final String processName;

    PlaneComponent(String processName) {
        this.processName = processName;
    }

    /** The name {@code bin/control-plane} knows it by. */
    public String processName() {
        return processName;
    }
}
