import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * Checks an HTTP response against the OpenAPI document (docs/openapi.json, which a test keeps equal to
 * what the app serves at /docs-json): a documented operation must answer a documented status, and a
 * JSON body must match that status's schema, with no property the schema does not declare. Responses
 * of paths and methods the reference does not document (unknown routes, the sign-in forms, /docs) are
 * not checked here; their suites assert them directly.
 */

const DOCUMENT_PATH = join(__dirname, '..', '..', 'docs', 'openapi.json');
const DOC_ID = 'openapi.json';

interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: object }>; headers?: Record<string, { required?: boolean }> }>;
}

interface Route {
  method: string;
  pattern: RegExp;
  template: string;
  operation: Operation;
}

let state: { routes: Route[]; ajv: Ajv; compiled: Map<string, ValidateFunction> } | undefined;

/** OpenAPI 3.0 schema → JSON Schema for ajv: `nullable`, refs into the document, closed objects. */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const source = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'nullable' || key === 'example' || key === 'examples') continue;
    if (key === '$ref' && typeof value === 'string') out.$ref = `${DOC_ID}${value}`;
    else if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, toJsonSchema(schema)]));
    } else out[key] = toJsonSchema(value);
  }
  // Every property the API sends is documented: an object that lists its properties takes no others.
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  if (source.nullable === true) return { anyOf: [out, { type: 'null' }] };
  return out;
}

function load() {
  if (state) return state;
  const document = JSON.parse(readFileSync(DOCUMENT_PATH, 'utf8'));
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: DOC_ID, components: { schemas: toJsonSchema(document.components?.schemas ?? {}) } });
  const routes: Route[] = [];
  for (const [template, methods] of Object.entries<Record<string, Operation>>(document.paths)) {
    const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    for (const [method, operation] of Object.entries(methods)) routes.push({ method: method.toUpperCase(), pattern, template, operation });
  }
  state = { routes, ajv, compiled: new Map() };
  return state;
}

export class OpenApiConformanceError extends Error {}

/**
 * Throws when a response of a documented operation answers an undocumented status, lacks a header the
 * reference marks as always sent, or has a body of another media type or not matching the schema.
 */
export function assertConformsToOpenApi(method: string, url: string, status: number, headers: Headers, text: string): void {
  const contentType = headers.get('content-type');
  const { routes, ajv, compiled } = load();
  const path = new URL(url).pathname;
  const route = routes.find((r) => r.method === method.toUpperCase() && r.pattern.test(path));
  if (!route) return;
  const where = `${method.toUpperCase()} ${path} (${route.template})`;
  const documented = route.operation.responses[String(status)] ?? route.operation.responses.default;
  if (!documented) {
    throw new OpenApiConformanceError(`${where} answered ${status}, which the reference does not document (documented: ${Object.keys(route.operation.responses).join(', ')})`);
  }
  const missing = Object.entries(documented.headers ?? {})
    .filter(([name, header]) => header.required && !headers.has(name))
    .map(([name]) => name);
  if (missing.length) throw new OpenApiConformanceError(`${where} answered ${status} without the header(s) the reference promises: ${missing.join(', ')}`);
  if (!text) return;
  const mediaType = (contentType ?? '').split(';')[0].trim().toLowerCase();
  const documentedTypes = Object.keys(documented.content ?? {});
  if (!documentedTypes.includes(mediaType)) {
    throw new OpenApiConformanceError(`${where} answered ${status} with ${mediaType || 'a body of no type'}; the reference documents ${documentedTypes.join(', ') || 'no body'}: ${text.slice(0, 200)}`);
  }
  if (mediaType !== 'application/json') return;
  const schema = documented.content?.['application/json']?.schema;
  if (!schema) throw new OpenApiConformanceError(`${where} answered ${status} with a JSON body, but the reference documents no JSON body for it: ${text.slice(0, 200)}`);
  const key = `${route.method} ${route.template} ${status in route.operation.responses ? status : 'default'}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(toJsonSchema(schema) as object);
    compiled.set(key, validate);
  }
  const body = JSON.parse(text);
  if (!validate(body)) {
    const errors = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${e.params.additionalProperty})` : ''}`);
    throw new OpenApiConformanceError(`${where} answered ${status} with a body that does not match the reference: ${errors.join('; ')}\n${text.slice(0, 500)}`);
  }
}
