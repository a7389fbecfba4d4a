package dev.breaker.autoconfigure.redis;

import java.time.Duration;

import dev.breaker.autoconfigure.InvalidBreakerPropertyException;
import dev.breaker.redis.FleetSettings;
import io.lettuce.core.RedisURI;

import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;

/** Turns the properties into what the store needs, refusing values that cannot work. */
final class SharedRedisSettings {

    private static final int MIN_SIGNING_KEY = 16;

    private SharedRedisSettings() {
    }

    /** Stops start-up (reported by the starter's failure analysis) on a value that cannot work. */
    static void validate(SharedRedisProperties properties) {
        positive("breaker.shared.redis.timeout", properties.getTimeout());
        positive("breaker.shared.redis.reconnect-interval", properties.getReconnectInterval());
        positive("breaker.shared.redis.flush-interval", properties.getFlushInterval());
        Duration startup = properties.getStartupSyncTimeout();
        if (startup == null || startup.isNegative()) {
            throw new InvalidBreakerPropertyException("breaker.shared.redis.startup-sync-timeout", startup,
                    "a duration of 0 or more (0: do not wait for Redis at start-up)");
        }
        notEmpty("breaker.shared.redis.key-prefix", properties.getKeyPrefix());
        notEmpty("breaker.shared.redis.channel", properties.getChannel());
        if (properties.getQuorum() < 1) {
            throw new InvalidBreakerPropertyException("breaker.shared.redis.quorum", properties.getQuorum(),
                    "1 or more (1: any replica's trip opens the fleet)");
        }
        String key = properties.getSigningKey();
        if (key != null && !key.isEmpty() && key.length() < MIN_SIGNING_KEY) {
            // never echo a secret, not even a short one
            throw new InvalidBreakerPropertyException("breaker.shared.redis.signing-key", "<" + key.length() + " characters>",
                    "empty (no signing), or a secret of at least " + MIN_SIGNING_KEY + " characters shared by every replica");
        }
    }

    /** The store's settings from the properties (after {@link #validate}). */
    static FleetSettings settings(SharedRedisProperties properties) {
        return new FleetSettings(properties.getKeyPrefix(), properties.getChannel(), properties.getTimeout(),
                properties.getReconnectInterval(), properties.getQuorum(), properties.getSigningKey());
    }

    private static void positive(String property, Duration value) {
        if (value == null || value.isZero() || value.isNegative()) {
            throw new InvalidBreakerPropertyException(property, value, "a positive duration, e.g. 500ms");
        }
    }

    private static void notEmpty(String property, String value) {
        if (value == null || value.isEmpty()) {
            throw new InvalidBreakerPropertyException(property, value, "a non-empty string");
        }
    }

    /** The standalone server of {@code spring.data.redis.*}, or localhost:6379 as Spring Data Redis assumes. */
    static RedisURI redisUri(DataRedisConnectionDetails details) {
        if (details == null) {
            return RedisURI.create("127.0.0.1", 6379);
        }
        if (details.getSentinel() != null || details.getCluster() != null || details.getMasterReplica() != null) {
            throw new IllegalStateException("breaker.shared.redis needs a standalone Redis server (spring.data.redis.host/port "
                    + "or url); Sentinel, Cluster and master/replica set-ups are not supported yet");
        }
        DataRedisConnectionDetails.Standalone standalone = details.getStandalone();
        RedisURI.Builder uri = RedisURI.builder()
                .withHost(standalone.getHost())
                .withPort(standalone.getPort())
                .withDatabase(standalone.getDatabase());
        if (details.getPassword() != null) {
            if (details.getUsername() != null) {
                uri.withAuthentication(details.getUsername(), details.getPassword().toCharArray());
            } else {
                uri.withPassword(details.getPassword().toCharArray());
            }
        }
        if (details.getSslBundle() != null) {
            uri.withSsl(true);
        }
        return uri.build();
    }
}
