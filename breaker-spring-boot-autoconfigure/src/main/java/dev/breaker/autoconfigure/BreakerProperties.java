package dev.breaker.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.core.Ordered;

/**
 * Configuration of every breaker: {@code breaker.defaults.*} for all of them,
 * {@code breaker.instances.<name>.*} for one dependency.
 */
@ConfigurationProperties("breaker")
public class BreakerProperties {

	/** The prefix of the settings every breaker starts from. */
	public static final String DEFAULTS_PREFIX = "breaker.defaults";

	/**
	 * The default of {@code breaker.advisor-order}: just inside Spring's lowest
	 * precedence.
	 */
	public static final int DEFAULT_ADVISOR_ORDER = Ordered.LOWEST_PRECEDENCE - 100;

	/**
	 * Whether breakers and the @CircuitGuarded advisor are enabled.
	 */
	private boolean enabled = true;

	/**
	 * Order of the @CircuitGuarded advisor among the other advisors of a bean: lower
	 * values run outside (before) higher ones. The default runs the breaker outside the
	 * advisors of transactional and cacheable methods (Ordered.LOWEST_PRECEDENCE unless
	 * set otherwise); the advisors of Spring's Retryable and ConcurrencyLimit always run
	 * outside the breaker.
	 */
	private int advisorOrder = DEFAULT_ADVISOR_ORDER;

	/**
	 * Settings every breaker starts from; a setting left out here takes the engine's
	 * default.
	 */
	@NestedConfigurationProperty
	private Instance defaults = new Instance();

	/**
	 * Settings per breaker name; a setting left out is inherited from breaker.defaults.
	 */
	private Map<String, Instance> instances = new LinkedHashMap<>();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public int getAdvisorOrder() {
		return this.advisorOrder;
	}

	public void setAdvisorOrder(int advisorOrder) {
		this.advisorOrder = advisorOrder;
	}

	public Instance getDefaults() {
		return this.defaults;
	}

	public void setDefaults(Instance defaults) {
		this.defaults = defaults;
	}

	public Map<String, Instance> getInstances() {
		return this.instances;
	}

	public void setInstances(Map<String, Instance> instances) {
		this.instances = instances;
	}

	/**
	 * The property prefix of one breaker name, as a user writes it and error messages
	 * print it: a name that is not a single plain element
	 * ({@code recommendations:user-42}) is in brackets.
	 * @param name a breaker name
	 * @return e.g. {@code breaker.instances.payments}
	 */
	public static String path(String name) {
		return name.chars().allMatch((c) -> c < 128 && (Character.isLetterOrDigit(c) || c == '-'))
				? "breaker.instances." + name : "breaker.instances[" + name + "]";
	}

	/** The state the health contributor reports for an open breaker. */
	public enum OpenHealth {

		/** An open breaker does not change the application's health. */
		UP,

		/** An open breaker reports OUT_OF_SERVICE. */
		OUT_OF_SERVICE,

		/** An open breaker reports DOWN. */
		DOWN

	}

	/**
	 * Settings that remember which of them were bound or set, so one left out can be
	 * inherited ({@code breaker.instances.<name>.*} from {@code breaker.defaults.*})
	 * while each field's initialiser states the default.
	 */
	public abstract static class Inheriting {

		private final Set<String> set = new HashSet<>();

		/**
		 * Records that a property was given a value.
		 * @param property the bean property name, e.g. {@code openWait}
		 */
		protected final void markSet(String property) {
			this.set.add(property);
		}

		/**
		 * Whether a property was bound or set, rather than left at its default.
		 * @param property the bean property name, e.g. {@code openWait}
		 * @return whether it was given a value
		 */
		public boolean isSet(String property) {
			return this.set.contains(property);
		}

	}

	/**
	 * Every setting of one breaker, each field initialised to its default; in
	 * {@code breaker.instances.<name>}, a setting left out is inherited from
	 * {@code breaker.defaults}. Here and in the nested groups, a field's Javadoc is the
	 * description IDEs show and must be the table's
	 * ({@code BreakerSetting.description()}, compared by ConfigurationMetadataTests), its
	 * initialiser the table's default (SettingDefaultsTests).
	 */
	public static class Instance extends Inheriting {

