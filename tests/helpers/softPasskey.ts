import crypto from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software passkey (ES256, attestation "none") that answers WebAuthn options the way a browser and an
 * authenticator would, for API tests of the passkey routes without a browser. `origin` is the page's origin.
 * Example: `const key = softPasskey('http://localhost'); const response = key.register(options)`.
 */
export function softPasskey(origin: string) {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const credentialId = crypto.randomBytes(16);
  const id = credentialId.toString('base64url');
  let counter = 0;
  let userHandle = '';
  const rpHash = (rpId: string) => crypto.createHash('sha256').update(rpId).digest();
  const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

  function authData(rpId: string, { attested, verified }: { attested: boolean; verified: boolean }): Buffer {
    counter += 1;
    const flags = 0x01 | (verified ? 0x04 : 0) | (attested ? 0x40 : 0);
    const head = Buffer.concat([rpHash(rpId), Buffer.from([flags]), uint32(counter)]);
    if (!attested) return head;
    const cose = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credentialId.length);
    return Buffer.concat([head, Buffer.alloc(16), idLength, credentialId, Buffer.from(isoCBOR.encode(cose))]);
  }

  function clientData(type: string, challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  return {
    id,
    /** The answer to `navigator.credentials.create(options)`. */
    register(
      options: { challenge: string; rp: { id?: string }; user: { id: string } },
      { verified = true } = {},
    ) {
      userHandle = options.user.id;
      const data = authData(options.rp.id ?? new URL(origin).hostname, { attested: true, verified });
      const attestation = isoCBOR.encode(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', new Uint8Array(data)],
        ]) as never,
      );
      return {
        id,
        rawId: id,
        type: 'public-key',
        response: {
          clientDataJSON: b64(clientData('webauthn.create', options.challenge)),
          attestationObject: b64(attestation),
          transports: ['internal'],
        },
        clientExtensionResults: {},
      };
    },
    /** The answer to `navigator.credentials.get(options)`; `verified` false: no PIN or biometrics asked. */
    authenticate(options: { challenge: string; rpId?: string }, { verified = true } = {}) {
      const data = authData(options.rpId ?? new URL(origin).hostname, { attested: false, verified });
      const client = clientData('webauthn.get', options.challenge);
      const signed = Buffer.concat([data, crypto.createHash('sha256').update(client).digest()]);
      const signature = crypto.sign('sha256', signed, privateKey);
      return {
        id,
        rawId: id,
        type: 'public-key',
        response: {
          clientDataJSON: b64(client),
          authenticatorData: b64(data),
          signature: b64(signature),
          userHandle,
        },
        clientExtensionResults: {},
      };
    },
  };
}

function uint32(value: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value);
  return out;
}
