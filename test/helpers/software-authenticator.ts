import { createHash, generateKeyPairSync, KeyObject, randomBytes, sign } from 'node:crypto';

/** WebAuthn §6.1: the flags byte of the authenticator data. */
export const FLAGS = { UP: 0x01, UV: 0x04, AT: 0x40 } as const;

/** What a test may change in one answer, to make it wrong in exactly one way. */
export interface AnswerOverrides {
  /** The origin written in clientDataJSON (the page's origin, by default the relying party's). */
  origin?: string;
  /** The RP ID whose SHA-256 starts the authenticator data. */
  rpId?: string;
  /** User verification (a PIN, a fingerprint): the UV flag; true by default. */
  userVerified?: boolean;
  /** The signature counter to report, instead of the next one. */
  signCount?: number;
  /** Sign with another key than the credential's (a forged answer). */
  wrongKey?: boolean;
}

interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  userHandle: string;
  signCount: number;
}

/**
 * A WebAuthn authenticator in software, for the suites that drive the passkey endpoints over HTTP with no
 * browser: it answers `navigator.credentials.create` options with a real attestation object (`none`, or
 * `packed` self-attestation: WebAuthn §8.2) for a new ES256 key (P-256, node:crypto), and `get` options
 * with a real assertion (WebAuthn §6.3.3) whose signature counter grows by one each time. The JSON it
 * returns is what the pages' script posts (`PublicKeyCredential.toJSON()`, WebAuthn §5.1).
 */
export class SoftwareAuthenticator {
  /** Discoverable credentials (WebAuthn §6.2.2) by RP ID, newest last. */
  private readonly credentials = new Map<string, Credential[]>();

  constructor(private readonly options: { origin: string; rpId: string; attestation?: 'none' | 'packed' }) {}

  /** The id (base64url) of the newest credential made for `rpId`. */
  credentialId(rpId = this.options.rpId): string | undefined {
    return this.credentials.get(rpId)?.at(-1)?.id.toString('base64url');
  }

  /** The answer to `navigator.credentials.create` with these options (the JSON the page embeds). */
  create(optionsJson: string, overrides: AnswerOverrides = {}): string {
    const options = JSON.parse(optionsJson) as { challenge: string; rp: { id?: string }; user: { id: string } };
    const rpId = overrides.rpId ?? options.rp.id ?? this.options.rpId;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const id = randomBytes(32);
    const jwk = publicKey.export({ format: 'jwk' });
    // RFC 9053 §7.1.1 (COSE EC2 key): kty 2, alg -7 (ES256), crv 1 (P-256), x, y.
    const coseKey = cbor(new Map<number, unknown>([[1, 2], [3, -7], [-1, 1], [-2, Buffer.from(jwk.x!, 'base64url')], [-3, Buffer.from(jwk.y!, 'base64url')]]));
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    // WebAuthn §6.5.1: attested credential data, AAGUID all zeros (no claim about the model).
    const attested = Buffer.concat([Buffer.alloc(16), idLength, id, coseKey]);
    const authData = Buffer.concat([this.header(rpId, FLAGS.AT, overrides, 0), attested]);
    const clientData = this.clientData('webauthn.create', options.challenge, overrides);
    const attestation = this.options.attestation ?? 'none';
    const attStmt =
      attestation === 'packed'
        ? // WebAuthn §8.2 self attestation: the credential's own key signs authData ‖ hash(clientDataJSON).
          new Map<string, unknown>([['alg', -7], ['sig', sign('sha256', Buffer.concat([authData, sha256(clientData)]), overrides.wrongKey ? otherKey() : privateKey)]])
        : new Map<string, unknown>();
    const attestationObject = cbor(new Map<string, unknown>([['fmt', attestation], ['attStmt', attStmt], ['authData', authData]]));
    const list = this.credentials.get(rpId) ?? [];
    list.push({ id, privateKey, userHandle: options.user.id, signCount: 0 });
    this.credentials.set(rpId, list);
    const credentialId = id.toString('base64url');
    return JSON.stringify({
      id: credentialId,
      rawId: credentialId,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: { clientDataJSON: clientData.toString('base64url'), attestationObject: attestationObject.toString('base64url'), transports: ['internal'] },
    });
  }

  /** The answer to `navigator.credentials.get` with these options, from the newest credential of the RP ID. */
  get(optionsJson: string, overrides: AnswerOverrides = {}): string {
    const options = JSON.parse(optionsJson) as { challenge: string; rpId?: string };
    const credential = this.credentials.get(options.rpId ?? this.options.rpId)?.at(-1);
    if (!credential) throw new Error(`no credential for ${options.rpId ?? this.options.rpId}`);
    credential.signCount += 1;
    const authData = this.header(overrides.rpId ?? options.rpId ?? this.options.rpId, 0, overrides, overrides.signCount ?? credential.signCount);
    const clientData = this.clientData('webauthn.get', options.challenge, overrides);
    // WebAuthn §6.3.3 step 11: the signature covers authenticatorData ‖ SHA-256(clientDataJSON).
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), overrides.wrongKey ? otherKey() : credential.privateKey);
    const id = credential.id.toString('base64url');
    return JSON.stringify({
      id,
      rawId: id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: clientData.toString('base64url'),
        authenticatorData: authData.toString('base64url'),
        signature: signature.toString('base64url'),
        userHandle: credential.userHandle,
      },
    });
  }

  /** WebAuthn §6.1: SHA-256 of the RP ID, the flags (UP, UV unless refused, and `extra`), the signature counter. */
  private header(rpId: string, extra: number, overrides: AnswerOverrides, signCount: number): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(signCount);
    const flags = FLAGS.UP | (overrides.userVerified === false ? 0 : FLAGS.UV) | extra;
    return Buffer.concat([sha256(Buffer.from(rpId, 'utf8')), Buffer.from([flags]), count]);
  }

  /** WebAuthn §5.8.1: the client data, as a browser serialises it. */
  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, overrides: AnswerOverrides): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: overrides.origin ?? this.options.origin, crossOrigin: false }), 'utf8');
  }
}

function sha256(data: Buffer): Buffer {
  return createHash('sha256').update(data).digest();
}

function otherKey(): KeyObject {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
}

/** The CBOR (RFC 8949) that WebAuthn needs: integers, byte and text strings, maps. */
function cbor(value: unknown): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Map) return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
  throw new Error(`cannot encode ${typeof value} as CBOR`);
}

/** RFC 8949 §3: a major type and its argument. */
function head(major: number, argument: number): Buffer {
  if (argument < 24) return Buffer.from([(major << 5) | argument]);
  if (argument < 0x100) return Buffer.from([(major << 5) | 24, argument]);
  if (argument < 0x10000) return Buffer.from([(major << 5) | 25, argument >> 8, argument & 0xff]);
  const long = Buffer.alloc(5);
  long[0] = (major << 5) | 26;
  long.writeUInt32BE(argument, 1);
  return long;
}
