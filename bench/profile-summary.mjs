#!/usr/bin/env node
// Summarises a V8 CPU profile (`node --cpu-prof`, or `node bench/run.mjs --cpu-prof=DIR`): the top
// functions by self time, and self time by package. Paths are shown relative to the project (or as
// `node:` / a package name), so a summary can be kept in bench/profiles.md.
//
//   node bench/profile-summary.mjs FILE.cpuprofile [--top=25] [--requests=N]
//
// --requests=N adds the profile time per request (µs) of each row, for N requests answered in the profile.
// Samples before the first request Fastify routed (the start: loading and compiling modules, migrations)
// are left out, so the summary is of serving requests; --with-start keeps them.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
const option = (name, fallback) => {
  const found = args.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
};
const top = option('top', 25);
const requests = option('requests', 0);
if (!file) {
  process.stderr.write('usage: node bench/profile-summary.mjs FILE.cpuprofile [--top=25] [--requests=N]\n');
  process.exit(2);
}

const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const deltas = profile.timeDeltas;
const parentOf = new Map();
for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n.id);
function servesRequest(id) {
  for (let cur = id; cur !== undefined; cur = parentOf.get(cur)) {
    const frame = nodes.get(cur).callFrame;
    if (frame.functionName === 'routeHandler' && frame.url.includes('/fastify/lib/route.js')) return true;
  }
  return false;
}
const firstServed = args.includes('--with-start') ? 0 : Math.max(0, profile.samples.findIndex(servesRequest));
// Each sample's duration, attributed to its node: the interval that follows it.
const selfTime = new Map();
for (let i = firstServed; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  const dt = deltas[i + 1] ?? 0;
  selfTime.set(id, (selfTime.get(id) ?? 0) + dt);
}

function where(url) {
  if (!url) return '(native)';
  if (url.startsWith('node:')) return url;
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const dist = url.indexOf('/dist/');
  if (dist >= 0) return url.slice(dist + 1);
  const bench = url.indexOf('/bench/');
  if (bench >= 0) return url.slice(bench + 1);
  return url.replace(/^file:\/\/.*\//, '');
}
function shortFile(url) {
  const place = where(url);
  if (place.startsWith('dist/')) return place;
  if (!url) return place;
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) return url.slice(modules + 'node_modules/'.length);
  return place;
}

const byFunction = new Map();
const byPackage = new Map();
let total = 0;
let idle = 0;
for (const [id, time] of selfTime) {
  const node = nodes.get(id);
  const frame = node.callFrame;
  total += time;
  if (frame.functionName === '(idle)') {
    idle += time;
    continue;
  }
  const key = `${frame.functionName || '(anonymous)'} ${shortFile(frame.url)}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + time);
  const pkg = frame.url ? where(frame.url) : frame.functionName;
  const group = pkg.startsWith('dist/') ? 'the service (dist/)' : pkg;
  byPackage.set(group, (byPackage.get(group) ?? 0) + time);
}
const busy = total - idle;
const ms = (us) => (us / 1000).toFixed(0);
const pct = (us) => `${((100 * us) / busy).toFixed(1)} %`;
const perRequest = (us) => (requests > 0 ? ` | ${(us / requests).toFixed(1)}` : '');
const head = requests > 0 ? ' | µs / request' : '';
const rule = requests > 0 ? '|--:' : '';

const out = [];
out.push(`profile: ${ms(total)} ms, busy ${ms(busy)} ms (${((100 * busy) / total).toFixed(0)} %)${requests > 0 ? `, ${requests} requests: ${(busy / requests).toFixed(1)} µs busy per request` : ''}`);
out.push('');
out.push(`| self time, by function | ms | share of busy${head} |`);
out.push(`|---|--:|--:${rule}|`);
for (const [key, time] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  out.push(`| \`${key.replace(/\|/g, '\\|')}\` | ${ms(time)} | ${pct(time)}${perRequest(time)} |`);
}
out.push('');
out.push(`| self time, by package | ms | share of busy${head} |`);
out.push(`|---|--:|--:${rule}|`);
for (const [key, time] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  out.push(`| ${key} | ${ms(time)} | ${pct(time)}${perRequest(time)} |`);
}
process.stdout.write(`${out.join('\n')}\n`);
