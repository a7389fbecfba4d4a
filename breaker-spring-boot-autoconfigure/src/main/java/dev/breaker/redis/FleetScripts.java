package dev.breaker.redis;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The Lua scripts of fleet mode. Each runs atomically in Redis, so a key and its
 * announcement, or a probe count and its lease, are never seen half-written. Every key a
 * script touches comes in {@code KEYS} from {@link FleetKeys} (all of one breaker, so one
 * hash slot); times are Redis's own ({@code TIME}). Scripts do a bounded amount of work
 * (a breaker's few hashes), never a walk over the keyspace, and tolerate garbage: a key
 * of the wrong type is replaced, a value they cannot parse is dropped.
 */
final class FleetScripts {

	/**
	 * A script and its SHA-1: run with {@code EVALSHA}, so the body crosses the wire only
	 * when Redis lacks it. A command that gets NOSCRIPT (Redis restarted or its scripts
	 * were flushed) is sent again with the body, after commands sent later may already
	 * have run. That is safe: a close or an override of a breaker is sent only once the
	 * trip before it was answered ({@link PublishOrder}), a late close names the episode
	 * it ends (so it cannot end a newer one), and operations of different breakers or
	 * episodes never depend on each other's order. At worst a late close withdraws a
	 * newer vote of the same replica, which only delays the quorum.
	 */
	record Script(String name, String body, String sha) {

		static Script of(String name, String body) {
			try {
				byte[] sha = MessageDigest.getInstance("SHA-1").digest(body.getBytes(StandardCharsets.UTF_8));
				Script script = new Script(name, body, HexFormat.of().formatHex(sha));
				ALL.add(script);
				return script;
			}
			catch (NoSuchAlgorithmException e) {
				throw new IllegalStateException(e);
			}
		}
	}

	/** Every script, loaded into Redis as a connection opens. */
	static final List<Script> ALL = new ArrayList<>();

	private FleetScripts() {
	}

	private static final String PRELUDE = """
			local function hashOrNothing(key)
			  local t = redis.call('TYPE', key).ok
			  if t ~= 'hash' and t ~= 'none' then redis.call('DEL', key) end
			end
			local function nowMillis()
			  local t = redis.call('TIME')
			  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
			end
			local function int(n) return string.format('%.0f', n) end
			-- a vote lasts its replica's open wait: at most a max-open-wait, at most 24 h; an hour
			-- more, for a Redis clock that steps back (a failover to a replica behind it)
			local MOST_VOTE_MS = 90000000
			-- the open circuit in a state hash; episode '' when there is none, or only garbage that cannot be one
			local function openCircuit(key)
			  local h = redis.call('HMGET', key, 'episode', 'ttl', 'replica', 'reason', 'issued', 'sig')
			  for i = 1, 6 do if not h[i] then h[i] = '' end end
			  local pttl = redis.call('PTTL', key)
			  h[7] = tostring(pttl)
			  if not (tonumber(h[2]) and tonumber(h[5]) and pttl > 0) then h[1] = '' end
			  return h
			end
			""";

	/**
	 * Opens the circuit fleet-wide and announces it, unless another episode is open (then
	 * returns that one). KEYS: state, votes. ARGV: episode, ttlMs, replica, reason,
	 * issued, sig, channel, message, mode ({@code absent}: only where no episode is open;
	 * {@code replace:<episode>}: also over that episode, which this replica's failed
	 * probes just ended). The state hash keeps, as {@code opened}, Redis's time when the
	 * episode opened ({@link #OVERRIDE}: a reset sent again ends only an episode opened
	 * before it was decided). Returns {@code {'opened'}} or {@code {'open', episode, ttl,
	 * replica, reason, issued, sig, pttl}}.
	 */
	static final Script OPEN = Script.of("open", PRELUDE + """
			if redis.call('EXISTS', KEYS[1]) == 1 then
			  hashOrNothing(KEYS[1])
			  local h = openCircuit(KEYS[1])
			  if h[1] ~= '' and ARGV[9] ~= ('replace:' .. h[1]) then
			    table.insert(h, 1, 'open')
			    return h
			  end
			end
			redis.call('DEL', KEYS[1], KEYS[2])
			redis.call('HSET', KEYS[1], 'state', 'OPEN', 'episode', ARGV[1], 'ttl', ARGV[2], 'replica', ARGV[3],
			  'reason', ARGV[4], 'issued', ARGV[5], 'sig', ARGV[6], 'opened', int(nowMillis()))
			redis.call('PEXPIRE', KEYS[1], ARGV[2])
			redis.call('PUBLISH', ARGV[7], ARGV[8])
			return {'opened'}
			""");

	/**
	 * Counts this replica's trip toward the quorum until its open wait ends; a vote found
	 * to end later than any open wait can (24 h from now) is garbage, and dropped. KEYS:
	 * state, votes. ARGV: replica, ttlMs, value ({@code issued|ttl|sig}). Returns
	 * {@code {votes, episode, ttl, replica, reason, issued, sig, pttl}}: every live vote
	 * as a flat replica/value list (this one included; values
	 * {@code expiresAt|issued|ttl|sig}), then the open circuit if there is one (episode
	 * "" when none).
	 */
	static final Script VOTE = Script.of("vote", PRELUDE + """
			hashOrNothing(KEYS[1])
			hashOrNothing(KEYS[2])
			local now = nowMillis()
			local mine = now + tonumber(ARGV[2])
			local last = mine
			local live = {}
			local votes = redis.call('HGETALL', KEYS[2])
			for i = 1, #votes, 2 do
			  if votes[i] ~= ARGV[1] then
			    local expires = tonumber(string.match(votes[i + 1], '^(%d+)|'))
			    if expires == nil or expires <= now or expires > now + MOST_VOTE_MS then
			      redis.call('HDEL', KEYS[2], votes[i])
			    else
			      live[#live + 1] = votes[i]
			      live[#live + 1] = votes[i + 1]
			      if expires > last then last = expires end
			    end
			  end
			end
			local value = int(mine) .. '|' .. ARGV[3]
			redis.call('HSET', KEYS[2], ARGV[1], value)
			redis.call('PEXPIREAT', KEYS[2], int(last))
			live[#live + 1] = ARGV[1]
			live[#live + 1] = value
			local h = openCircuit(KEYS[1])
			table.insert(h, 1, live)
			return h
			""");

	/**
	 * This replica's breaker closed. Its vote is withdrawn; if it was following episode
	 * {@code episode} and that episode is still the fleet's (or has run out), the episode
	 * ends fleet-wide and the close is announced. KEYS: state, votes. ARGV: episode (""
	 * when it followed none), replica, channel, message. Returns 1 when announced.
	 */
	static final Script CLOSE = Script.of("close", PRELUDE + """
			hashOrNothing(KEYS[1])
			hashOrNothing(KEYS[2])
			redis.call('HDEL', KEYS[2], ARGV[2])
			if ARGV[1] == '' then return 0 end
			local current = openCircuit(KEYS[1])[1]
			if current ~= '' and current ~= ARGV[1] then return 0 end
			redis.call('DEL', KEYS[1], KEYS[2])
			redis.call('PUBLISH', ARGV[3], ARGV[4])
			return 1
			""");

	/**
	 * An operator's fleet-wide override: FORCED_OPEN and DISABLED stand (for replicas
	 * started later too) until an operator's CLOSED, which also ends any open episode.
	 * The decided hash keeps the latest decision time Redis took (a CLOSED too, which
	 * leaves no override hash) and, as {@code taken}, the signature of the override Redis
	 * took last, so a reader takes a stored override only if it is that one (a copy of an
	 * older one written back is not); it stands as long as the override, and a day after
	 * a CLOSED. An override sent again ({@code ARGV[9]} 1) is taken only if no decision
	 * Redis took was decided after it, so an old decision sent again never overrules a
	 * later one. A decision sent for the first time is taken as it comes. A CLOSED sent
	 * again ends only an episode opened before it was decided (the state hash's
	 * {@code opened}, Redis's time; for a hash written without one, its {@code issued};
	 * neither a time Redis had: ended): a trip after the reset stands, though the reset
	 * is taken (it still ends an older standing override). KEYS: state, votes, override,
	 * decided. ARGV: state, replica, reason, issued, sig, channel, message, decidedAt
	 * (ms, Redis's time as the deciding replica estimated it), again (1: sent again).
	 * Returns 1 when taken, 0 when a later decision stands.
	 */
	static final Script OVERRIDE = Script.of("override", PRELUDE + """
			hashOrNothing(KEYS[4])
			local stamp = tonumber(redis.call('HMGET', KEYS[4], 'at')[1])
			local decidedAt = tonumber(ARGV[8]) or -1
			if ARGV[9] == '1' and stamp and stamp > decidedAt then return 0 end
			if decidedAt >= 0 and (not stamp or decidedAt > stamp) then stamp = decidedAt end
			redis.call('DEL', KEYS[3], KEYS[4])
			redis.call('HSET', KEYS[4], 'taken', ARGV[5])
			if stamp then redis.call('HSET', KEYS[4], 'at', int(stamp)) end
			if ARGV[1] == 'CLOSED' then
			  redis.call('PEXPIRE', KEYS[4], 86400000)
			  hashOrNothing(KEYS[1])
			  local h = openCircuit(KEYS[1])
			  local now = nowMillis()
			  -- HMGET: the production ACL allows it, not HGET
			  local opened = tonumber(redis.call('HMGET', KEYS[1], 'opened')[1])
			  if not (opened and opened >= 0 and opened <= now) then opened = tonumber(h[5]) end
			  local newer = ARGV[9] == '1' and decidedAt >= 0 and h[1] ~= '' and opened and opened <= now
			    and opened > decidedAt
			  if not newer then redis.call('DEL', KEYS[1], KEYS[2]) end
			else
			  redis.call('HSET', KEYS[3], 'state', ARGV[1], 'replica', ARGV[2], 'reason', ARGV[3], 'issued', ARGV[4],
			    'sig', ARGV[5])
			end
			redis.call('PUBLISH', ARGV[6], ARGV[7])
			return 1
			""");

	/**
	 * Claims up to {@code want} of the {@code max} probe slots of one episode. A holder
	 * counts while its lease runs (a replica that dies or stops renewing frees its slots
	 * within one lease); holders this replica found not genuine (ARGV from 8 on) are
	 * dropped. A replica asking again replaces its own claim. A replica with traffic that
	 * gets nothing leaves a mark ({@code ~wanted~}: when), so a holder without traffic
	 * gives its slots up. KEYS: probes. ARGV: max, want, replica, leaseMs, ttlMs, value
	 * ({@code want|sig}), wanting (1: this replica has traffic), distrusted holders...
	 * Returns {@code {grant, holders, wantedAt, now}}: the slots granted (0 when others
	 * hold them all), the other live holders as a flat holder/value list (values
	 * {@code slots|leaseUntil|want|sig}), when a replica with traffic last got nothing
	 * (0: never), and Redis's time.
	 */
	static final Script CLAIM = Script.of("claim", PRELUDE + """
			hashOrNothing(KEYS[1])
			local now = nowMillis()
			local distrusted = {}
			for i = 8, #ARGV do distrusted[ARGV[i]] = true end
			local used = 0
			local others = {}
			local wanted = 0
			local holders = redis.call('HGETALL', KEYS[1])
			for i = 1, #holders, 2 do
			  local holder, value = holders[i], holders[i + 1]
			  if holder == '~wanted~' then
			    wanted = tonumber(value) or 0
			    -- a time Redis had then, or garbage ('1e400' reads as infinity)
			    if not (wanted >= 0 and wanted <= now) then wanted = 0 end
			  elseif holder ~= ARGV[3] then
			    local slots, lease = string.match(value, '^(%d+)|(%d+)|')
			    if slots == nil or tonumber(lease) <= now or distrusted[holder] then
			      redis.call('HDEL', KEYS[1], holder)
			    else
			      used = used + tonumber(slots)
			      others[#others + 1] = holder
			      others[#others + 1] = value
			    end
			  end
			end
			local grant = math.min(tonumber(ARGV[2]), tonumber(ARGV[1]) - used)
			if grant > 0 then
			  redis.call('HSET', KEYS[1], ARGV[3], int(grant) .. '|' .. int(now + tonumber(ARGV[4])) .. '|' .. ARGV[6])
			else
			  grant = 0
			  redis.call('HDEL', KEYS[1], ARGV[3])
			  if ARGV[7] == '1' then
			    wanted = now
			    redis.call('HSET', KEYS[1], '~wanted~', int(now))
			  end
			end
			redis.call('PEXPIRE', KEYS[1], ARGV[5])
			return {grant, others, int(wanted), int(now)}
			""");

	/**
	 * Reads the named fields of one hash and its PTTL, for the reconnect read. KEYS: the
	 * hash. ARGV: field names. Returns the values ("" when missing), then the PTTL.
	 */
	static final Script READ = Script.of("read", """
			local h = redis.call('HMGET', KEYS[1], unpack(ARGV))
			for i = 1, #ARGV do if not h[i] then h[i] = '' end end
			h[#ARGV + 1] = tostring(redis.call('PTTL', KEYS[1]))
			return h
			""");

	/**
	 * A breaker's standing override and what Redis took last about it, read together: the
	 * reconnect read compares when that decision was made with an override this replica
	 * decided while Redis did not take it, and with signing on a stored override is taken
	 * only if it is the one Redis took last. A key that is not a hash reads as empty.
	 * KEYS: override, decided. ARGV: the override's fields. Returns the fields ('' when
	 * absent), the decided hash's {@code at} and its {@code taken} ('' when unknown).
	 */
	static final Script READ_OVERRIDE = Script.of("read-override", """
			local function fields(key, names)
			  local h = {}
			  if redis.call('TYPE', key).ok == 'hash' then h = redis.call('HMGET', key, unpack(names)) end
			  for i = 1, #names do if not h[i] then h[i] = '' end end
			  return h
			end
			local h = fields(KEYS[1], ARGV)
			local decided = fields(KEYS[2], {'at', 'taken'})
			h[#ARGV + 1] = decided[1]
			h[#ARGV + 2] = decided[2]
			return h
			""");

	/**
	 * The fleet window, for a batch of breakers: stores this replica's counts of its
	 * current bucket and returns every replica's counts over the window. KEYS: a window
	 * hash per breaker. ARGV per breaker: bucketMs, buckets, field
	 * ({@code <bucket>:<replica>}, "" when nothing new), value. Fields of buckets outside
	 * the window are dropped. Returns a flat field/value list per breaker.
	 */
	static final Script WINDOW = Script.of("window", PRELUDE + """
			local now = nowMillis()
			local out = {}
			for i, key in ipairs(KEYS) do
			  local o = (i - 1) * 4
			  local bucketMs = tonumber(ARGV[o + 1])
			  local n = tonumber(ARGV[o + 2])
			  local current = math.floor(now / bucketMs)
			  hashOrNothing(key)
			  if ARGV[o + 3] ~= '' then redis.call('HSET', key, ARGV[o + 3], ARGV[o + 4]) end
			  local live = {}
			  local fields = redis.call('HGETALL', key)
			  for j = 1, #fields, 2 do
			    local b = tonumber(string.match(fields[j], '^(%d+):'))
			    if b == nil or b <= current - n or b > current + 1 then
			      redis.call('HDEL', key, fields[j])
			    else
			      live[#live + 1] = fields[j]
			      live[#live + 1] = fields[j + 1]
			    end
			  end
			  redis.call('PEXPIRE', key, int(bucketMs * (n + 1)))
			  out[i] = live
			end
			return out
			""");

}
