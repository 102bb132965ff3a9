// The AWS SDK warns, once per process and worker, that it will soon need Node.js 22. Lambda runs these bundles on
// Node.js 22; the local stack runs them on the machine's Node.js 20 on purpose, so the warning says nothing here.
const emitWarning = process.emitWarning.bind(process);
process.emitWarning = (warning, ...rest) => {
  if (String(warning).startsWith('NodeVersionSupportWarning')) return;
  emitWarning(warning, ...rest);
};
