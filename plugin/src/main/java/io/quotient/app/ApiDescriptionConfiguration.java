package io.quotient.app;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.servers.Server;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The OpenAPI description's own fields ({@code /v3/api-docs}): the API's name and version, and its server as the
 * relative path "/". Left to the library, the server was the URL the request came in on, its host taken from the
 * request's {@code Host} header, so any caller could have the description name a host of its choosing.
 */
@Configuration(proxyBeanMethods = false)
public class ApiDescriptionConfiguration {

    @Bean
    OpenAPI quotientApi() {
        return new OpenAPI()
                .info(new Info()
                        .title("Quotient API")
                        .version("v1")
                        .description("Teams' GPU jobs, quotas and usage on a shared Kubernetes cluster; every error"
                                + " answer is an ErrorBody (docs/api-errors.md)"))
                .servers(List.of(new Server().url("/").description("this service")));
    }
}
