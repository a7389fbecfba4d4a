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
import dev.breaker.core.BreakerNames;
import dev.breaker.core.State;

/**
 * Reports every top-level breaker's state and the children that are not CLOSED; an OPEN
 * breaker leaves health UP unless its configuration asks for OUT_OF_SERVICE or DOWN.
 * <p>
 * An open breaker is the breaker doing its job. Reporting it as DOWN by default would let
 * an orchestrator restart pods that are healthy and protecting themselves, which is the
 * cascade the breaker exists to stop.
 */
public class BreakersHealthIndicator implements HealthIndicator {

	private static final List<Status> WORST_FIRST = List.of(Status.DOWN, Status.OUT_OF_SERVICE, Status.UP);

	/**
	 * Per-tenant and per-host children can number thousands, and health is polled often:
	 * only children that are not CLOSED are listed, at most this many per group; the rest
	 * are counted.
	 */
	static final int MAX_LISTED_CHILDREN = 20;

	/** The details key counting, per group, the children not listed by name. */
	static final String UNLISTED_CHILDREN = "unlistedChildren";

	private final BreakerTree tree;

	private final Function<Breaker, Status> statusWhenOpen;

	/**
	 * @param tree every breaker
	 * @param statusWhenOpen the status a breaker reports while it is OPEN; must return
	 * UP, OUT_OF_SERVICE or DOWN
	 */
	public BreakersHealthIndicator(BreakerTree tree, Function<Breaker, Status> statusWhenOpen) {
		this.tree = tree;
		this.statusWhenOpen = statusWhenOpen;
	}

	@Override
	public Health health() {
		Map<String, Object> details = new LinkedHashMap<>();
		Map<String, Integer> unlisted = new LinkedHashMap<>();
		Status status = Status.UP;
		for (BreakerTree.Group group : this.tree.groups()) {
			if (group.breaker() != null) {
				status = report(group.breaker(), details, status);
			}
			int listed = 0;
			for (Breaker child : group.children()) {
				State state = child.state();
				if (state != State.CLOSED && listed < MAX_LISTED_CHILDREN) {
					status = report(child, details, status);
					listed++;
				}
				else {
					status = (state == State.OPEN) ? worse(status, this.statusWhenOpen.apply(child)) : status;
					unlisted.merge(BreakerNames.printable(group.name()), 1, Integer::sum);
				}
			}
		}
		if (!unlisted.isEmpty()) {
			details.put(UNLISTED_CHILDREN, unlisted);
		}
		return Health.status(status).withDetails(details).build();
	}

	private Status report(Breaker breaker, Map<String, Object> details, Status status) {
		State state = breaker.state();
		details.put(BreakerNames.printable(breaker.name()), state.name());
		return (state == State.OPEN) ? worse(status, this.statusWhenOpen.apply(breaker)) : status;
	}

	private static Status worse(Status a, Status b) {
		return (WORST_FIRST.indexOf(b) < WORST_FIRST.indexOf(a)) ? b : a;
	}

}
