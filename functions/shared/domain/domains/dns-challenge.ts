import { randomBytes } from 'node:crypto';
import type { DnsRecord } from './custom-domain';

/**
 * The proof that whoever claims a name controls its DNS (issue 27): a TXT record under the name whose value is the
 * claim's own id, random and shown only to the claimant. A CNAME to the shared routing endpoint proves nothing (it is
 * the same for every customer, and a former customer's may still be there), so the TXT record must be present
 * before a tenant is made for the claim and at every move to `active`.
 */
export const CHALLENGE_LABEL = '_shortener-challenge';
const CHALLENGE_PREFIX = 'shortener-verification=';

/** 128 random bits, hex: a valid TXT value and CloudFront tenant name as it is, unguessable before the claim exists. */
export function newClaimId(): string {
  return randomBytes(16).toString('hex');
}

export function challengeRecord(domain: string, claimId: string): DnsRecord {
  return { type: 'TXT', name: `${CHALLENGE_LABEL}.${domain}`, value: `${CHALLENGE_PREFIX}${claimId}` };
}

/** Whether the TXT values found under the challenge's name include this claim's (surrounding quotes and spaces aside). */
export function challengeMet(found: readonly string[], expected: DnsRecord): boolean {
  return found.some((value) => value.trim().replace(/^"(.*)"$/, '$1') === expected.value);
}
