import { lookup } from 'node:dns/promises';
import { Injectable } from '@nestjs/common';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Resolves a host name to every address it has (SECURITY.md, "SSRF through client metadata"): each is
 * checked before the fetch connects to one. A provider of its own, so that a test can answer names with
 * the addresses it needs (a public-looking name that points at loopback, an answer that changes).
 */
@Injectable()
export class AddressResolver {
  async resolve(hostname: string): Promise<ResolvedAddress[]> {
    const answers = await lookup(hostname, { all: true, verbatim: true });
    return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
  }
}

/**
 * The time-out of one fetch (5 s, the contract of docs/integrate-with-oauth.md): a signal that aborts
 * after `ms`, and a way to stop it. A provider so that a test drives it instead of waiting.
 */
@Injectable()
export class FetchDeadline {
  start(ms: number): { signal: AbortSignal; clear(): void } {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error(`no complete answer within ${ms / 1000} s`)), ms);
    timer.unref();
    return { signal: controller.signal, clear: () => clearTimeout(timer) };
  }
}
