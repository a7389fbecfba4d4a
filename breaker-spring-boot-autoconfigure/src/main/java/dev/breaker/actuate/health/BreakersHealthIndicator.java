package dev.breaker.actuate.health;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

import dev.breaker.actuate.BreakerTree;
import dev.breaker.core.Breaker;
import dev.breaker.core.State;

/**
 * Reports every breaker's state; an OPEN breaker leaves health UP unless its configuration
 * asks for OUT_OF_SERVICE or DOWN.
 * <p>
 * An open breaker is the breaker doing its job. Reporting it as DOWN by default would let an
 * orchestrator restart pods that are healthy and protecting themselves, which is the cascade
 * the breaker exists to stop.
 */
public class BreakersHealthIndicator implements HealthIndicator {

	private static final List<Status> WORST_FIRST = List.of(Status.DOWN, Status.OUT_OF_SERVICE, Status.UP);

	private final BreakerTree tree;

	private final Function<Breaker, Status> statusWhenOpen;

	/**
	 * @param tree every breaker
	 * @param statusWhenOpen the status a breaker reports while it is OPEN; must return UP,
	 * OUT_OF_SERVICE or DOWN
	 */
	public BreakersHealthIndicator(BreakerTree tree, Function<Breaker, Status> statusWhenOpen) {
		this.tree = tree;
		this.statusWhenOpen = statusWhenOpen;
	}

	@Override
	public Health health() {
		Map<String, Object> details = new LinkedHashMap<>();
		Status status = Status.UP;
		for (Breaker breaker : this.tree.breakers()) {
			State state = breaker.state();
			details.put(breaker.name(), state.name());
			if (state == State.OPEN) {
				status = worse(status, this.statusWhenOpen.apply(breaker));
			}
		}
		return Health.status(status).withDetails(details).build();
	}

	private static Status worse(Status a, Status b) {
		return (WORST_FIRST.indexOf(b) < WORST_FIRST.indexOf(a)) ? b : a;
	}

}
