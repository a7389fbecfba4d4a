package dev.breaker.aspect;

/**
 * A {@code @CircuitGuarded} method cannot be guarded as written (a missing or ill-fitting
 * fallback, a tenant expression that does not parse); stops start-up.
 */
public class InvalidGuardedMethodException extends RuntimeException {

	private final String beanName;

	private final String method;

	private final String problem;

	private final String fix;

	/**
	 * Create a new exception.
	 * @param beanName the bean holding the method
	 * @param method the guarded method, e.g. {@code Receipt OrderService.charge(Order)}
	 * @param problem what is wrong
	 * @param fix what would be right, e.g. the expected fallback signature
	 * @param cause the underlying error, or {@code null}
	 */
	public InvalidGuardedMethodException(String beanName, String method, String problem, String fix, Throwable cause) {
		super("@CircuitGuarded method " + method + " of bean '" + beanName + "': " + problem + "; " + fix, cause);
		this.beanName = beanName;
		this.method = method;
		this.problem = problem;
		this.fix = fix;
	}

	/**
	 * The bean holding the guarded method.
	 * @return the bean name
	 */
	public String beanName() {
		return this.beanName;
	}

	/**
	 * The guarded method.
	 * @return its signature
	 */
	public String method() {
		return this.method;
	}

	/**
	 * What is wrong.
	 * @return the problem
	 */
	public String problem() {
		return this.problem;
	}

	/**
	 * What would be right.
	 * @return the fix
	 */
	public String fix() {
		return this.fix;
	}

}
