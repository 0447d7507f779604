import type { DatabaseInfo } from '../database/database-info';
import { MetricsService, UNMATCHED_ROUTE } from './metrics.service';

const sqlite = { postgresPool: () => undefined } as unknown as DatabaseInfo;

async function values(sut: MetricsService, name: string) {
  return (await sut.registry!.getSingleMetric(name)!.get()).values;
}

describe('MetricsService', () => {
  it('registers nothing and records nothing with METRICS_PORT unset', () => {
    const sut = new MetricsService({ port: undefined, host: '127.0.0.1' }, sqlite);
    expect(sut.enabled).toBe(false);
    expect(sut.registry).toBeUndefined();
    expect(() => {
      sut.tokenIssued('refresh_token');
      sut.tokenError('invalid_grant');
      sut.signIn('success');
      sut.rateLimited('client');
      sut.refreshFamilyRevokedForReuse();
    }).not.toThrow();
  });

  it('keeps every label to a fixed set of values, whatever it is given', async () => {
    const sut = new MetricsService({ port: 0, host: '127.0.0.1' }, sqlite);
    sut.tokenIssued(['authorization_code']);
    sut.tokenIssued('sp_rt_secret');
    sut.tokenError('<script>');
    sut.tokenError(undefined);
    expect((await values(sut, 'oauth_tokens_issued_total')).find((v) => v.labels.grant_type === 'other')?.value).toBe(2);
    expect((await values(sut, 'oauth_token_errors_total')).find((v) => v.labels.error === 'other')?.value).toBe(2);
  });

  it('counts the device flow’s tokens (RFC 8628) under device_code, not other', async () => {
    const sut = new MetricsService({ port: 0, host: '127.0.0.1' }, sqlite);
    sut.tokenIssued('urn:ietf:params:oauth:grant-type:device_code');
    const issued = await values(sut, 'oauth_tokens_issued_total');
    expect(issued.find((v) => v.labels.grant_type === 'device_code')?.value).toBe(1);
    expect(issued.find((v) => v.labels.grant_type === 'other')?.value ?? 0).toBe(0);
  });

  it('counts unmatched requests under one route, and odd methods as other', async () => {
    const sut = new MetricsService({ port: 0, host: '127.0.0.1' }, sqlite);
    sut.request(undefined, 'PROPFIND', 404, 0.001);
    sut.request(undefined, 'GET', 404, 0.002);
    sut.request(undefined, 'GET', 404, 0.003);
    sut.request('/api/public/v1/industries/:id', 'GET', 200, 0.004);
    const requests = await values(sut, 'http_requests_total');
    expect(requests.map((v) => [v.labels.route, v.labels.method, v.labels.status, v.value])).toEqual([
      [UNMATCHED_ROUTE, 'other', '404', 1],
      [UNMATCHED_ROUTE, 'GET', '404', 2],
      ['/api/public/v1/industries/:id', 'GET', '200', 1],
    ]);
    const sums = (await values(sut, 'http_request_duration_seconds')).filter((v) => (v as { metricName?: string }).metricName === 'http_request_duration_seconds_sum');
    expect(sums.map((v) => v.value)).toEqual([0.001, 0.005, 0.004]);
  });
});
