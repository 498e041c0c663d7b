package io.quotient.app;

import io.quotient.adapters.rest.JsonErrorReportValve;
import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * Tomcat answers the requests it refuses itself in the API's JSON error shape: its HTML error valve (which Spring
 * Boot adds to the host) is removed and the host told to add {@link JsonErrorReportValve} instead. Ordered last so that it runs after Boot's own
 * customizer has added its valve.
 */
@Configuration(proxyBeanMethods = false)
public class ContainerErrorsConfiguration {

    @Bean
    @Order(Ordered.LOWEST_PRECEDENCE)
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> jsonContainerErrors() {
        return factory -> factory.addContextCustomizers(context -> {
            StandardHost host = (StandardHost) context.getParent();
            for (Valve valve : host.getPipeline().getValves()) {
                if (valve instanceof ErrorReportValve) {
                    host.getPipeline().removeValve(valve);
                }
            }
            // the host adds a valve of this class when it starts (and none of its own HTML one)
            host.setErrorReportValveClass(JsonErrorReportValve.class.getName());
        });
    }
}
