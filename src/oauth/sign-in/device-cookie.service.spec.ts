import { Test } from '@nestjs/testing';
import type { FastifyReply } from 'fastify';
import { appConfig, authConfig } from '../../config/configuration';
import { Sealer } from '../../common/crypto/sealer';
import { DEVICE_COOKIE, DEVICE_COOKIE_TTL_SECONDS, DeviceCookieService } from './device-cookie.service';

const SECRET = 'a-session-secret-of-at-least-32-characters';
const NOW = 1_790_000_000_000;

describe('DeviceCookieService', () => {
  async function setUp(secureCookies: boolean) {
    const moduleRef = await Test.createTestingModule({
      providers: [
        DeviceCookieService,
        { provide: authConfig.KEY, useValue: { sessionSecret: SECRET } },
        { provide: appConfig.KEY, useValue: { secureCookies } },
      ],
    }).compile();
    const set: Array<{ name: string; value: string; options: Record<string, unknown> }> = [];
    const reply = { setCookie: (name: string, value: string, options: Record<string, unknown>) => set.push({ name, value, options }) } as unknown as FastifyReply;
    return { sut: moduleRef.get(DeviceCookieService), reply, set };
  }

  it('issues a sealed cookie binding the browser to the account with a fresh nonce each time', async () => {
    const { sut, reply, set } = await setUp(false);
    sut.issue(reply, 7, NOW);
    sut.issue(reply, 7, NOW);
    expect(set.map((c) => c.name)).toEqual([DEVICE_COOKIE, DEVICE_COOKIE]);
    expect(set[0].options).toEqual({ path: '/', httpOnly: true, sameSite: 'lax', secure: false, maxAge: DEVICE_COOKIE_TTL_SECONDS });
    const [first, second] = set.map((c) => sut.open(c.value, NOW));
    expect(first).toEqual({ uid: 7, nonce: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) });
    expect(second!.uid).toBe(7);
    expect(second!.nonce).not.toBe(first!.nonce);
    // The account is not readable from the cookie.
    expect(Buffer.from(set[0].value.slice(3), 'base64url').toString('latin1')).not.toContain('uid');
  });

  it('is Secure when PUBLIC_URL is https', async () => {
    const { sut, reply, set } = await setUp(true);
    sut.issue(reply, 7, NOW);
    expect(set[0].options.secure).toBe(true);
  });

  it('opens nothing that is tampered with, expired, sealed for another purpose or under another secret', async () => {
    const { sut, reply, set } = await setUp(false);
    sut.issue(reply, 7, NOW);
    const value = set[0].value;
    const flipped = value.slice(0, 10) + (value[10] === 'A' ? 'B' : 'A') + value.slice(11);
    expect(sut.open(flipped, NOW)).toBeNull();
    expect(sut.open(value, NOW + DEVICE_COOKIE_TTL_SECONDS * 1000)).toBeNull();
    expect(sut.open(new Sealer(SECRET, 'session').seal({ uid: 7, nonce: 'n'.repeat(22) }, NOW + 1000), NOW)).toBeNull();
    expect(sut.open(new Sealer(`${SECRET}-other`, 'device').seal({ uid: 7, nonce: 'n'.repeat(22) }, NOW + 1000), NOW)).toBeNull();
    expect(sut.open(undefined, NOW)).toBeNull();
    expect(sut.open(['array'], NOW)).toBeNull();
  });
});
