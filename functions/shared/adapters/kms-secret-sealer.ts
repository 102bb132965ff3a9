import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { DecryptCommand, GenerateDataKeyCommand, type KMSClient } from '@aws-sdk/client-kms';
import type { SecretSealer } from '../domain/ports';

/** A sealed secret as stored: `kms1.<encrypted data key>.<iv>.<ciphertext>.<tag>`, each part base64url. */
const SEALED_PREFIX = 'kms1.';
/** Secrets opened once per container: a delivery signs without a KMS call once its webhook's secret is known. */
const OPENED_KEPT = 1_000;

const encode = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/**
 * Envelope encryption of webhook signing secrets (issue 27): each secret under a data key of its own from KMS
 * (AES-256-GCM here, the data key kept only encrypted beside it), bound to its webhook's id both in KMS's encryption
 * context and as the cipher's associated data, so a sealed secret copied onto another webhook opens nowhere. The
 * table never holds a secret in the clear; a value stored before this (`whsec_…`) is read as it is, and sealed at
 * the webhook's next rotation.
 */
export class KmsSecretSealer implements SecretSealer {
  private readonly opened = new Map<string, string>();

  constructor(
    private readonly client: KMSClient,
    private readonly keyId: string,
  ) {}

  async seal(secret: string, webhookId: string): Promise<string> {
    const { Plaintext, CiphertextBlob } = await this.client.send(new GenerateDataKeyCommand({ KeyId: this.keyId, KeySpec: 'AES_256', EncryptionContext: { webhookId } }));
    if (!Plaintext || !CiphertextBlob) throw new Error('KMS returned no data key');
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', Plaintext, iv).setAAD(Buffer.from(webhookId, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    Plaintext.fill(0);
    return `${SEALED_PREFIX}${[CiphertextBlob, iv, ciphertext, cipher.getAuthTag()].map(encode).join('.')}`;
  }

  async open(stored: string, webhookId: string): Promise<string> {
    if (!stored.startsWith(SEALED_PREFIX)) return stored;
    const cacheKey = `${webhookId}\u0000${stored}`;
    const known = this.opened.get(cacheKey);
    if (known !== undefined) return known;
    const [dataKey, iv, ciphertext, tag] = stored.slice(SEALED_PREFIX.length).split('.').map((part) => Buffer.from(part, 'base64url'));
    if (!dataKey || !iv || !ciphertext || !tag) throw new Error('a sealed webhook secret is malformed');
    const { Plaintext } = await this.client.send(new DecryptCommand({ KeyId: this.keyId, CiphertextBlob: dataKey, EncryptionContext: { webhookId } }));
    if (!Plaintext) throw new Error('KMS returned no data key');
    const decipher = createDecipheriv('aes-256-gcm', Plaintext, iv).setAAD(Buffer.from(webhookId, 'utf8')).setAuthTag(tag);
    const secret = Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
    Plaintext.fill(0);
    if (this.opened.size >= OPENED_KEPT) this.opened.delete(this.opened.keys().next().value as string);
    this.opened.set(cacheKey, secret);
    return secret;
  }
}
