package io.quotient.enforcer.app;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The node enforcer: one per GPU node (DaemonSet), makes GPU memory requests and limits real. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class NodeEnforcerApplication {

  public static void main(String[] args) {
    SpringApplication.run(NodeEnforcerApplication.class, args);
  }
}
