package dev.breaker.actuate.endpoint;

import org.junit.jupiter.api.Test;

import dev.breaker.core.Breaker;
import dev.breaker.core.BreakerConfig;
import dev.breaker.core.BreakerSetting;
import dev.breaker.core.ManualTicker;

import static org.assertj.core.api.Assertions.assertThat;

class SnapshotDescriptorTests {

	@Test
	void listsTrackInFlightAmongTheSettings() {
		Breaker breaker = Breaker.of("ledger",
				BreakerConfig.builder().trackInFlight(true).ticker(new ManualTicker()).build());

		SnapshotDescriptor descriptor = SnapshotDescriptor.of(breaker.snapshot());

		assertThat(descriptor.config()).containsEntry("trackInFlight", true);
	}

	@Test
	void listsEveryEngineSettingOfTheTable() {
		Breaker breaker = Breaker.of("ledger", BreakerConfig.builder().ticker(new ManualTicker()).build());

		SnapshotDescriptor descriptor = SnapshotDescriptor.of(breaker.snapshot());

		assertThat(descriptor.config().keySet()).containsExactlyElementsOf(
				BreakerSetting.of(BreakerSetting.Scope.ENGINE).stream().map(BreakerSetting::settingName).toList());
	}

}
