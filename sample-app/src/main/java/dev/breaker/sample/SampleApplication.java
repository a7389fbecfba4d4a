package dev.breaker.sample;

import java.util.Arrays;

import dev.breaker.sample.demo.FleetDemo;
import dev.breaker.sample.demo.IncidentDemo;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.EnableScheduling;

/** The checkout demo: a service that keeps answering while its payment gateway fails. */
@SpringBootApplication
@EnableScheduling
public class SampleApplication {

	/**
	 * Starts the app; with {@code --demo}, runs the scripted incident instead and exits;
	 * with {@code --fleet-demo}, the fleet of three replicas on an embedded Redis.
	 */
	public static void main(String[] args) throws InterruptedException {
		if (Arrays.asList(args).contains("--demo")) {
			IncidentDemo.main(Arrays.stream(args).filter((arg) -> !arg.equals("--demo")).toArray(String[]::new));
			System.exit(0);
		}
		if (Arrays.asList(args).contains("--fleet-demo")) {
			FleetDemo.main(Arrays.stream(args).filter((arg) -> !arg.equals("--fleet-demo")).toArray(String[]::new));
			System.exit(0);
		}
		SpringApplication.run(SampleApplication.class, args);
	}

}
