package dev.breaker.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Breakers by name, per-name config, bounded per-key children, the parent consulted. */
class BreakerRegistryTests {

	private final Fixture fixture = new Fixture();

	private final BreakerConfig defaults = fixture.config().build();

	@Test
	void returnsTheSameBreakerForTheSameName() {
		BreakerRegistry registry = BreakerRegistry.builder().defaults(defaults).build();
		assertThat(registry.breaker("payments")).isSameAs(registry.breaker("payments"));
		assertThat(registry.breakers()).extracting(Breaker::name).containsExactly("payments");
	}

	@Test
	void usesTheConfigOfTheNameElseTheDefaults() {
		BreakerConfig payments = defaults.toBuilder().consecutiveFailures(3).build();
		BreakerRegistry registry = BreakerRegistry.builder().defaults(defaults).config("payments", payments).build();
		assertThat(registry.breaker("payments").config()).isSameAs(payments);
		assertThat(registry.breaker("search").config()).isSameAs(defaults);
	}

	@Test
	void namesAChildAfterItsGroupAndKey() {
		BreakerRegistry registry = BreakerRegistry.builder().defaults(defaults).build();
		Breaker child = registry.breaker("recommendations", "user-42");
		assertThat(child.name()).isEqualTo("recommendations:user-42");
		assertThat(child.group()).isEqualTo("recommendations");
		assertThat(child.key()).isEqualTo("user-42");
		assertThat(child.parent()).isNull();
		assertThat(registry.breaker("recommendations", "user-42")).isSameAs(child);
		assertThat(registry.find("recommendations:user-42")).containsSame(child);
		assertThat(registry.children("recommendations")).containsExactly(child);
	}

	@Test
	void aChildTakesTheConfigOfItsFullNameThenOfItsGroup() {
		BreakerConfig http = defaults.toBuilder().consecutiveFailures(2).build();
		BreakerConfig acme = defaults.toBuilder().consecutiveFailures(9).build();
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(defaults)
			.config("http", http)
			.config("http:api.acme.com:8443", acme)
			.build();
		assertThat(registry.breaker("http", "api.acme.com:8443").config()).isSameAs(acme);
		assertThat(registry.breaker("http", "other.com").config()).isSameAs(http);
	}

	@Test
	void evictsTheLeastRecentlyUsedChildBeyondMaxEntries() {
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(defaults)
			.children("tenants", new BreakerRegistry.Children(2, Duration.ofHours(1), false))
			.build();
		List<String> removed = new ArrayList<>();
		registry.onRemoved(b -> removed.add(b.name()));
		registry.breaker("tenants", "a");
		registry.breaker("tenants", "b");
		registry.breaker("tenants", "a");
		registry.breaker("tenants", "c");
		assertThat(removed).containsExactly("tenants:b");
		assertThat(registry.children("tenants")).extracting(Breaker::key).containsExactlyInAnyOrder("a", "c");
	}

	@Test
	void expiresIdleChildren() {
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(defaults)
			.children("tenants", new BreakerRegistry.Children(100, Duration.ofMinutes(5), false))
			.build();
		List<String> removed = new ArrayList<>();
		registry.onRemoved(b -> removed.add(b.name()));
		Breaker old = registry.breaker("tenants", "a");
		fixture.advance(Duration.ofMinutes(5));
		assertThat(registry.find("tenants:a")).isEmpty();
		registry.breaker("tenants", "b");
		assertThat(removed).containsExactly("tenants:a");
		assertThat(registry.breaker("tenants", "a")).isNotSameAs(old);
	}

	@Test
	void aChildThatConsultsItsParentIsRejectedWhenTheParentIsOpen() throws Exception {
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(defaults)
			.children("recommendations", new BreakerRegistry.Children(10, Duration.ofMinutes(5), true))
			.build();
		Breaker child = registry.breaker("recommendations", "user-42");
		Breaker parent = registry.breaker("recommendations");
		assertThat(child.parent()).isSameAs(parent);
		parent.forceOpen();
		Permit p = child.acquire();
		assertThat(p.granted()).isFalse();
		org.assertj.core.api.Assertions.assertThatThrownBy(() -> child.call(() -> "x")).isSameAs(parent.rejection());
		assertThat(child.state()).isEqualTo(State.CLOSED);
	}

	@Test
	void aChildThatConsultsItsParentRecordsInBoth() throws Exception {
		BreakerRegistry registry = BreakerRegistry.builder()
			.defaults(defaults)
			.children("recommendations", new BreakerRegistry.Children(10, Duration.ofMinutes(5), true))
			.build();
		Breaker a = registry.breaker("recommendations", "user-1");
		Breaker b = registry.breaker("recommendations", "user-2");
		Fixture.fail(a, 2);
		Fixture.fail(b, 2);
		Breaker parent = registry.breaker("recommendations");
		assertThat(parent.state()).isEqualTo(State.CLOSED);
		Fixture.fail(a, 1);
		assertThat(parent.totals().calls(Outcome.FAILURE)).isEqualTo(5);
		assertThat(parent.state()).isEqualTo(State.OPEN);
		assertThat(a.state()).isEqualTo(State.CLOSED);
		assertThat(registry.breaker("recommendations", "user-3").acquire().granted()).isFalse();
	}

	@Test
	void announcesCreatedBreakersAndForwardsEveryTransition() {
		BreakerRegistry registry = BreakerRegistry.builder().defaults(defaults).build();
		List<String> created = new ArrayList<>();
		List<Transition> transitions = new ArrayList<>();
		registry.onCreated(b -> created.add(b.name()));
		registry.onTransition(transitions::add);
		registry.breaker("payments").forceOpen();
		registry.breaker("http", "acme").disable();
		assertThat(created).containsExactly("payments", "http:acme");
		assertThat(transitions).extracting(Transition::breaker).containsExactly("payments", "http:acme");
	}

	@Test
	void validatesTheChildrenPolicy() {
		assertThatThrownBy(() -> new BreakerRegistry.Children(0, Duration.ofMinutes(1), false))
			.hasMessage("'maxEntries' must be at least 1 but was 0");
		assertThatThrownBy(() -> new BreakerRegistry.Children(1, Duration.ZERO, false))
			.hasMessage("'idleExpiry' must be a positive duration but was 0ms");
		assertThatThrownBy(() -> new BreakerRegistry.Children(1, Duration.ofMinutes(1), true, 0, 128))
			.hasMessage("'minFailingChildren' must be in [1, 100] but was 0");
		assertThatThrownBy(() -> new BreakerRegistry.Children(1, Duration.ofMinutes(1), true, 3, 31))
			.hasMessage("'maxKeyLength' must be in [32, 1024] but was 31");
	}

}
