/**
 * Node answers each read of `process.env` from the C environment, about 150 ns a read (Node 24, measured in a loop).
 * Powertools reads `AWS_LAMBDA_MAX_CONCURRENCY` at every one of its invocation-scoped reads, some twenty a request:
 * 3.3 µs of the redirect's 21 µs a visit (issue 28, `node --cpu-prof` on the handler in a loop). A plain copy
 * answers in nanoseconds. What is set through `process.env` afterwards lands in the copy, where every reader looks;
 * nothing in a function starts a child process, and the one variable Lambda's runtime changes per invocation, the
 * X-Ray trace header, Powertools reads from the runtime's invocation store first (tracing is off here anyway).
 */
process.env = { ...process.env };
