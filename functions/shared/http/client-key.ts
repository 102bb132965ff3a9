import { createHmac } from 'node:crypto';
import { isIPv4 } from 'node:net';
import type Address from 'ipaddr.js';
import { addressParser } from '../domain/address-parser';

/**
 * What the service counts a client by, instead of its address: an HMAC of the address under a deployment secret
 * (Secrets Manager, never in the code or the template). Counters in the usage table then say nothing about who
 * visited, and without the secret no one can test a guessed address against them: IPv4's whole space is only 2³².
 */
export type ClientKeyer = (address: string) => Promise<string>;

/** 128 bits of the MAC: collisions are out of reach, and a counter id stays short. */
const KEY_BYTES = 16;

/**
 * One IPv6 host owns a whole /64 (SLAAC and privacy addresses rotate inside it), so it is counted as one client;
 * an IPv4-mapped IPv6 address is its IPv4 address. Anything unparsable is counted as it is.
 */
export function countedNetwork(address: string): string {
  // Every visit counts its visitor (issue 30): the common dotted-quad address needs no parsing to be itself.
  if (isIPv4(address)) return address;
  const ipaddr = addressParser();
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${(parsed as Address.IPv6).parts.slice(0, 4).map((part) => part.toString(16)).join(':')}::/64`;
}

/** HMAC-SHA-256 under the deployment's secret, separated by purpose so one digest never stands for another. */
export type KeyedDigest = (purpose: 'address' | 'password', value: string) => Promise<string>;

export function keyedDigest(secret: () => Promise<string>): KeyedDigest {
  return async (purpose, value) =>
    createHmac('sha256', await secret())
      .update(`${purpose}\n${value}`, 'utf8')
      .digest()
      .subarray(0, KEY_BYTES)
      .toString('base64url');
}

export function clientKeyer(digest: KeyedDigest): ClientKeyer {
  return (address) => digest('address', countedNetwork(address));
}
