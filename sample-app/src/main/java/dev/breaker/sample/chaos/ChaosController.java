package dev.breaker.sample.chaos;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.breaker.sample.dependency.Chaos;
import dev.breaker.sample.dependency.ChaosMode;
import dev.breaker.sample.dependency.Dependencies;
import dev.breaker.sample.dependency.DependencyServer;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/** {@code /chaos}: shows and switches how each dependency misbehaves. */
@RestController
@RequestMapping("/chaos")
class ChaosController {

	private final Dependencies dependencies;

	ChaosController(Dependencies dependencies) {
		this.dependencies = dependencies;
	}

	@GetMapping
	Map<String, ChaosView> all() {
		Map<String, ChaosView> views = new LinkedHashMap<>();
		for (DependencyServer dependency : this.dependencies.all()) {
			views.put(dependency.name(), ChaosView.of(dependency));
		}
		return views;
	}

	@GetMapping("/{dependency}")
	ChaosView one(@PathVariable String dependency) {
		return ChaosView.of(find(dependency));
	}

	@PostMapping("/{dependency}")
	ChaosView change(@PathVariable String dependency, @RequestBody ChaosRequest request) {
		DependencyServer server = find(dependency);
		var defaults = this.dependencies.settings(dependency);
		ChaosMode mode = ChaosMode.fromLabel(request.mode());
		Duration slowLatency = (request.latencyMs() != null) ? Duration.ofMillis(request.latencyMs())
				: defaults.getSlowLatency();
		int failurePercent = (request.failurePercent() != null) ? request.failurePercent()
				: defaults.getFailurePercent();
		server.chaos(new Chaos(mode, slowLatency, failurePercent));
		return ChaosView.of(server);
	}

	private DependencyServer find(String name) {
		return this.dependencies.find(name)
			.orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND,
					"no dependency '" + name + "': use " + String.join(" or ", names())));
	}

	private Iterable<String> names() {
		return this.dependencies.all().stream().map(DependencyServer::name).toList();
	}

	@ExceptionHandler(IllegalArgumentException.class)
	ResponseEntity<Map<String, String>> badRequest(IllegalArgumentException ex) {
		return ResponseEntity.badRequest().body(Map.of("error", ex.getMessage()));
	}

}
