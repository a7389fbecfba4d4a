package dev.breaker.redis;

/**
 * The Lua scripts of fleet mode. Each runs atomically in Redis, so a key and its announcement, or a probe count
 * and its expiry, can never be seen half-written by another replica.
 */
final class FleetScripts {

    private FleetScripts() {
    }

    // KEYS: state, gen. ARGV: ttlMs, replica, reason, channel, name, onlyIfAbsent, genTtlMs
    static final String OPEN = """
            if ARGV[6] == '1' and redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
            local gen = redis.call('INCR', KEYS[2])
            redis.call('PEXPIRE', KEYS[2], ARGV[7])
            redis.call('HSET', KEYS[1], 'state', 'OPEN', 'gen', gen, 'replica', ARGV[2], 'reason', ARGV[3])
            redis.call('PEXPIRE', KEYS[1], ARGV[1])
            redis.call('PUBLISH', ARGV[4], 'OPEN\\n' .. gen .. '\\n' .. ARGV[1] .. '\\n' .. ARGV[2] .. '\\n' .. ARGV[5] .. '\\n' .. ARGV[3])
            return gen
            """;

    // KEYS: state, gen. ARGV: replica, reason, channel, name, genTtlMs
    static final String CLOSE = """
            local gen = redis.call('INCR', KEYS[2])
            redis.call('PEXPIRE', KEYS[2], ARGV[5])
            redis.call('DEL', KEYS[1])
            redis.call('PUBLISH', ARGV[3], 'CLOSED\\n' .. gen .. '\\n0\\n' .. ARGV[1] .. '\\n' .. ARGV[4] .. '\\n' .. ARGV[2])
            return gen
            """;

    // KEYS: state, gen. Returns state, gen, pttl, replica, reason, fleet gen — all strings.
    static final String READ = """
            local h = redis.call('HMGET', KEYS[1], 'state', 'gen', 'replica', 'reason')
            local ttl = redis.call('PTTL', KEYS[1])
            local g = redis.call('GET', KEYS[2])
            return {h[1] or '', h[2] or '0', tostring(ttl), h[3] or '', h[4] or '', g or '0'}
            """;

    // ARGV: key pattern. Every open circuit in the fleet: {key, gen, pttl, replica, reason} per entry.
    static final String SCAN = """
            local out = {}
            local cursor = '0'
            repeat
              local page = redis.call('SCAN', cursor, 'MATCH', ARGV[1], 'COUNT', 1000, 'TYPE', 'hash')
              cursor = page[1]
              for _, key in ipairs(page[2]) do
                local h = redis.call('HMGET', key, 'state', 'gen', 'replica', 'reason')
                local ttl = redis.call('PTTL', key)
                if h[1] == 'OPEN' and ttl > 0 then
                  table.insert(out, {key, h[2] or '0', tostring(ttl), h[3] or '', h[4] or ''})
                end
              end
            until cursor == '0'
            return out
            """;

    // KEYS: probes hash (replica -> slots). ARGV: max, want, replica, leaseMs, ttlMs.
    // Slots count only while their holder's lease key (<probes>:lease:<replica>) lives: a replica that dies
    // frees its slots within one lease. A replica asking again replaces its own earlier claim.
    static final String CLAIM = """
            local leases = KEYS[1] .. ':lease:'
            local used = 0
            local holders = redis.call('HGETALL', KEYS[1])
            for i = 1, #holders, 2 do
              local holder = holders[i]
              if holder ~= ARGV[3] then
                if redis.call('EXISTS', leases .. holder) == 1 then
                  used = used + tonumber(holders[i + 1])
                else
                  redis.call('HDEL', KEYS[1], holder)
                end
              end
            end
            local grant = math.min(tonumber(ARGV[2]), tonumber(ARGV[1]) - used)
            if grant > 0 then
              redis.call('HSET', KEYS[1], ARGV[3], grant)
              redis.call('SET', leases .. ARGV[3], '1', 'PX', ARGV[4])
            else
              grant = 0
              redis.call('HDEL', KEYS[1], ARGV[3])
            end
            redis.call('PEXPIRE', KEYS[1], ARGV[5])
            return grant
            """;
}
