/**
 * `npm run ops -- keys list | head -1` closes the pipe after one line: that is the reader being done, not a
 * failure, so the command ends quietly (exit 0) instead of dying on EPIPE with a stack trace.
 */
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(0);
});
