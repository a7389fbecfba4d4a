#!/usr/bin/env python3
"""Turns JMH's JSON results (-rf json, run with -prof gc) into Markdown tables.

One table per case (closed path with 1 and 2 threads, open path, wrapped calls, the aspect),
each row a contender with its time per call, allocation per call and its ratio to the fastest
Resilience4j configuration measured in that case; then the project's targets, met or missed.

Usage: report.py results.json
"""
import json
import math
import sys

CASES = {
    "ClosedPath.OneThread": "Closed path (acquire + record a success), 1 thread",
    "ClosedPath.TwoThreads": "Closed path (acquire + record a success), 2 threads",
    "OpenPath.OneThread": "Open path (rejection + fallback), 1 thread",
    "OpenPath.TwoThreads": "Open path (rejection + fallback), 2 threads",
    "WrappedCall.Closed": "Wrapped call, closed (each library's call wrapper), 1 thread",
    "WrappedCall.Open": "Wrapped call, open (the wrapper throws, the caller falls back), 1 thread",
    "aspect.AspectCall": "Aspect on a Spring bean (Boot 4 context), 1 thread",
    "BuildingBlocks": "Building blocks alone (the floor under the targets), 1 thread",
    "FollowingTraffic": "Thresholds that follow traffic (closed path), and one retry-budget ask, 1 thread",
}

CONTENDERS = {
    "breaker": "**breaker**",
    "breakerLatencyOff": "breaker, record-latency off",
    "breakerTimed": "breaker, every call 20 ms (latency recorded)",
    "breakerTimedLatencyOff": "breaker, every call 20 ms, record-latency off",
    "unprotected": "unprotected call",
    "naive": "naive (mutex + list of timestamps)",
    "failsafe": "Failsafe 3.3.2",
    "r4jCountSynchronized": "Resilience4j 2.4.0, count window, synchronized (default)",
    "r4jCountLockFree": "Resilience4j 2.4.0, count window, lock-free",
    "r4jTimeSynchronized": "Resilience4j 2.4.0, time window, synchronized",
    "r4jTimeLockFree": "Resilience4j 2.4.0, time window, lock-free",
    "plainBean": "plain bean call",
    "noopAspect": "no-op `@Around` aspect",
    "noopInterceptor": "no-op `MethodInterceptor` advisor",
    "circuitGuarded": "**`@CircuitGuarded`**",
    "r4jCircuitBreaker": "Resilience4j `@CircuitBreaker` (spring-boot4 2.4.0)",
    "atomicAdd": "one uncontended atomic add (`lock xadd`)",
    "volatileRead": "one volatile read",
    "nanoTime": "one `System.nanoTime()`",
    "defaults": "**breaker**, default settings",
    "followingTraffic": "**breaker**, minimum-calls-ratio and auto probes on",
    "retryBudgetAsk": "one `tryRetry` (retry-budget ask), off the closed path",
}

PREFIX = "dev.breaker.benchmarks."


def load(path):
    """Returns {case: {contender: (ns, error, bytes)}} in the order JMH ran them."""
    cases = {}
    with open(path) as f:
        results = json.load(f)
    for result in results:
        name = result["benchmark"]
        if name.startswith(PREFIX):
            name = name[len(PREFIX):]
        case, _, contender = name.rpartition(".")
        primary = result["primaryMetric"]
        if primary["scoreUnit"] != "ns/op":
            raise SystemExit(f"{name}: expected ns/op, got {primary['scoreUnit']} (run with -bm avgt -tu ns)")
        alloc = None
        for key, metric in result.get("secondaryMetrics", {}).items():
            if key.lstrip("\u00b7") == "gc.alloc.rate.norm":
                alloc = metric["score"]
        cases.setdefault(case, {})[contender] = (primary["score"], primary["scoreError"], alloc)
    return cases


def is_r4j(contender):
    return contender.startswith("r4j")


def best_r4j(rows):
    r4j = [(ns, c) for c, (ns, _, _) in rows.items() if is_r4j(c)]
    return min(r4j) if r4j else None


def fmt_ns(ns, error):
    text = f"{ns:.1f}" if ns >= 10 else f"{ns:.2f}"
    if error is not None and isinstance(error, (int, float)) and math.isfinite(error):
        text += f" ± {error:.1f}" if error >= 1 else f" ± {error:.2f}"
    return text


def fmt_bytes(b):
    if b is None:
        return "n/a"
    return "0" if b < 0.5 else f"{b:.0f}"


def table(case, rows):
    lines = [f"### {CASES.get(case, case)}", ""]
    best = best_r4j(rows)
    aspect = "noopAspect" in rows
    header = "| | ns/op | B/op | vs best Resilience4j |"
    rule = "|---|---:|---:|---:|"
    if aspect:
        header = "| | ns/op | B/op | over the no-op aspect | vs Resilience4j |"
        rule = "|---|---:|---:|---:|---:|"
    lines += [header, rule]
    order = [c for c in CONTENDERS if c in rows] + sorted(c for c in rows if c not in CONTENDERS)
    for contender in order:
        ns, error, alloc = rows[contender]
        name = CONTENDERS.get(contender, contender)
        if best and contender == best[1] and sum(1 for c in rows if is_r4j(c)) > 1:
            name += " ← best R4j"
        ratio = f"{ns / best[0]:.2f}×" if best else "—"
        cells = [name, fmt_ns(ns, error), fmt_bytes(alloc)]
        if aspect:
            over = ns - rows["noopAspect"][0]
            cells.append("—" if contender in ("plainBean", "noopAspect") else f"{over:+.1f} ns")
        cells.append(ratio)
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def verdict(met, text):
    return f"- {'met' if met else '**missed**'}: {text}"


