import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BESIDE_THE_BUNDLE } from './config';

/**
 * A module the CDK ships as a bundle beside the function's (ServiceFunction's `lazyBundles`), imported on first use
 * so that a cold start does not pay for it; a failed import is tried again by the next call.
 */
export function besideTheBundle<Module, Value>(file: (typeof BESIDE_THE_BUNDLE)[keyof typeof BESIDE_THE_BUNDLE], pick: (bundle: Module) => Value): () => Promise<Value> {
  let loaded: Promise<Value> | undefined;
  return () => {
    loaded ??= import(pathToFileURL(path.join(process.env.LAMBDA_TASK_ROOT ?? '.', file)).href).then(
      (bundle: Module) => pick(bundle),
      (error: unknown) => {
        loaded = undefined;
        throw error;
      },
    );
    return loaded;
  };
}
