import type Address from 'ipaddr.js';

let parser: typeof Address | undefined;

/**
 * ipaddr.js, loaded where an address is first parsed instead of when a function starts: on load it builds every
 * special-purpose block of IANA's registries as objects, about 2 ms of a cold start's CPU (6–11 million instructions,
 * issue 28, `BENCH_COUNT=instructions npm run bench:cold-start`), while most requests parse no address (a visitor's
 * dotted quad needs none, a destination is rarely an address).
 * `require`, not `import`: esbuild runs a required CommonJS module at the call, an imported one before the handler.
 */
export function addressParser(): typeof Address {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  parser ??= require('ipaddr.js') as typeof Address;
  return parser;
}
