// Runs one bundled Lambda handler inside a worker thread, so each function keeps its own environment and
// module state, as its own Lambda container would. Plain JavaScript: it loads the bundle exactly as deployed.
import { parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';

// Every message to the other thread wakes it: under load, one per visit made that wake-up (and the thread switches
// it costs on two cores) the dearest part of a visit. So what the function writes to stdout and the answers it
// finishes are gathered and cross together, once per turn of the event loop, the log first, as Lambda's own log
// agent ships a function's lines apart from it (lambda-runtime.ts reads them).
const gathered = [];
const answers = [];
let flushing = false;
function flushSoon() {
  if (flushing) return;
  flushing = true;
  setImmediate(() => {
    flushing = false;
    parentPort.postMessage({ log: gathered.splice(0).join(''), answers: answers.length > 0 ? `[${answers.splice(0).join(',')}]` : undefined });
  });
}
process.stdout.write = (chunk, encoding, callback) => {
  gathered.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString(typeof encoding === 'string' ? encoding : 'utf8'));
  flushSoon();
  if (typeof encoding === 'function') encoding();
  else if (typeof callback === 'function') callback();
  return true;
};

const { entryFile, exportName, functionName, timeoutSeconds } = workerData;
const module = await import(pathToFileURL(entryFile).href);
const handler = module[exportName];

// Events and results cross as JSON text, as Lambda's runtime API carries them: what a function gets and gives is
// what JSON can hold, and a string crosses threads for less than the structured clone of the object. A message
// from the other thread holds every invocation of one turn of its event loop.
parentPort.on('message', (message) => {
  for (const invocation of JSON.parse(message)) void invoke(invocation);
});

async function invoke({ id, event }) {
  const deadline = Date.now() + timeoutSeconds * 1000;
  const context = {
    awsRequestId: `local-${id}`,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '256',
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  };
  try {
    answers.push(JSON.stringify({ id, result: await handler(event, context) }));
  } catch (error) {
    answers.push(JSON.stringify({ id, error: { name: error?.name ?? 'Error', message: String(error?.message ?? error) } }));
  }
  flushSoon();
}
// After the import's own log lines, which the flush already scheduled carries first.
setImmediate(() => parentPort.postMessage({ ready: true }));
