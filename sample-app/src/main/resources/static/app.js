// The live page: polls /actuator/breakers and /chaos once a second, switches chaos modes, and
// (optionally) sends a little customer traffic so that the breakers have calls to judge.
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

function card(b) {
  const config = b.config || {};
  const summary = summaries[b.name] || {};
  const troubled = Object.keys(summary.children || {}).length
    + total(summary.unlistedChildren) - ((summary.unlistedChildren || {}).CLOSED || 0);
  const tenants = Object.keys(summary.children || {}).length + total(summary.unlistedChildren);
  const host = b.name.startsWith('http:') ? hosts[b.name.slice('http:'.length)] : null;
  return el('div', { class: `breaker state-${b.state}`, 'data-name': b.name, 'data-state': b.state },
    el('h3', {}, el('span', { class: 'name' }, b.name), el('span', { class: 'state' }, b.state)),
    host ? el('div', { class: 'muted host' }, `per-host breaker of the ${host} client`) : null,
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
      const detail = await fetch(`actuator/breakers/${encodeURIComponent(name)}`);
      return detail.ok ? detail.json() : null;
    }));
    const list = details.filter((d) => d !== null);
    const container = document.getElementById('breakers');
    container.replaceChildren(...(list.length ? list.map(card)
      : [el('p', { class: 'muted' }, 'no breakers yet: they appear with their first call')]));
    document.getElementById('breaker-count').textContent = `(${list.length} shown)`;
    status.textContent = `updated ${new Date().toLocaleTimeString()}`;
  } catch (error) {
    status.textContent = `/actuator/breakers: ${error.message}`;
  }
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
