import { Runtime } from 'aws-cdk-lib/aws-lambda';

/**
 * The one Node.js major from laptop to Lambda. The Lambdas run it, esbuild targets it, and the `node`
 * devDependency installs it into node_modules/.bin, which every npm script puts first on its PATH, so tests, the
 * local stack, the CLIs and the benchmarks run on the runtime production uses (test/unit/local/node-runtime.test.ts).
 */
export const NODE_MAJOR = 24;

export const LAMBDA_RUNTIME = Runtime.NODEJS_24_X;

export const ESBUILD_TARGET = `node${NODE_MAJOR}`;
