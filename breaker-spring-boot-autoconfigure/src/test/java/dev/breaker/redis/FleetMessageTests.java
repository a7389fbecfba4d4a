package dev.breaker.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.breaker.core.State;
import org.junit.jupiter.api.Test;

/** The wire form: anything round-trips, nothing malformed is taken for a message. */
class FleetMessageTests {

	@Test
	void everyKindRoundTripsWhateverItsFieldsHold() {
		FleetMessage open = new FleetMessage(FleetMessage.Kind.OPEN, "payments:tenant\n7", "e1", 30_000, null, "r:1",
				1_733_000_000_000L, "a reason\nwith 12:colons and bf2 inside", "c2ln");
		FleetMessage override = new FleetMessage(FleetMessage.Kind.OVERRIDE, "payments", "", 0, State.FORCED_OPEN, "r1",
				-1, "operator", "");

		assertThat(FleetMessage.decode(open.encode())).isEqualTo(open);
		assertThat(FleetMessage.decode(override.encode())).isEqualTo(override);
	}

	@Test
	void textThatIsNotOneOfOursIsNoMessage() {
		String good = new FleetMessage(FleetMessage.Kind.CLOSED, "payments", "e1", 0, null, "r1", 5, "ok", "").encode();

		assertThat(FleetMessage.decode("OPEN\n100\n315360000000\nr9\npayments\nmaintenance")).isNull();
		assertThat(FleetMessage.decode(good.substring(0, good.length() - 1))).isNull();
		assertThat(FleetMessage.decode(good + "x")).isNull();
		assertThat(FleetMessage.decode(good.replace("CLOSED", "CLOSES"))).isNull();
		assertThat(FleetMessage.decode("bf299999999999:x")).isNull();
		assertThat(FleetMessage.decode("bf2-1:x")).isNull();
		assertThat(FleetMessage.decode("")).isNull();
		assertThat(FleetMessage.decode(null)).isNull();
	}

}
