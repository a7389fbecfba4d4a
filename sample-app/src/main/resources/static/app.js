// The live page: polls /actuator/breakers (and each breaker's snapshot and history) and /chaos
// once a second, switches chaos modes, and (optionally) sends a little customer traffic so that
// the breakers have calls to judge. The last five minutes come from the library's per-second
// history (/actuator/breakers/{name}/history), so a reload keeps them.
'use strict';

const MODES = ['healthy', 'slow', 'wedged', 'down', 'flaky'];
const POLL_MS = 1000;
const TRAFFIC = { checkout: 10, recommendations: 5, catalog: 10 };   // requests per second

const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === 'class') node.className = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child.nodeType ? child : String(child));
  }
  return node;
};

// ---- breakers -----------------------------------------------------------------------------

// /actuator/breakers lists every top-level breaker with a summary and, under it, its children
// (tenants, hosts) that are not CLOSED, counting the others by state under unlistedChildren;
// /actuator/breakers/{name} has the full snapshot: thresholds, transitions, reasons.
const MAX_TENANT_CARDS = 6;

function detailNames(breakers) {
  const names = [];
  for (const [name, summary] of Object.entries(breakers)) {
    if (summary.state !== null && summary.state !== undefined) names.push(name);
    const children = Object.keys(summary.children || {});
    if (summary.state === null || summary.state === undefined) {
      names.push(...children);                                     // a group like http: its troubled hosts
    } else {
      names.push(...children.slice(0, MAX_TENANT_CARDS));          // tenants: only the troubled ones
    }
  }
  // every dependency's host, closed or not: the page knows them from /chaos
  names.push(...Object.keys(hosts).map((host) => `http:${host}`).filter((host) => !names.includes(host)));
  // the breakers the app's code names first, then the per-host and per-tenant children
  return names.sort((a, b) => (a.includes(':') - b.includes(':')) || a.localeCompare(b));
}

const total = (states) => Object.values(states || {}).reduce((sum, n) => sum + n, 0);

const percent = (value) => (value === null || value === undefined || Number.isNaN(value)) ? '–' : `${Number(value).toFixed(1)} %`;
const time = (instant) => instant ? new Date(instant).toLocaleTimeString() : '';

function meter(label, value, threshold) {
  const on = threshold !== null && threshold !== undefined && threshold > 0;
  const v = Math.max(0, Math.min(100, Number(value) || 0));
  return el('div', { class: 'meter' },
    el('div', { class: 'label' }, el('span', {}, label),
      el('span', {}, `${percent(value)} ${on ? `/ trips at ${threshold} %` : '(rule off)'}`)),
    el('div', { class: 'bar' },
      el('div', { class: `fill${on && v >= threshold ? ' over' : ''}`, style: `width:${v}%` }),
      on ? el('div', { class: 'threshold', style: `left:${threshold}%` }) : null));
}

function transitions(list) {
  const recent = (list || []).slice(-5).reverse();
  if (recent.length === 0) return el('p', { class: 'muted transitions' }, 'no transitions yet');
  return el('ul', { class: 'transitions' }, recent.map((t) =>
    el('li', { class: 'transition' }, `${time(t.at)} ${t.from} → ${t.to}`,
      el('span', { class: 'muted' }, ` · ${t.reason}${t.remote ? ' (from a peer)' : ''}`))));
}

async function override(name, state) {
  const response = await fetch(`actuator/breakers/${encodeURIComponent(name)}`, state === 'RESET'
    ? { method: 'DELETE' }
    : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ state }) });
  if (!response.ok) alert(`could not set ${name} to ${state}: HTTP ${response.status}`);
  pollBreakers();
}