		/**
		 * Length of the sliding window the rates are computed over; a whole multiple of
		 * bucket. Allowed: a positive duration, at most 24h.
		 */
		private Duration window = Duration.ofSeconds(10);

		/**
		 * Length of one bucket of the window. Allowed: at least 1ms, at most 1h.
		 */
		private Duration bucket = Duration.ofSeconds(1);

		/**
		 * Trip after this many consecutive failures. Allowed: >= 0 (0 turns the rule
		 * off).
		 */
		private Integer consecutiveFailures = 5;

		/**
		 * Trip when this percentage of the calls in the window failed (timeouts
		 * weighted), with at least minimum-calls calls. Allowed: (0, 100], or 0 = off.
		 */
		private Double failureRateThreshold = 50.0;

		/**
		 * Calls the window must hold before the failure-rate and slow-call-rate rules
		 * apply. Allowed: >= 1.
		 */
		private Integer minimumCalls = 20;

		/**
		 * Raises minimum-calls to this share of the peak calls per window of the last
		 * hour. Allowed: [0, 1) (0 turns it off).
		 */
		private Double minimumCallsRatio = 0.0;

		/**
		 * A call taking longer is slow; also the age at which a call in flight counts
		 * toward the stall rule. Allowed: a positive duration, at most 24h.
		 */
		private Duration slowCallDuration = Duration.ofSeconds(2);

		/**
		 * Trip when this percentage of the calls in the window were slow, with at least
		 * minimum-calls calls. Allowed: (0, 100], or 0 = off.
		 */
		private Double slowCallRateThreshold = 0.0;

		/**
		 * Trip when at least this many calls are in flight for longer than
		 * slow-call-duration (a wedged dependency). Allowed: >= 0 (0 turns the rule off).
		 */
		private Integer stallCalls = 0;

		/**
		 * Whether calls in flight are counted (one more atomic update per call); always
		 * on with the stall rule.
		 */
		private Boolean trackInFlight = false;

		/**
		 * Whether call durations are kept (latency percentiles, the duration histogram);
		 * costs each breaker about 6.5 KiB.
		 */
		private Boolean recordLatency = true;

		/**
		 * How much a TIMEOUT counts toward the failure rate, relative to a FAILURE.
		 * Allowed: [0, 100].
		 */
		private Double timeoutWeight = 1.0;

		/**
		 * How long the breaker stays open after its first trip before probing. Allowed: a
		 * positive duration, at most 24h.
		 */
		private Duration openWait = Duration.ofSeconds(30);

		/**
		 * Factor applied to the open wait on each consecutive trip. Allowed: [1, 1000].
		 */
		private Double openWaitMultiplier = 2.0;

		/**
		 * Cap on the growing open wait; at least open-wait. Allowed: a positive duration,
		 * at most 24h.
		 */
		private Duration maxOpenWait = Duration.ofMinutes(5);

		/**
		 * Random spread of the open wait as a fraction of it, so replicas do not return
		 * in lockstep. Allowed: [0, 1).
		 */
		private Double openWaitJitter = 0.2;

		/**
		 * Half-open probing.
		 */
		@NestedConfigurationProperty
		private HalfOpen halfOpen = new HalfOpen();

		/**
		 * Exception classes that count as failures; when set, any other exception is
		 * ignored. Timeouts always count. Allowed: exception class names.
		 */
		private List<String> recordExceptions = new ArrayList<>();

		/**
		 * Exception classes that are the caller's fault: ignored, passed on unchanged,
		 * without fallback. Wins over record-exceptions. Allowed: exception class names.
		 */
		private List<String> ignoreExceptions = new ArrayList<>();

		/**
		 * How long an asynchronous call may take before it completes with a
		 * TimeoutException; synchronous calls are not interrupted (the slow-call and
		 * stall rules cover them). Allowed: a positive duration, at most 24h, or unset
		 * for no timeout.
		 */
		private Duration timeout;

