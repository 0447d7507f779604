#!/usr/bin/env node
// Summarises a V8 heap snapshot (`node --heapsnapshot-signal=SIGUSR2`, Chrome DevTools, `v8.writeHeapSnapshot`):
// the total of every object's own size and the largest groups (object kind and constructor name), so that
// snapshots taken at start and under load can be compared in bench/profiles.md.
//
//   node bench/heap-summary.mjs FILE.heapsnapshot [--top=15]
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
const top = Number(args.find((a) => a.startsWith('--top='))?.split('=')[1] ?? 15);
if (!file) {
  process.stderr.write('usage: node bench/heap-summary.mjs FILE.heapsnapshot [--top=15]\n');
  process.exit(2);
}

const snapshot = JSON.parse(readFileSync(file, 'utf8'));
const fields = snapshot.snapshot.meta.node_fields;
const types = snapshot.snapshot.meta.node_types[0];
const width = fields.length;
const at = { type: fields.indexOf('type'), name: fields.indexOf('name'), size: fields.indexOf('self_size') };
const { nodes, strings } = snapshot;
const groups = new Map();
let total = 0;
let count = 0;
for (let i = 0; i < nodes.length; i += width) {
  const size = nodes[i + at.size];
  const type = types[nodes[i + at.type]];
  total += size;
  count++;
  // Objects by their constructor's name; strings, code, arrays and the rest by their kind.
  const key = type === 'object' ? strings[nodes[i + at.name]] : `(${type})`;
  const group = groups.get(key) ?? { size: 0, count: 0 };
  group.size += size;
  group.count++;
  groups.set(key, group);
}
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);
const out = [`heap: ${mb(total)} MB in ${count.toLocaleString('en')} objects`, '', '| group | MB | objects |', '|---|--:|--:|'];
for (const [key, group] of [...groups].sort((a, b) => b[1].size - a[1].size).slice(0, top)) {
  out.push(`| \`${key.replace(/\|/g, '\\|').slice(0, 60)}\` | ${mb(group.size)} | ${group.count.toLocaleString('en')} |`);
}
process.stdout.write(`${out.join('\n')}\n`);