function card(b, history) {
  const config = b.config || {};
  const summary = summaries[b.name] || {};
  const troubled = Object.keys(summary.children || {}).length
    + total(summary.unlistedChildren) - ((summary.unlistedChildren || {}).CLOSED || 0);
  const tenants = Object.keys(summary.children || {}).length + total(summary.unlistedChildren);
  const host = b.name.startsWith('http:') ? hosts[b.name.slice('http:'.length)] : null;
  return el('div', { class: `breaker state-${b.state}`, 'data-name': b.name, 'data-state': b.state },
    el('h3', {}, el('span', { class: 'name' }, b.name), el('span', { class: 'state' }, b.state)),
    host ? el('div', { class: 'muted host' }, `per-host breaker of the ${host} client`) : null,
    historyBlock(b, history || []),
    meter('failure rate', b.failureRate, config.failureRateThreshold),
    meter('slow-call rate', b.slowCallRate, config.slowCallRateThreshold),
    el('div', { class: 'facts' },
      el('span', {}, `calls in window: ${b.calls ?? '–'} (min ${config.minimumCalls ?? '–'})`),
      el('span', {}, `failures / timeouts: ${b.failures ?? '–'} / ${b.timeouts ?? '–'}`),
      el('span', {}, `in a row: ${b.consecutiveFailures ?? '–'} / ${config.consecutiveFailures || 'off'}`),
      el('span', {}, `in flight: ${b.inFlight ?? '–'}${config.stallCalls ? ` (stall at ${config.stallCalls})` : ''}`),
      el('span', {}, `trips: ${b.trips ?? '–'}`),
      el('span', {}, b.openUntil ? `open until ${time(b.openUntil)}` : (b.since ? `since ${time(b.since)}` : ''))),
    tenants
      ? el('div', { class: 'tenants muted' }, `${tenants} tenant breakers, ${troubled} not closed`)
      : null,
    transitions(b.transitions),
    el('div', { class: 'actions' },
      el('button', { onclick: () => override(b.name, 'FORCED_OPEN') }, 'force open'),
      el('button', { onclick: () => override(b.name, 'DISABLED') }, 'disable'),
      el('button', { onclick: () => override(b.name, 'CLOSED') }, 'close'),
      el('button', { onclick: () => override(b.name, 'RESET') }, 'reset')));
}

let summaries = {};
let hosts = {};   // "127.0.0.1:41234" -> "payments", from /chaos

async function pollBreakers() {
  const status = document.getElementById('status');
  try {
    const response = await fetch('actuator/breakers', { headers: { Accept: 'application/json' } });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    summaries = (await response.json()).breakers || {};
    const details = await Promise.all(detailNames(summaries).map(async (name) => {
      const path = `actuator/breakers/${encodeURIComponent(name)}`;
      const [detail, history] = await Promise.all([fetch(path), fetch(`${path}/history`)]);
      if (!detail.ok) return null;
      return { snapshot: await detail.json(), history: history.ok ? (await history.json()).seconds : [] };
    }));
    const list = details.filter((d) => d !== null);
    const container = document.getElementById('breakers');
    container.replaceChildren(...(list.length ? list.map((d) => card(d.snapshot, d.history))
      : [el('p', { class: 'muted' }, 'no breakers yet: they appear with their first call')]));
    document.getElementById('breaker-count').textContent = `(${list.length} shown)`;
    status.textContent = `updated ${new Date().toLocaleTimeString()}`;
  } catch (error) {
    status.textContent = `/actuator/breakers: ${error.message}`;
  }
}

// ---- history: the last five minutes, drawn as Hystrix drew a circuit ----------------------

const SVG = 'http://www.w3.org/2000/svg';
const HISTORY_SECONDS = 300;
const STATE_COLOURS = { CLOSED: '#1a7f37', HALF_OPEN: '#bf8700', OPEN: '#cf222e', FORCED_OPEN: '#8250df', DISABLED: '#6e7781' };

const svg = (tag, attrs = {}, ...children) => {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children.flat(Infinity)) {
    if (child !== null && child !== undefined) node.append(child.nodeType ? child : document.createTextNode(String(child)));
  }
  return node;
};

/** Seconds from an ISO-8601 duration as the JSON has them ("PT0.021S", "PT1M30S"), null for none. */
function seconds(duration) {
  if (!duration) return null;
  const m = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?$/.exec(duration);
  return m ? Number(m[1] || 0) * 3600 + Number(m[2] || 0) * 60 + Number(m[3] || 0) : null;
}

const millis = (s) => (s === null || s === undefined) ? '–' : (s < 1 ? `${(s * 1000).toPrecision(3)} ms` : `${s.toPrecision(3)} s`);

