package dev.breaker.sample.dependency;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Starts the dependency servers with the application and stops them with it. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(DependencyProperties.class)
class DependencyConfiguration {

	@Bean
	Dependencies dependencies(DependencyProperties properties) {
		return new Dependencies(properties);
	}

}