		/**
		 * Retries of a guarded call.
		 */
		@NestedConfigurationProperty
		private Retry retry = new Retry();

		/**
		 * Per-tenant child breakers (@CircuitGuarded tenant expression).
		 */
		@NestedConfigurationProperty
		private Tenants tenants = new Tenants();

		/**
		 * Health reported while this breaker is open. Allowed: up, out-of-service or
		 * down.
		 */
		private OpenHealth healthWhenOpen = OpenHealth.UP;

		public Duration getWindow() {
			return this.window;
		}

		public void setWindow(Duration window) {
			this.window = window;
			markSet("window");
		}

		public Duration getBucket() {
			return this.bucket;
		}

		public void setBucket(Duration bucket) {
			this.bucket = bucket;
			markSet("bucket");
		}

		public Integer getConsecutiveFailures() {
			return this.consecutiveFailures;
		}

		public void setConsecutiveFailures(Integer consecutiveFailures) {
			this.consecutiveFailures = consecutiveFailures;
			markSet("consecutiveFailures");
		}

		public Double getFailureRateThreshold() {
			return this.failureRateThreshold;
		}

		public void setFailureRateThreshold(Double failureRateThreshold) {
			this.failureRateThreshold = failureRateThreshold;
			markSet("failureRateThreshold");
		}

		public Integer getMinimumCalls() {
			return this.minimumCalls;
		}

		public void setMinimumCalls(Integer minimumCalls) {
			this.minimumCalls = minimumCalls;
			markSet("minimumCalls");
		}

		public Double getMinimumCallsRatio() {
			return this.minimumCallsRatio;
		}

		public void setMinimumCallsRatio(Double minimumCallsRatio) {
			this.minimumCallsRatio = minimumCallsRatio;
			markSet("minimumCallsRatio");
		}

		public Duration getSlowCallDuration() {
			return this.slowCallDuration;
		}

		public void setSlowCallDuration(Duration slowCallDuration) {
			this.slowCallDuration = slowCallDuration;
			markSet("slowCallDuration");
		}

		public Double getSlowCallRateThreshold() {
			return this.slowCallRateThreshold;
		}

		public void setSlowCallRateThreshold(Double slowCallRateThreshold) {
			this.slowCallRateThreshold = slowCallRateThreshold;
			markSet("slowCallRateThreshold");
		}

		public Integer getStallCalls() {
			return this.stallCalls;
		}

		public void setStallCalls(Integer stallCalls) {
			this.stallCalls = stallCalls;
			markSet("stallCalls");
		}

		public Boolean getTrackInFlight() {
			return this.trackInFlight;
		}

		public void setTrackInFlight(Boolean trackInFlight) {
			this.trackInFlight = trackInFlight;
			markSet("trackInFlight");
		}

		public Boolean getRecordLatency() {
			return this.recordLatency;
		}

		public void setRecordLatency(Boolean recordLatency) {
			this.recordLatency = recordLatency;
			markSet("recordLatency");
		}

		public Double getTimeoutWeight() {
			return this.timeoutWeight;
		}

		public void setTimeoutWeight(Double timeoutWeight) {
			this.timeoutWeight = timeoutWeight;
			markSet("timeoutWeight");
		}

		public Duration getOpenWait() {
			return this.openWait;
		}

		public void setOpenWait(Duration openWait) {
			this.openWait = openWait;
			markSet("openWait");
		}

		public Double getOpenWaitMultiplier() {
			return this.openWaitMultiplier;
		}

		public void setOpenWaitMultiplier(Double openWaitMultiplier) {
			this.openWaitMultiplier = openWaitMultiplier;
			markSet("openWaitMultiplier");
		}

		public Duration getMaxOpenWait() {
			return this.maxOpenWait;
		}

		public void setMaxOpenWait(Duration maxOpenWait) {
			this.maxOpenWait = maxOpenWait;
			markSet("maxOpenWait");
		}

		public Double getOpenWaitJitter() {
			return this.openWaitJitter;
		}