/** One pixel per second, the newest second at the right edge. */
const xOf = (i, n) => HISTORY_SECONDS - n + i + 0.5;

/** A polyline per run of values that are not null (a second without calls has no latency). */
function lines(values, y, attrs) {
  const runs = [];
  let run = [];
  values.forEach((v, i) => {
    if (v === null || v === undefined) { if (run.length) runs.push(run); run = []; return; }
    run.push(`${xOf(i, values.length).toFixed(1)},${y(v).toFixed(1)}`);
  });
  if (run.length) runs.push(run);
  return runs.map((points) => svg('polyline', { ...attrs, points: points.length === 1 ? `${points[0]} ${points[0]}` : points.join(' ') }));
}

function sparkline(kind, label, text, series, { height = 26, top = null, log = false, threshold = null }) {
  const all = series.flatMap((s) => s.values).filter((v) => v !== null && v !== undefined && v > 0);
  let y;
  if (log) {
    const lo = Math.log10(Math.max(1e-4, Math.min(...all, 0.01)));
    const hi = Math.log10(Math.max(...all, threshold ?? 0, 0.01) * 1.2);
    y = (v) => height - 1 - ((Math.log10(Math.max(v, 1e-4)) - lo) / Math.max(1e-9, hi - lo)) * (height - 2);
  } else {
    const max = Math.max(top ?? 0, ...all, 1e-9);
    y = (v) => height - 1 - (v / max) * (height - 2);
  }
  return el('div', { class: `spark ${kind}` },
    el('span', { class: 'label' }, label, el('span', { class: 'value' }, text)),
    svg('svg', { class: `sparkline ${kind}`, viewBox: `0 0 ${HISTORY_SECONDS} ${height}`, preserveAspectRatio: 'none' },
      threshold ? svg('line', { class: 'threshold', x1: 0, x2: HISTORY_SECONDS, y1: y(threshold), y2: y(threshold) }) : null,
      series.map((s) => lines(s.values, y, { class: s.class }))));
}

/** The state of each second as a coloured band, consecutive seconds of one state merged. */
function band(history) {
  const rects = [];
  let from = 0;
  for (let i = 1; i <= history.length; i++) {
    if (i === history.length || history[i].state !== history[from].state) {
      const state = history[from].state;
      rects.push(svg('rect', { 'data-state': state, 'data-from': history[from].at, 'data-to': history[i - 1].at,
        x: xOf(from, history.length) - 0.5, y: 0, width: i - from, height: 8,
        fill: STATE_COLOURS[state] || '#6e7781' }, svg('title', {}, `${state} ${time(history[from].at)} – ${time(history[i - 1].at)}`)));
      from = i;
    }
  }
  return svg('svg', { class: 'band', viewBox: `0 0 ${HISTORY_SECONDS} 8`, preserveAspectRatio: 'none' }, rects);
}

/** Hystrix's circle: its area grows with the calls of the last 10 seconds, its colour with their health. */
function circle(b, history) {
  const recent = history.slice(-10);
  const calls = recent.reduce((sum, s) => sum + s.calls, 0);
  const failed = recent.reduce((sum, s) => sum + s.failures + s.timeouts, 0);
  const rate = calls / Math.max(1, recent.length);
  const failure = calls ? (100 * failed) / calls : 0;
  let colour = failure >= 50 ? '#cf222e' : failure >= 25 ? '#fb8f44' : failure >= 10 ? '#d4a72c' : '#1a7f37';
  if (b.state !== 'CLOSED' && b.state !== 'DISABLED') colour = STATE_COLOURS[b.state];
  const r = Math.min(21, 3 + 3 * Math.sqrt(rate));
  return svg('svg', { class: 'circle', viewBox: '0 0 46 46', 'data-rate': rate.toFixed(1), 'data-failure': failure.toFixed(1) },
    svg('circle', { cx: 23, cy: 23, r: r.toFixed(1), fill: colour, 'fill-opacity': 0.55, stroke: colour }),
    svg('title', {}, `${rate.toFixed(1)} calls/s, ${failure.toFixed(1)} % failed over the last ${recent.length} s`));
}

