import { DataSource } from 'typeorm';
import { SECURITY_EVENT_RETENTION_MS, SecurityEventsService } from '../../src/security-events/security-events.service';
import { TokenPurgeService } from '../../src/purge/token-purge.service';
import { runCli } from '../helpers/processes';
import { startTestApp, TestApp } from '../helpers/test-app';
import { createTestUser } from '../helpers/tokens';

/** The security events of an account (README.md, Your account): stored, read newest first, purged after 90 days. */
describe('security events (README.md, Your account)', () => {
  let t: TestApp;
  let events: SecurityEventsService;

  beforeAll(async () => {
    t = await startTestApp();
    events = t.app.get(SecurityEventsService, { strict: false });
  });
  afterAll(() => t.close());

  it("keep an account's newest 20 events, newest first, with time, IP and details, and no one else's", async () => {
    const ada = await createTestUser(t.app);
    const bob = await createTestUser(t.app);
    const start = Date.now() - 60_000;
    for (let i = 0; i < 25; i++) {
      await events.record({ userId: ada.id, type: i % 2 ? 'sign_in' : 'sign_in_failed', ip: `192.0.2.${i}`, at: start + i * 1000 });
    }
    await events.record({ userId: ada.id, type: 'consent_given', ip: '2001:db8::1', details: { client: 'Acme', clientId: 'acme', scope: 'profile' }, at: start + 30_000 });
    await events.record({ userId: bob.id, type: 'sign_in', ip: '198.51.100.7' });

    const recent = await events.recent(ada.id);
    expect(recent).toHaveLength(20);
    expect(recent[0]).toEqual({ type: 'consent_given', at: start + 30_000, ip: '2001:db8::1', details: { client: 'Acme', clientId: 'acme', scope: 'profile' } });
    expect(recent[1]).toEqual({ type: 'sign_in_failed', at: start + 24_000, ip: '192.0.2.24', details: {} });
    expect(recent.map((e) => e.at)).toEqual([...recent.map((e) => e.at)].sort((a, b) => b - a));
    expect(recent.some((e) => e.ip === '198.51.100.7')).toBe(false);
  });

  it('drop empty details, cut long ones, and never store more than the details it knows the shape of', async () => {
    const ada = await createTestUser(t.app);
    await events.record({ userId: ada.id, type: 'api_key_created', details: { apiKey: 'x'.repeat(5000), apiKeyPrefix: '' } });
    const [event] = await events.recent(ada.id);
    expect(event.details).toEqual({ apiKey: 'x'.repeat(200) });
    expect(event.ip).toBeNull();
  });

  it('are purged after 90 days by the purge (the scheduler and tokens:purge), younger ones kept', async () => {
    const ada = await createTestUser(t.app);
    const now = Date.now();
    await events.record({ userId: ada.id, type: 'sign_in', at: now - SECURITY_EVENT_RETENTION_MS - 1000 });
    // A day younger than the limit: still kept when the next test's CLI purges by the real clock,
    // however long that clock has run since (an event a minute younger would not be, after a minute).
    await events.record({ userId: ada.id, type: 'sign_out', at: now - SECURITY_EVENT_RETENTION_MS + 86_400_000 });
    const result = await t.app.get(TokenPurgeService, { strict: false }).purge(now);
    expect(result.securityEvents).toBe(1);
    expect((await events.recent(ada.id)).map((e) => e.type)).toEqual(['sign_out']);
  });

  it('are purged by `cli tokens:purge` too', async () => {
    const ada = await createTestUser(t.app);
    await events.record({ userId: ada.id, type: 'sign_in', at: Date.now() - SECURITY_EVENT_RETENTION_MS - 60_000 });
    const result = await runCli(['tokens:purge', '--json'], t.env);
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout).securityEvents).toBe(1);
    expect(await events.recent(ada.id)).toEqual([]);
  });

  it('go with their user', async () => {
    const ada = await createTestUser(t.app);
    await events.record({ userId: ada.id, type: 'sign_in' });
    const db = t.app.get(DataSource);
    await db.query(`DELETE FROM users WHERE id = ${ada.id}`);
    const [row] = await db.query(`SELECT COUNT(*) AS n FROM security_events WHERE user_id = ${ada.id}`);
    expect(Number(row.n)).toBe(0);
  });
});
