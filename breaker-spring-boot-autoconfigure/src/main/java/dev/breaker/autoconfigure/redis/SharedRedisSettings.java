package dev.breaker.autoconfigure.redis;

import java.time.Duration;

import io.lettuce.core.RedisURI;

import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;

/** Turns the properties into what the store needs, refusing values that cannot work. */
final class SharedRedisSettings {

    private SharedRedisSettings() {
    }

    static void validate(SharedRedisProperties properties) {
        positive("breaker.shared.redis.timeout", properties.getTimeout());
        positive("breaker.shared.redis.reconnect-interval", properties.getReconnectInterval());
        positive("breaker.shared.redis.flush-interval", properties.getFlushInterval());
        if (properties.getStartupSyncTimeout() == null || properties.getStartupSyncTimeout().isNegative()) {
            throw new IllegalArgumentException("'breaker.shared.redis.startup-sync-timeout' must be 0 or more but was "
                    + properties.getStartupSyncTimeout());
        }
        if (properties.getKeyPrefix() == null || properties.getKeyPrefix().isEmpty()) {
            throw new IllegalArgumentException("'breaker.shared.redis.key-prefix' must not be empty");
        }
        if (properties.getChannel() == null || properties.getChannel().isEmpty()) {
            throw new IllegalArgumentException("'breaker.shared.redis.channel' must not be empty");
        }
    }

    private static void positive(String property, Duration value) {
        if (value == null || value.isZero() || value.isNegative()) {
            throw new IllegalArgumentException("'" + property + "' must be a positive duration but was " + value);
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
