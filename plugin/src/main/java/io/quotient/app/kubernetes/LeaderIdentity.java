package io.quotient.app.kubernetes;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.UUID;

/** This replica's name in the leader-election Lease and as the reporting instance of its Events. */
record LeaderIdentity(String value) {

    /** The configured identity, else $POD_NAME, else the host name with a random suffix. */
    static LeaderIdentity of(String configured) {
        if (configured != null && !configured.isBlank()) {
            return new LeaderIdentity(configured);
        }
        String pod = System.getenv("POD_NAME");
        if (pod != null && !pod.isBlank()) {
            return new LeaderIdentity(pod);
        }
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "quotient";
        }
        // two replicas on one host (tests, laptops) still need distinct identities
        return new LeaderIdentity(host + "-" + UUID.randomUUID().toString().substring(0, 8));
    }
}
