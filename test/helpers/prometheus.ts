import { INestApplication } from '@nestjs/common';
import { MetricsServer } from '../../src/metrics/metrics.server';

/** One sample line of the Prometheus text format: `name{label="value",…} value`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A parsed exposition (text format 0.0.4): the samples, and each family's declared TYPE and HELP. */
export class Exposition {
  constructor(
    readonly samples: Sample[],
    readonly types: Map<string, string>,
    readonly help: Map<string, string>,
  ) {}

  /** The sum of the samples named `name` whose labels include `labels` (0 when there is none). */
  value(name: string, labels: Record<string, string> = {}): number {
    return this.matching(name, labels).reduce((sum, s) => sum + s.value, 0);
  }

  matching(name: string, labels: Record<string, string> = {}): Sample[] {
    return this.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  }

  /** Every label value of every sample. */
  labelValues(): string[] {
    return this.samples.flatMap((s) => Object.values(s.labels));
  }
}

/**
 * A strict parser of the text format, written from the specification (exposition_formats.md): it
 * throws on any line it does not understand, so a malformed exposition fails the suite.
 */
export function parseExposition(text: string): Exposition {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  const help = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const comment = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
    if (comment) {
      if (comment[1] === 'TYPE') {
        if (!['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(comment[3])) throw new Error(`unknown type in: ${line}`);
        types.set(comment[2], comment[3]);
      } else help.set(comment[2], comment[3]);
      continue;
    }
    if (line.startsWith('#')) continue;
    samples.push(parseSample(line));
  }
  return new Exposition(samples, types, help);
}

function parseSample(line: string): Sample {
  const name = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)?.[0];
  if (!name) throw new Error(`no metric name in: ${line}`);
  let i = name.length;
  const labels: Record<string, string> = {};
  if (line[i] === '{') {
    i++;
    while (line[i] !== '}') {
      const label = /^([a-zA-Z_][a-zA-Z0-9_]*)="/.exec(line.slice(i));
      if (!label) throw new Error(`bad label at ${i} in: ${line}`);
      i += label[0].length;
      let value = '';
      for (; line[i] !== '"'; i++) {
        if (i >= line.length) throw new Error(`unterminated label value in: ${line}`);
        if (line[i] === '\\') {
          i++;
          value += line[i] === 'n' ? '\n' : line[i];
        } else value += line[i];
      }
      i++;
      if (label[1] in labels) throw new Error(`label ${label[1]} repeated in: ${line}`);
      labels[label[1]] = value;
      if (line[i] === ',') i++;
      else if (line[i] !== '}') throw new Error(`expected , or } at ${i} in: ${line}`);
    }
    i++;
  }
  const rest = /^ (\S+)( -?\d+)?$/.exec(line.slice(i));
  if (!rest) throw new Error(`bad value in: ${line}`);
  // Prometheus reads values with Go's ParseFloat, which takes NaN in any case (prom-client writes `Nan`).
  const value = rest[1] === '+Inf' ? Infinity : rest[1] === '-Inf' ? -Infinity : /^nan$/i.test(rest[1]) ? NaN : Number(rest[1]);
  if (Number.isNaN(value) && !/^nan$/i.test(rest[1])) throw new Error(`bad value in: ${line}`);
  return { name, labels, value };
}

/** The metrics listener's base URL, e.g. `http://127.0.0.1:41235`, or null when it does not listen. */
export function metricsUrl(app: INestApplication): string | null {
  const address = app.get(MetricsServer, { strict: false }).address();
  return address ? `http://${address.address}:${address.port}` : null;
}

/** `GET /metrics` on the metrics listener, parsed. */
export async function scrape(app: INestApplication): Promise<Exposition> {
  const base = metricsUrl(app);
  if (!base) throw new Error('the metrics listener is not listening');
  const response = await fetch(`${base}/metrics`);
  if (response.status !== 200) throw new Error(`GET /metrics answered ${response.status}`);
  return parseExposition(await response.text());
}