		public void setOpenWaitJitter(Double openWaitJitter) {
			this.openWaitJitter = openWaitJitter;
			markSet("openWaitJitter");
		}

		public HalfOpen getHalfOpen() {
			return this.halfOpen;
		}

		public void setHalfOpen(HalfOpen halfOpen) {
			this.halfOpen = halfOpen;
			markSet("halfOpen");
		}

		public List<String> getRecordExceptions() {
			return this.recordExceptions;
		}

		public void setRecordExceptions(List<String> recordExceptions) {
			this.recordExceptions = recordExceptions;
			markSet("recordExceptions");
		}

		public List<String> getIgnoreExceptions() {
			return this.ignoreExceptions;
		}

		public void setIgnoreExceptions(List<String> ignoreExceptions) {
			this.ignoreExceptions = ignoreExceptions;
			markSet("ignoreExceptions");
		}

		public Duration getTimeout() {
			return this.timeout;
		}

		public void setTimeout(Duration timeout) {
			this.timeout = timeout;
			markSet("timeout");
		}

		public Retry getRetry() {
			return this.retry;
		}

		public void setRetry(Retry retry) {
			this.retry = retry;
			markSet("retry");
		}

		public Tenants getTenants() {
			return this.tenants;
		}

		public void setTenants(Tenants tenants) {
			this.tenants = tenants;
			markSet("tenants");
		}

		public OpenHealth getHealthWhenOpen() {
			return this.healthWhenOpen;
		}

		public void setHealthWhenOpen(OpenHealth healthWhenOpen) {
			this.healthWhenOpen = healthWhenOpen;
			markSet("healthWhenOpen");
		}

	}

	/**
	 * Half-open probing of one breaker.
	 */
	public static class HalfOpen extends Inheriting {

		/**
		 * Most probes in flight at once (ramping 1, 2, 4, ...), or auto: 10% of the peak
		 * concurrency of the last hour. Allowed: [1, 32].
		 */
		private String maxProbes = "10";

		/**
		 * Successful probes that close the breaker. Allowed: >= 1.
		 */
		private Integer successesToClose = 5;

		/**
		 * Failed probes that reopen the breaker. Allowed: >= 1.
		 */
		private Integer failuresToReopen = 3;

		/**
		 * Reopen when the oldest probe in flight has had no verdict for this long (in a
		 * group that trips on breadth, a tenant's such probe counts once as its failed
		 * probe instead). Allowed: a positive duration, at most 24h.
		 */
		private Duration maxWait = Duration.ofMinutes(1);

		public String getMaxProbes() {
			return this.maxProbes;
		}

		public void setMaxProbes(String maxProbes) {
			this.maxProbes = maxProbes;
			markSet("maxProbes");
		}

		public Integer getSuccessesToClose() {
			return this.successesToClose;
		}

		public void setSuccessesToClose(Integer successesToClose) {
			this.successesToClose = successesToClose;
			markSet("successesToClose");
		}

		public Integer getFailuresToReopen() {
			return this.failuresToReopen;
		}

		public void setFailuresToReopen(Integer failuresToReopen) {
			this.failuresToReopen = failuresToReopen;
			markSet("failuresToReopen");
		}

		public Duration getMaxWait() {
			return this.maxWait;
		}

		public void setMaxWait(Duration maxWait) {
			this.maxWait = maxWait;
			markSet("maxWait");
		}

	}

	/**
	 * Retries of a guarded call, with jittered backoff.
	 */
	public static class Retry extends Inheriting {

		/**
		 * The pause before each retry: as many retries as intervals, none when empty.
		 * Allowed: durations from 0 to 24h.
		 */
		private List<Duration> intervals = new ArrayList<>();

		/**
		 * Random spread of each retry pause as a fraction of it. Allowed: [0, 1].
		 */
		private Double jitter = 0.5;

		/**
		 * The outcomes that retry; a rejection never retries. Allowed: failure, timeout
		 * or throttled.
		 */
		private List<String> on = new ArrayList<>(List.of("failure", "timeout"));

