import { assertConformsToOpenApi } from './openapi-conformance';

export interface HttpResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/**
 * A thin fetch wrapper for the e2e suites: never follows redirects, parses JSON bodies when present.
 * Every response of a route the OpenAPI reference documents is checked against it (status documented,
 * body matching the schema), so a suite fails when the API and its reference part ways.
 */
export async function http<T = any>(base: string, path: string, init: RequestInit = {}): Promise<HttpResponse<T>> {
  const response = await fetch(base + path, { redirect: 'manual', ...init });
  const text = await response.text();
  assertConformsToOpenApi(init.method ?? 'GET', base + path, response.status, response.headers, text);
  let body: any = undefined;
  if ((response.headers.get('content-type') ?? '').includes('json') && text) body = JSON.parse(text);
  return { status: response.status, headers: response.headers, body, text };
}
