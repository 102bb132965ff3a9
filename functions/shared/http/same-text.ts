import { createHash, timingSafeEqual } from 'node:crypto';

/** 32 bytes whatever the text: what sameText compares, exported for callers that compare one value with known ones. */
export const textDigest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * Compares a value a client sent with the one expected, in constant time whatever the lengths: both are hashed to
 * 32 bytes first. Equal UTF-16 lengths can still be different byte lengths (`a` and `é`), which timingSafeEqual
 * refuses by throwing.
 */
export function sameText(presented: string, expected: string): boolean {
  return timingSafeEqual(textDigest(presented), textDigest(expected));
}
