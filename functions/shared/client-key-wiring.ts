/**
 * Apart from wiring.ts so that only the functions that count clients by address (create, batch, redirect) carry
 * the address parser (ipaddr.js) in their bundles.
 */
import { config } from './config';
import { clientKeyer, keyedDigest, type ClientKeyer, type KeyedDigest } from './http/client-key';
import { parameterOnFirstUse } from './wiring';

/** Keyed hashes under the deployment's secret (see http/client-key.ts), read on first use. */
export const deploymentDigest = (): KeyedDigest => keyedDigest(parameterOnFirstUse(config.clientKeyParameter(), true));

/** Client addresses as keyed hashes: what anonymous callers and password attempts are counted by. */
export const clientKeys = (digest = deploymentDigest()): ClientKeyer => clientKeyer(digest);
