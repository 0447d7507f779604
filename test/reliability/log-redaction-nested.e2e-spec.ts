import { randomBytes } from 'node:crypto';
import { BrowserSession, hiddenInputs } from '../helpers/oauth';
import { REDIRECT_URI } from '../helpers/flows';
import { runCli, ServiceProcess, startService, waitForOutput } from '../helpers/processes';
import { freePort, isolatedStorage } from '../helpers/test-app';

/**
 * Secrets in logs (SECURITY.md): a secret nested in a URL-valued parameter, or shaped as one, never
 * reaches a log line. The built service runs with its output captured: a real device flow sends a
 * signed-out user to `/oauth/sign-in?return_to=%2Fdevice%2Fconsent%3Fuser_code%3D…`, the public API is
 * sent `?api_key=`, and a mail-link page `?token=`; then every line is searched for the secrets.
 */
describe('secrets nested in URLs and API keys in the query never reach a log line', () => {
  let storage: Awaited<ReturnType<typeof isolatedStorage>>;
  let service: ServiceProcess;
  let clientId: string;

  beforeAll(async () => {
    storage = await isolatedStorage();
    service = await startService({ ...storage.env, LOG_LEVEL: 'trace' }, await freePort());
    const created = await runCli(['clients:create', '--name', `Device ${randomBytes(3).toString('hex')}`, '--redirect-uri', REDIRECT_URI, '--scopes', 'profile', '--public', '--device-flow', '--json'], storage.env);
    expect(created.status).toBe(0);
    clientId = (JSON.parse(created.stdout) as { client_id: string }).client_id;
  }, 300_000);
  afterAll(async () => {
    service?.child.kill('SIGTERM');
    await service?.exited;
    await storage?.drop();
  });

  it('the device sign-in redirect, ?api_key= and ?token= are logged masked', async () => {
    const started = await fetch(`${service.url}/oauth/device_authorization`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `client_id=${encodeURIComponent(clientId)}&scope=profile`,
    });
    expect(started.status).toBe(200);
    const { user_code: userCode } = (await started.json()) as { user_code: string };

    // The user, signed out, enters the code: the consent page sends them to sign in first.
    const browser = new BrowserSession(service.url);
    let res = await browser.get(`/device?user_code=${encodeURIComponent(userCode)}`);
    res = await browser.post('/device', { ...hiddenInputs(res.text), user_code: userCode });
    expect(res.status).toBe(303);
    res = await browser.get(res.location!);
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/oauth/sign-in?return_to=${encodeURIComponent(`/device/consent?user_code=${userCode}`)}`);
    res = await browser.get(res.location!);
    expect(res.status).toBe(200);
    // The same, encoded twice inside another return_to.
    await browser.get(`/oauth/sign-in?return_to=${encodeURIComponent(`/account?next=${encodeURIComponent(`/device/consent?user_code=${userCode}`)}`)}`);

    const apiKey = `sp_key_${randomBytes(24).toString('base64url')}`;
    const answers = await Promise.all([
      fetch(`${service.url}/api/public/v1/industries?api_key=${apiKey}`),
      fetch(`${service.url}/api/public/v1/industries?apikey=${apiKey}`),
      fetch(`${service.url}/account/reset-password?token=${apiKey}x`),
      fetch(`${service.url}/account/confirm-email?token=${apiKey}y`),
    ]);
    expect(answers[0].status).toBe(400);
    for (const answer of answers) await answer.arrayBuffer();

    const flush = `flush${randomBytes(6).toString('hex')}`;
    await (await fetch(`${service.url}/oauth/logout?client_id=${flush}`)).arrayBuffer();
    await waitForOutput(service, flush);
    const lines = service.output().split('\n');
    expect(lines.some((line) => line.includes('/oauth/sign-in?return_to=%2Fdevice%2Fconsent%3Fuser_code%3D[REDACTED]'))).toBe(true);
    const bare = userCode.replace('-', '');
    const secrets = [userCode, bare, bare.toLowerCase(), apiKey, apiKey.slice(7)];
    for (const secret of secrets) {
      const leaks = lines.filter((line) => decodings(line).some((form) => form.includes(secret)));
      expect([secret, leaks]).toEqual([secret, []]);
    }
  }, 120_000);
});

function decodings(line: string): string[] {
  const out = [line];
  for (let i = 0; i < 4; i++) {
    try {
      out.push(decodeURIComponent(out[out.length - 1]));
    } catch {
      break;
    }
  }
  return out;
}