def targets(cases):
    lines = ["### Targets", ""]
    for case, threads, factor in (("ClosedPath.OneThread", 1, 2), ("ClosedPath.TwoThreads", 2, 5)):
        rows = cases.get(case, {})
        best = best_r4j(rows)
        if "breaker" not in rows or not best:
            continue
        ns, _, alloc = rows["breaker"]
        speedup = best[0] / ns
        lines.append(verdict(speedup >= factor,
                             f"closed path, {threads} thread{'s' if threads > 1 else ''}: "
                             f"{speedup:.1f}× faster than the best Resilience4j ({best[1]}, {best[0]:.1f} ns), "
                             f"target ≥ {factor}×"))
        if alloc is not None:
            lines.append(verdict(alloc < 0.5, f"closed path, {threads} thread{'s' if threads > 1 else ''}: "
                                              f"{fmt_bytes(alloc)} B/op, target 0"))
        # issue 17: with latency recorded, still >= 3x the best Resilience4j and 0 B/op
        for row in ("breaker", "breakerTimed"):
            if row not in rows:
                continue
            ns, _, alloc = rows[row]
            what = "latency on" if row == "breaker" else "latency on, every call timed 20 ms"
            lines.append(verdict(best[0] / ns >= 3,
                                 f"closed path, {threads} thread{'s' if threads > 1 else ''}, {what}: "
                                 f"{best[0] / ns:.1f}× faster than the best Resilience4j, target ≥ 3×"))
            if alloc is not None:
                lines.append(verdict(alloc < 0.5, f"closed path, {threads} thread{'s' if threads > 1 else ''}, "
                                                  f"{what}: {fmt_bytes(alloc)} B/op, target 0"))
    for case, threads in (("OpenPath.OneThread", 1), ("OpenPath.TwoThreads", 2)):
        rows = cases.get(case, {})
        if "breaker" not in rows or "unprotected" not in rows:
            continue
        ns, _, alloc = rows["breaker"]
        delta = ns - rows["unprotected"][0]
        lines.append(verdict(delta <= 2.0,
                             f"open path, {threads} thread{'s' if threads > 1 else ''}: "
                             f"{delta:+.1f} ns over the unprotected call, target ≤ 2 ns"))
        if alloc is not None:
            lines.append(verdict(alloc < 0.5, f"open path, {threads} thread{'s' if threads > 1 else ''}: "
                                              f"{fmt_bytes(alloc)} B/op, target 0"))
    rows = cases.get("FollowingTraffic", {})
    if all(c in rows for c in ("defaults", "followingTraffic")):
        base_ns = rows["defaults"][0]
        ns, _, alloc = rows["followingTraffic"]
        lines.append(verdict(ns <= base_ns * 1.1,
                             f"closed path following traffic: {ns:.1f} ns against {base_ns:.1f} ns with the defaults "
                             f"({(ns / base_ns - 1) * 100:+.1f}%), target within 10%"))
        if alloc is not None:
            lines.append(verdict(alloc < 0.5, f"closed path following traffic: {fmt_bytes(alloc)} B/op, target 0"))
    rows = cases.get("aspect.AspectCall", {})
    if all(c in rows for c in ("noopAspect", "circuitGuarded")):
        noop_ns, _, noop_bytes = rows["noopAspect"]
        ours_ns, _, ours_bytes = rows["circuitGuarded"]
        lines.append(verdict(ours_ns < noop_ns,
                             f"aspect: `@CircuitGuarded` {ours_ns:.1f} ns/op against {noop_ns:.1f} ns/op for the "
                             f"no-op `@Around` aspect, target below it"))
        if ours_bytes is not None and noop_bytes is not None:
            lines.append(verdict(ours_bytes < noop_bytes,
                                 f"aspect: `@CircuitGuarded` {fmt_bytes(ours_bytes)} B/op against "
                                 f"{fmt_bytes(noop_bytes)} B/op for the no-op `@Around` aspect, target below it"))
        if "r4jCircuitBreaker" in rows:
            r4j_ns, _, r4j_bytes = rows["r4jCircuitBreaker"]
            lines.append(verdict(ours_ns * 2 <= r4j_ns,
                                 f"aspect: `@CircuitGuarded` {r4j_ns / ours_ns:.1f}× faster than Resilience4j's "
                                 f"`@CircuitBreaker` ({r4j_ns:.1f} ns, {fmt_bytes(r4j_bytes)} B/op), "
                                 f"target far below it (≥ 2×)"))
    return lines if len(lines) > 2 else []


def main(argv):
    if len(argv) != 2:
        raise SystemExit(__doc__)
    cases = load(argv[1])
    known = [c for c in CASES if c in cases]
    others = [c for c in cases if c not in CASES]
    out = []
    for case in known + others:
        out += table(case, cases[case]) + [""]
    out += targets(cases)
    print("\n".join(out).rstrip())


if __name__ == "__main__":
    main(sys.argv)