		/**
		 * Whether every attempt asks the breaker and is recorded (breaker inside the
		 * retry); by default the whole sequence is recorded once.
		 */
		private Boolean recordEachAttempt = false;

		/**
		 * How many retries the breaker allows, whoever makes them (@CircuitGuarded
		 * methods, HTTP clients): a retry the budget refuses is not made.
		 */
		@NestedConfigurationProperty
		private Budget budget = new Budget();

		public List<Duration> getIntervals() {
			return this.intervals;
		}

		public void setIntervals(List<Duration> intervals) {
			this.intervals = intervals;
			markSet("intervals");
		}

		public Double getJitter() {
			return this.jitter;
		}

		public void setJitter(Double jitter) {
			this.jitter = jitter;
			markSet("jitter");
		}

		public List<String> getOn() {
			return this.on;
		}

		public void setOn(List<String> on) {
			this.on = on;
			markSet("on");
		}

		public Boolean getRecordEachAttempt() {
			return this.recordEachAttempt;
		}

		public void setRecordEachAttempt(Boolean recordEachAttempt) {
			this.recordEachAttempt = recordEachAttempt;
			markSet("recordEachAttempt");
		}

		public Budget getBudget() {
			return this.budget;
		}

		public void setBudget(Budget budget) {
			this.budget = budget;
			markSet("budget");
		}

	}

	/**
	 * The retry budget of one breaker: over its window, retries may add {@code ratio} of
	 * the calls it saw (first attempts), plus {@code min-per-second} per second of the
	 * window.
	 */
	public static class Budget extends Inheriting {

		/**
		 * Retries may add this share of the first attempts in the window. Allowed: [0,
		 * 1000].
		 */
		private Double ratio = 0.2;

		/**
		 * Retries per second of the window the budget allows whatever the traffic.
		 * Allowed: [0, 1000000].
		 */
		private Double minPerSecond = 10.0;

		public Double getRatio() {
			return this.ratio;
		}

		public void setRatio(Double ratio) {
			this.ratio = ratio;
			markSet("ratio");
		}

		public Double getMinPerSecond() {
			return this.minPerSecond;
		}

		public void setMinPerSecond(Double minPerSecond) {
			this.minPerSecond = minPerSecond;
			markSet("minPerSecond");
		}

	}

	/**
	 * Per-tenant child breakers of one breaker.
	 */
	public static class Tenants extends Inheriting {

		/**
		 * Most tenant children kept per breaker; the least recently used is evicted
		 * beyond this. Allowed: >= 1.
		 */
		private Integer max = 10000;

		/**
		 * A tenant child unused for this long is removed. Allowed: a positive duration,
		 * at most 168h.
		 */
		private Duration idleExpiry = Duration.ofMinutes(10);

		/**
		 * The breaker itself trips only when the failures behind its rule came from this
		 * many tenants; 1 lets any tenant's failures trip it. Allowed: [1, 100].
		 */
		private Integer minFailing = 3;

		/**
		 * Longer tenant keys are shortened to a prefix, a tilde and a 16-digit hash of
		 * the whole key, the same on every replica. Allowed: [32, 1024].
		 */
		private Integer maxKeyLength = 128;

		public Integer getMax() {
			return this.max;
		}

		public void setMax(Integer max) {
			this.max = max;
			markSet("max");
		}

		public Duration getIdleExpiry() {
			return this.idleExpiry;
		}

		public void setIdleExpiry(Duration idleExpiry) {
			this.idleExpiry = idleExpiry;
			markSet("idleExpiry");
		}

		public Integer getMinFailing() {
			return this.minFailing;
		}

		public void setMinFailing(Integer minFailing) {
			this.minFailing = minFailing;
			markSet("minFailing");
		}

		public Integer getMaxKeyLength() {
			return this.maxKeyLength;
		}

		public void setMaxKeyLength(Integer maxKeyLength) {
			this.maxKeyLength = maxKeyLength;
			markSet("maxKeyLength");
		}

	}

}
