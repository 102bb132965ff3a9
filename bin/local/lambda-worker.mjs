// Runs one bundled Lambda handler inside a worker thread, so each function keeps its own environment and
// module state, as its own Lambda container would. Plain JavaScript: it loads the bundle exactly as deployed.
import { parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';

// A worker's stdout crosses to the main thread one message per write; a log line per request under load makes
// that the costliest part of a visit. Writes are gathered and passed on once per turn of the event loop, in order,
// as Lambda's own log agent ships them apart from the function.
const write = process.stdout.write.bind(process.stdout);
let gathered = [];
process.stdout.write = (chunk, encoding, callback) => {
  if (gathered.length === 0) setImmediate(() => write(gathered.splice(0).join('')));
  gathered.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString(typeof encoding === 'string' ? encoding : 'utf8'));
  if (typeof encoding === 'function') encoding();
  else if (typeof callback === 'function') callback();
  return true;
};

const { entryFile, exportName, functionName, timeoutSeconds } = workerData;
const module = await import(pathToFileURL(entryFile).href);
const handler = module[exportName];

// Events and results cross as JSON text, as Lambda's runtime API carries them: what a function gets and gives is
// what JSON can hold, and a string crosses threads for less than the structured clone of the object. Both ways a
// message holds every invocation (or answer) of one turn of the event loop: a message per visit woke the other
// thread once per visit (lambda-runtime.ts).
const answers = [];
function answer(text) {
  if (answers.length === 0) setImmediate(() => parentPort.postMessage(`[${answers.splice(0).join(',')}]`));
  answers.push(text);
}

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
    answer(JSON.stringify({ id, result: await handler(event, context) }));
  } catch (error) {
    answer(JSON.stringify({ id, error: { name: error?.name ?? 'Error', message: String(error?.message ?? error) } }));
  }
}
parentPort.postMessage(JSON.stringify({ ready: true }));
