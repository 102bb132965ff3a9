import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import * as path from 'node:path';
import { AwsJsonError, listenAwsJson } from './aws-json-server';

/**
 * A stand-in for the slice of KMS this service uses (Encrypt, Decrypt, GenerateDataKey), in the SDK's AWS JSON 1.1
 * protocol, for the template's keys only: each key is 32 random bytes here and ciphertexts are real AES-256-GCM
 * under it, the encryption context bound as associated data, so a wrong context or a changed byte fails as on AWS
 * (InvalidCiphertextException). With a file, key material survives restarts, as the table's sealed secrets do.
 */
const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** KMS encrypts at most 4 KiB directly; larger data is what data keys are for. */
const MAX_PLAINTEXT_BYTES = 4096;

type Context = Record<string, string> | undefined;

/** The context as AAD: the same pairs in any order give the same bytes. */
const contextBytes = (context: Context) => Buffer.from(JSON.stringify(Object.entries(context ?? {}).sort(([a], [b]) => a.localeCompare(b))), 'utf8');

export class KmsStandIn {
  private readonly keys = new Map<string, Buffer>();
  private server?: Server;

  /** `keyIds`: the template's keys (their logical ids, which the local ARNs end with). */
  constructor(keyIds: readonly string[], private readonly region: string, private readonly file?: string) {
    const saved = file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {};
    for (const id of keyIds) this.keys.set(id, saved[id] ? Buffer.from(saved[id], 'base64') : randomBytes(32));
    if (file) {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(Object.fromEntries([...this.keys].map(([id, key]) => [id, key.toString('base64')]))), { mode: 0o600 });
    }
  }

  private arnOf(id: string): string {
    return `arn:aws:kms:${this.region}:000000000000:key/${id}`;
  }

  /** A key id, its ARN, or (for Decrypt) nothing: the one the ciphertext names. */
  private keyOf(keyId: unknown): { id: string; key: Buffer } {
    const id = String(keyId ?? '').replace(/^arn:aws:kms:[^:]*:\d{12}:key\//, '');
    const key = this.keys.get(id);
    if (!key) throw new AwsJsonError('NotFoundException', `Key '${String(keyId)}' does not exist`);
    return { id, key };
  }

  private encrypt(keyId: unknown, plaintext: Buffer, context: Context): { id: string; blob: Buffer } {
    const { id, key } = this.keyOf(keyId);
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(contextBytes(context));
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    const name = Buffer.from(id, 'utf8');
    return { id, blob: Buffer.concat([Buffer.from([VERSION, name.length]), name, iv, cipher.getAuthTag(), ciphertext]) };
  }

  private decrypt(blob: Buffer, context: Context, keyId: unknown): { id: string; plaintext: Buffer } {
    const invalid = () => new AwsJsonError('InvalidCiphertextException', '');
    if (blob.length < 2 || blob[0] !== VERSION) throw invalid();
    const nameEnd = 2 + (blob[1] ?? 0);
    const id = blob.subarray(2, nameEnd).toString('utf8');
    const { key } = this.keyOf(id);
    if (keyId !== undefined && this.keyOf(keyId).id !== id) throw new AwsJsonError('IncorrectKeyException', 'The key ID in the request does not identify the key that encrypted the ciphertext.');
    const iv = blob.subarray(nameEnd, nameEnd + IV_BYTES);
    const tag = blob.subarray(nameEnd + IV_BYTES, nameEnd + IV_BYTES + TAG_BYTES);
    if (tag.length !== TAG_BYTES) throw invalid();
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, iv).setAAD(contextBytes(context)).setAuthTag(tag);
      return { id, plaintext: Buffer.concat([decipher.update(blob.subarray(nameEnd + IV_BYTES + TAG_BYTES)), decipher.final()]) };
    } catch {
      throw invalid();
    }
  }

  private handle(operation: string, input: Record<string, unknown>): unknown {
    const context = input.EncryptionContext as Context;
    switch (operation) {
      case 'Encrypt': {
        const plaintext = Buffer.from(String(input.Plaintext ?? ''), 'base64');
        if (plaintext.length === 0 || plaintext.length > MAX_PLAINTEXT_BYTES) throw new AwsJsonError('ValidationException', 'Plaintext must be 1 to 4096 bytes');
        const { id, blob } = this.encrypt(input.KeyId, plaintext, context);
        return { CiphertextBlob: blob.toString('base64'), KeyId: this.arnOf(id), EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' };
      }
      case 'GenerateDataKey': {
        const bytes = input.KeySpec === 'AES_256' ? 32 : input.KeySpec === 'AES_128' ? 16 : Number(input.NumberOfBytes);
        if (!Number.isInteger(bytes) || bytes < 1 || bytes > 1024) throw new AwsJsonError('ValidationException', 'Specify KeySpec (AES_256, AES_128) or NumberOfBytes (1 to 1024)');
        const plaintext = randomBytes(bytes);
        const { id, blob } = this.encrypt(input.KeyId, plaintext, context);
        return { CiphertextBlob: blob.toString('base64'), Plaintext: plaintext.toString('base64'), KeyId: this.arnOf(id) };
      }
      case 'Decrypt': {
        const { id, plaintext } = this.decrypt(Buffer.from(String(input.CiphertextBlob ?? ''), 'base64'), context, input.KeyId);
        return { Plaintext: plaintext.toString('base64'), KeyId: this.arnOf(id), EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' };
      }
      default:
        throw new AwsJsonError('InvalidAction', `The stand-in does not implement ${operation}`);
    }
  }

  listen(port: number, host = '127.0.0.1'): Promise<number> {
    const { server, listening } = listenAwsJson((operation, input) => this.handle(operation, input), { targetPrefix: 'TrentService', contentType: 'application/x-amz-json-1.1' }, port, host);
    this.server = server;
    return listening;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
