import './local/quiet-node-version-warning.cjs';
import './exit-quietly-when-the-reader-leaves';
import { Command, CommanderError } from 'commander';
import { ApiRefusal, clientFromEnvironment, importLinks, linkStats, listLinks, qrCode, type Io } from './shortener/commands';
import { UsageError } from './shortener/csv-links';

/**
 * `npm run shortener -- <command>`: the API client's command line, on the typed client (clients/typescript).
 * Exit codes: 0 done, 1 the API refused, 2 a bad file, argument or setting.
 */
const io: Io = { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) };

const program = new Command('shortener')
  .description('Short links from the command line. Reads SHORTENER_API_URL and SHORTENER_API_KEY.')
  .exitOverride()
  .configureOutput({ writeErr: (text) => io.err(text) });

program
  .command('import')
  .description('create a link per row of a CSV file (columns url,alias,password,expiresIn,maxClicks), 50 per request')
  .argument('<file>', 'the CSV file, with a header row')
  .option('--out <file>', 'write the results (every row, with shortUrl or error) there instead of to stdout')
  .action((file: string, options: { out?: string }) => importLinks(clientFromEnvironment(), file, options, io));

program
  .command('list')
  .description("list the account's links, newest first")
  .option('--status <status>', 'only links in this state: active, expired, used-up, disabled, deleted')
  .option('--json', 'print JSON instead of tab-separated lines')
  .action((options: { status?: string; json?: boolean }) => listLinks(clientFromEnvironment(), options, io));

program
  .command('stats')
  .description("a link's clicks")
  .argument('<code>', 'the short code')
  .option('--days <n>', 'the window, 1 to 90 days (30 by default)')
  .option('--json', 'print the API answer as JSON')
  .action((code: string, options: { days?: string; json?: boolean }) => linkStats(clientFromEnvironment(), code, options, io));

program
  .command('qr')
  .description("save a link's QR code")
  .argument('<code>', 'the short code')
  .requiredOption('--out <file>', 'where to write it (.svg or .png)')
  .option('--format <format>', 'svg or png (by default from the file name)')
  .option('--size <pixels>', '128 to 1024')
  .action((code: string, options: { out: string; format?: string; size?: string }) => qrCode(clientFromEnvironment(), code, options, io));

program.parseAsync(process.argv).then(
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : 2);
    if (error instanceof UsageError) {
      io.err(`${error.message}\n`);
      process.exit(2);
    }
    io.err(`${error instanceof ApiRefusal ? error.message : `failed: ${(error as Error).message}`}\n`);
    process.exit(1);
  },
);
