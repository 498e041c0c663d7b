package io.quotient.app.cli;

import io.quotient.app.QuotientApplication;
import java.util.Arrays;
import org.springframework.boot.SpringApplication;

/** {@code serve}: starts the service (REST API on port 8080 by default) on Kubernetes or the embedded cluster. */
public final class ServeCommand implements CliCommand {

    static final String HELP = """
            Usage: java -jar quotient.jar serve [--name=value ...]

            Starts the Quotient control plane: REST API (/api/v1, OpenAPI at /v3/api-docs), Actuator
            (/actuator/health, /actuator/prometheus) and the periodic re-queue, reclaim and defragmentation.

            The cluster is found as kubectl finds it: --quotient.kubeconfig, then KUBECONFIG, then the pod's
            service account; one start-up line says which. With none of them it runs on an embedded in-memory cluster (4 nodes x 10 GPUs,
            teams team-a and team-b with 20 guaranteed GPUs each), so you can try the API at once.

            Options (any Spring Boot property; also as environment variables, e.g. QUOTIENT_TEAMS_FILE):
              --quotient.cluster.mode=auto|embedded|kubernetes   cluster to work on (default auto)
              --quotient.kubeconfig=PATH                         kubeconfig (else KUBECONFIG); selects Kubernetes in auto mode
              --quotient.teams-file=PATH                         teams, quotas and namespaces (YAML), re-read on change
              --quotient.access.mode=auto|kubernetes|open        REST access: Kubernetes TokenReview/SubjectAccessReview
                                                                 on a cluster, open on the embedded demo (auto)
              --quotient.access.cache-ttl=10s                    how long access answers are reused
              --quotient.admission.port=8443                     HTTPS port of the admission webhooks (unset: none)
              --quotient.admission.tls-cert-file=PATH            a mounted PEM certificate (e.g. cert-manager's)
              --quotient.admission.tls-key-file=PATH             and its key; both unset: the service issues its own
                                                                 into the Secret quotient-webhook-tls and sets the
                                                                 webhooks' caBundle itself
              --quotient.admission.ca-bundle-check=30s           how often the caBundle is checked and set again
              --quotient.embedded.cluster-file=PATH              nodes of the embedded cluster (YAML)
              --quotient.templates-folder=PATH                   extra or replacing job templates (*.yaml)
              --quotient.scheduling.placement-policy=NAME        quotient (default), fgd, bestfit, packing, ...
              --quotient.scheduling.stop-grace=30s               grace period of evicted and deleted jobs
              --quotient.schedules.requeue-interval=5s           re-queue of waiting jobs
              --quotient.schedules.reclaim-interval=15s          return of borrowed GPUs
              --quotient.schedules.defragment-cron="0 0 3 * * ?" defragmentation (Quartz cron)
              --quotient.schedules.defragment-max-moved-share=0.1
              --quotient.schedules.requeue-max-relabels=50       stored quota states rewritten per re-queue
              --server.port=8080
            """;

    @Override
    public int run(String[] args) {
        if (Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h")) {
            System.out.println(HELP);
            return 0;
        }
        SpringApplication.run(QuotientApplication.class, args);
        return 0;
    }

    @Override
    public String summary() {
        return "run the control plane service (REST API; embedded cluster when no Kubernetes is configured)";
    }
}
