package dev.breaker.sample.demo;

import java.util.List;

/**
 * What the fleet demo measured, for its closing table (and for the test that runs it).
 *
 * @param replicas each replica's part, in start order
 * @param recoveryProbes requests that reached the gateway between its heal and the first
 * close of the payments circuit after it (every replica was open or half-open meanwhile,
 * so these are probes), -1 if it did not close
 * @param recoveryRounds half-open rounds from the heal to that close: 1, plus one for
 * each round that reopened
 * @param probeSlots the fleet-wide limit on concurrent probes per episode
 * ({@code half-open.max-probes})
 * @param successesToClose the probes that must succeed to close
 * ({@code half-open.successes-to-close})
 * @param failuresToReopen the probes that must fail to reopen
 * ({@code half-open.failures-to-reopen})
 * @param redisDownMillis how long Redis was gone, from the kill to the restart
 * @param storeBackMillis from the restart until every replica's store said up again, -1
 * if not all did
 */
record FleetResult(List<Replica> replicas, long recoveryProbes, int recoveryRounds, int probeSlots,
		int successesToClose, int failuresToReopen, long redisDownMillis, long storeBackMillis) {

	/**
	 * One replica's part.
	 *
	 * @param name its replica id
	 * @param rate requests a second its customers sent
	 * @param tripMillis from the wedge to its payments breaker opening, -1 if it did not
	 * (or was not closed)
	 * @param tripCause {@code own rules}, or the peer whose trip opened it
	 * @param closedMillis from the heal to its payments breaker closing, -1 if it did not
	 * @param probesWhileWedged half-open probes it sent the wedged gateway
	 * @param probesAfterHeal half-open probes it sent the recovering gateway
	 * @param checkouts checkouts its customers sent after the warm-up
	 * @param checkoutsAnswered of those, answered (paid, or accepted with the payment
	 * queued)
	 * @param sentWhileRedisDown requests its customers sent from the kill until its store
	 * was up again
	 * @param failedWhileRedisDown of those, failed (error, time-out, not sent)
	 * @param storeSeenDown whether its store status showed Redis down during the outage
	 * @param storeErrors failed Redis commands and lost connections its store counted
	 */
	record Replica(String name, int rate, long tripMillis, String tripCause, long closedMillis, long probesWhileWedged,
			long probesAfterHeal, int checkouts, int checkoutsAnswered, int sentWhileRedisDown,
			int failedWhileRedisDown, boolean storeSeenDown, long storeErrors) {
	}

	long probesWhileWedged() {
		return this.replicas.stream().mapToLong(Replica::probesWhileWedged).sum();
	}

	long probesAfterHeal() {
		return this.replicas.stream().mapToLong(Replica::probesAfterHeal).sum();
	}

	/**
	 * Requests that failed while Redis was down or its return not yet seen: an upper
	 * bound of those Redis failed.
	 */
	int failedWhileRedisDown() {
		return this.replicas.stream().mapToInt(Replica::failedWhileRedisDown).sum();
	}

	/**
	 * The most probes one half-open round of the fleet can send: it ends at its last
	 * needed success or failure, before which at most {@code successesToClose - 1}
	 * succeeded and {@code failuresToReopen - 1} failed, and the slots are a concurrency
	 * limit, so up to {@code probeSlots - 1} more may be in flight.
	 */
	int probesPerRound() {
		return this.successesToClose + this.failuresToReopen + this.probeSlots - 2;
	}

	/**
	 * The most probes the recovery could send the gateway: {@link #probesPerRound()} in
	 * each round.
	 */
	long probeBound() {
		return (long) this.recoveryRounds * probesPerRound();
	}

}
