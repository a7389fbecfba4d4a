package dev.breaker.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.ArrayOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;

/**
 * The production ACL the fleet-mode docs recommend for the fleet's Redis user: its keys
 * and its channel only, and only the commands fleet mode sends (the scripts' own
 * included), on a standalone server, behind Sentinel and in a Cluster.
 */
public final class FleetAcl {

	/** The user's password in the tests. */
	public static final String PASSWORD = "s3cret";

	/**
	 * The rules after {@code ACL SETUSER checkout} (or {@code user checkout} in
	 * redis.conf), as the fleet-mode docs show them.
	 */
	public static final String RULES = "on >" + PASSWORD + " resetchannels ~breaker:* &breaker:* -@all"
			+ " +hello +auth +ping +time +info +select" + " +evalsha +eval +script|load +scan +hdel +publish +subscribe"
			+ " +type +exists +del +hmget +hgetall +hset +pttl +pexpire +pexpireat"
			+ " +client|setname +cluster|nodes +cluster|myid";

	private static final Path FLEET_MODE_DOCS = Path.of("..", "docs", "fleet-mode.md");

	private static final String SETUSER = "ACL SETUSER checkout ";

	private FleetAcl() {
	}

	/** Creates (or resets) the fleet's user on one node. */
	public static void createUser(RedisCommands<String, String> admin, String user) {
		createUser(admin, user, RULES);
	}

	/** Creates (or resets) a user with these rules on one node. */
	public static void createUser(RedisCommands<String, String> admin, String user, String rules) {
		admin.dispatch(CommandType.ACL, new StatusOutput<>(StringCodec.UTF8),
				new CommandArgs<>(StringCodec.UTF8).add("SETUSER").add(user).add("reset").addValues(rules.split(" ")));
	}

	/**
	 * The rules of the shorter form by categories that {@code docs/fleet-mode.md} offers
	 * (its one {@code ACL SETUSER checkout} line with {@code +@} categories), read from
	 * the page: a test that runs the fleet through it runs it through what users are told
	 * to create.
	 */
	public static String categoryRules() {
		List<String> shown;
		try {
			shown = Files.readAllLines(FLEET_MODE_DOCS)
				.stream()
				.filter(line -> line.startsWith(SETUSER) && line.contains(" +@"))
				.toList();
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		if (shown.size() != 1) {
			throw new IllegalStateException(
					FLEET_MODE_DOCS + " should show one '" + SETUSER + "' line by categories, found " + shown);
		}
		return shown.get(0).substring(SETUSER.length()).strip();
	}

	/**
	 * What the node refused since its ACL log was last reset (empty: nothing the fleet
	 * sent was denied).
	 */
	public static List<Object> deniedSoFar(RedisCommands<String, String> admin) {
		return admin.dispatch(CommandType.ACL, new ArrayOutput<>(StringCodec.UTF8),
				new CommandArgs<>(StringCodec.UTF8).add("LOG"));
	}

}