function historyBlock(b, history) {
  const config = b.config || {};
  const latency = b.latency || {};
  const last = history.length ? history[history.length - 1] : null;
  return el('div', { class: 'history', 'data-seconds': history.length },
    circle(b, history),
    el('div', { class: 'sparks' },
      band(history),
      sparkline('calls', 'calls/s ', last ? String(last.calls) : '–',
        [{ class: 'calls', values: history.map((s) => s.calls) }, { class: 'rejected', values: history.map((s) => s.rejected) }], {}),
      sparkline('failure-rate', 'failure rate ', percent(b.failureRate),
        [{ class: 'failure-rate', values: history.map((s) => s.failureRate) }],
        { top: 100, threshold: config.failureRateThreshold || null }),
      sparkline('latency', 'p50 / p99 ', `${millis(seconds(latency.p50))} / ${millis(seconds(latency.p99))}`,
        [{ class: 'p50', values: history.map((s) => seconds(s.p50)) }, { class: 'p99', values: history.map((s) => seconds(s.p99)) }],
        { log: true, threshold: seconds(config.slowCallDuration) })));
}

// ---- chaos --------------------------------------------------------------------------------

async function setChaos(dependency, mode) {
  await fetch(`chaos/${dependency}`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ mode }) });
  pollChaos();
}

async function pollChaos() {
  try {
    const response = await fetch('chaos');
    if (!response.ok) return;
    const dependencies = await response.json();
    hosts = Object.fromEntries(Object.entries(dependencies).map(([name, d]) => [new URL(d.url).host, name]));
    const container = document.getElementById('chaos');
    container.replaceChildren(...Object.entries(dependencies).map(([name, d]) =>
      el('div', { class: 'dependency', 'data-dependency': name },
        el('span', { class: 'name' }, name),
        MODES.map((mode) => el('button', {
          class: mode === d.mode ? 'active' : '', 'data-dependency': name, 'data-mode': mode,
          onclick: () => setChaos(name, mode) }, mode)),
        el('span', { class: 'counts muted' },
          `answered ${d.answered}, failed ${d.failed}, hung ${d.wedged}, busy ${d.inProgress}`))));
  } catch (error) {
    // the status line already reports a dead server
  }
}

// ---- traffic ------------------------------------------------------------------------------

const answers = {};
function count(kind, outcome, text) {
  const row = document.getElementById(`answers-${kind}`);
  const cell = row.querySelector(`.${outcome}`);
  cell.textContent = String(Number(cell.textContent) + 1);
  row.querySelector('.last').textContent = text;
}

async function send(kind) {
  const user = `user-${1 + Math.floor(Math.random() * 20)}`;
  try {
    if (kind === 'checkout') {
      const sku = `sku-${1 + Math.floor(Math.random() * 24)}`;
      const response = await fetch('checkout', { method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ userId: user, items: [{ sku, quantity: 1 }] }) });
      if (!response.ok) return count(kind, 'failed', `HTTP ${response.status}`);
      const body = await response.json();
      count(kind, body.payment.status === 'PAID' ? 'ok' : 'fallback', `${body.payment.status} ${body.payment.chargeId ?? ''}`);
    } else if (kind === 'recommendations') {
      const response = await fetch(`recommendations/${user}`);
      if (!response.ok) return count(kind, 'failed', `HTTP ${response.status}`);
      const body = await response.json();
      count(kind, body.source === 'live' ? 'ok' : 'fallback', `${user}: ${body.source}`);
    } else {
      const response = await fetch('catalog');
      count(kind, response.ok ? 'ok' : 'failed', response.ok ? `${(await response.json()).length} products` : `HTTP ${response.status}`);
    }
  } catch (error) {
    count(kind, 'failed', error.message);
  }
}

function traffic() {
  if (!document.getElementById('traffic').checked) return;
  for (const [kind, perSecond] of Object.entries(TRAFFIC)) {
    for (let i = 0; i < perSecond; i++) setTimeout(() => send(kind), Math.random() * POLL_MS);
  }
}

document.getElementById('traffic-rate').textContent = TRAFFIC.checkout;
pollChaos();
pollBreakers();
setInterval(() => { pollBreakers(); pollChaos(); traffic(); }, POLL_MS);
