/**
 * Node answers each read of `process.env` from the C environment, about 150 ns a read (Node 24, measured in a loop).
 * Powertools reads `AWS_LAMBDA_MAX_CONCURRENCY` at every one of its invocation-scoped reads, some twenty a request:
 * 3.3 µs of the redirect's 21 µs a visit (issue 28, `node --cpu-prof` on the handler in a loop). A plain copy
 * answers in nanoseconds. Whatever sets a variable later (Lambda's runtime sets `_X_AMZN_TRACE_ID` per invocation)
 * writes to the copy, which is where every reader looks; nothing in a function starts a child process.
 */
process.env = { ...process.env };
