import { randomInt } from 'node:crypto';
import { ALIAS_MAX_LENGTH, ALIAS_MIN_LENGTH, ALIAS_PATTERN, isReservedAlias } from './aliases';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 62^7 ≈ 3.5e12 codes: collisions stay rare for billions of links, and the write is conditional anyway. */
export const GENERATED_CODE_LENGTH = 7;

/** A random base62 code from the CSPRNG (randomInt avoids modulo bias), never a reserved word. */
export function generateShortCode(): string {
  for (;;) {
    let code = '';
    for (let i = 0; i < GENERATED_CODE_LENGTH; i += 1) code += BASE62[randomInt(BASE62.length)];
    if (!isReservedAlias(code)) return code;
  }
}

/** Generated codes are valid aliases too, so the alias rules say what a visitor's path can hold. */
export function looksLikeShortCode(candidate: string): boolean {
  return candidate.length >= ALIAS_MIN_LENGTH && candidate.length <= ALIAS_MAX_LENGTH && ALIAS_PATTERN.test(candidate);
}
