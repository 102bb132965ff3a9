import type { FunctionSpec } from './template';

/** Lambda's runtime name's Node.js major: `nodejs24.x` → 24. */
export function nodeMajorOfRuntime(runtime: string): number | undefined {
  const major = /^nodejs(\d+)\.x$/.exec(runtime)?.[1];
  return major === undefined ? undefined : Number(major);
}

/**
 * The local stack plays the functions on the Node.js it runs on; a test that passes on a runtime production does not
 * use proves nothing, so another major is refused with how to get the right one.
 */
export function assertSameNode(functions: Iterable<FunctionSpec>, nodeVersion: string = process.version): void {
  const ours = Number(/^v(\d+)\./.exec(nodeVersion)?.[1]);
  const other = [...functions].find((spec) => nodeMajorOfRuntime(spec.runtime) !== ours);
  if (other) {
    throw new Error(
      `${other.logicalId} runs on ${other.runtime} in the template, but this is Node.js ${nodeVersion}: ` +
        'start it through npm (npm start, npm test), whose scripts run the Node pinned in node_modules/.bin.',
    );
  }
}
