import { domainToASCII } from 'node:url';

/** DNS's limit for a whole name; each label holds at most 63 characters. */
export const MAX_DOMAIN_LENGTH = 253;

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A host name as the service stores and compares it: lower-case ASCII (punycode for an IDN), without a trailing
 * dot; undefined when it cannot be a host name at all. Kept apart from the claim rules (domain-name.ts and its
 * public suffix list), so the redirect can read a visitor's host without carrying them.
 */
export function asciiDomain(input: string): string | undefined {
  const trimmed = input.trim().replace(/\.$/, '');
  if (trimmed.length === 0 || trimmed.length > MAX_DOMAIN_LENGTH * 4 || /[/:@?#\s\\]/.test(trimmed)) return undefined;
  const ascii = domainToASCII(trimmed).toLowerCase();
  if (ascii.length === 0 || ascii.length > MAX_DOMAIN_LENGTH) return undefined;
  return ascii.split('.').every((label) => LABEL.test(label)) ? ascii : undefined;
}
