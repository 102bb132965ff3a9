import './exit-quietly-when-the-reader-leaves';
import { Command, CommanderError } from 'commander';
import { ApiRefusal, clientFromEnvironment, importLinks, linkStats, listLinks, qrCode, type Io } from './shortener/commands';
import { UsageError } from './shortener/csv-links';
import { addDomain, listDomains, verifyDomain } from './shortener/domain-commands';
import { createKey, listKeys, personClientFromEnvironment, revokeKey } from './shortener/key-commands';
import { SCOPES } from '../functions/shared/domain/accounts/permissions';
import { addWebhook, deleteWebhook, listDeliveries, listWebhooks, rotateSecret, setWebhookEnabled, testWebhook } from './shortener/webhook-commands';

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
  .description('create a link per row of a CSV file (columns url,alias,password,expiresIn,maxClicks,domain), 50 per request')
  .argument('<file>', 'the CSV file, with a header row')
  .option('--out <file>', 'write the results (every row, with shortUrl or error) there instead of to stdout')
  .action((file: string, options: { out?: string }) => importLinks(clientFromEnvironment(), file, options, io));

program
  .command('list')
  .description("list the account's links, newest first")
  .option('--status <status>', 'only links in this state: active, expired, used-up, disabled, deleted')
  .option('--domain <domain>', 'only links on this domain (a custom one, or the shared host)')
  .option('--json', 'print JSON instead of tab-separated lines')
  .action((options: { status?: string; domain?: string; json?: boolean }) => listLinks(clientFromEnvironment(), options, io));

program
  .command('stats')
  .description("a link's clicks")
  .argument('<code>', 'the short code')
  .option('--days <n>', 'the window, 1 to 90 days (30 by default)')
  .option('--domain <domain>', "the link's domain (by default the account's default domain)")
  .option('--json', 'print the API answer as JSON')
  .action((code: string, options: { days?: string; domain?: string; json?: boolean }) => linkStats(clientFromEnvironment(), code, options, io));

program
  .command('qr')
  .description("save a link's QR code")
  .argument('<code>', 'the short code')
  .requiredOption('--out <file>', 'where to write it (.svg or .png)')
  .option('--format <format>', 'svg or png (by default from the file name)')
  .option('--size <pixels>', '128 to 1024')
  .option('--domain <domain>', "the link's domain (by default the account's default domain)")
  .action((code: string, options: { out: string; format?: string; size?: string; domain?: string }) => qrCode(clientFromEnvironment(), code, options, io));

const domains = program.command('domains').description("the account's own domains for its links");
domains
  .command('list')
  .description('every domain of the account, with its status and the DNS records still to create')
  .option('--json', 'print the API answer as JSON')
  .action((options: { json?: boolean }) => listDomains(clientFromEnvironment(), options, io));
domains
  .command('add')
  .description('claim a domain for the account; it is active once its DNS record points at the service')
  .argument('<domain>', 'e.g. go.example.com')
  .option('--json', 'print the API answer as JSON')
  .action((domain: string, options: { json?: boolean }) => addDomain(clientFromEnvironment(), domain, options, io));
domains
  .command('verify')
  .description("check a domain's DNS now rather than on the schedule")
  .argument('<domain>', 'e.g. go.example.com')
  .option('--json', 'print the API answer as JSON')
  .action((domain: string, options: { json?: boolean }) => verifyDomain(clientFromEnvironment(), domain, options, io));

const webhooks = program.command('webhooks').description("the account's webhooks: signed calls to your endpoint when links change or are clicked");
webhooks
  .command('list')
  .description('every webhook of the account: id, state, URL, events')
  .option('--json', 'print the API answer as JSON')
  .action((options: { json?: boolean }) => listWebhooks(clientFromEnvironment(), options, io));
webhooks
  .command('add')
  .description('send these events to a URL; prints the signing secret, shown this once')
  .argument('<url>', 'https://… (your endpoint)')
  .requiredOption('--events <list>', 'comma-separated, e.g. link.created,link.clicked')
  .option('--description <text>', 'what it is for')
  .option('--json', 'print the API answer as JSON')
  .action((url: string, options: { events: string; description?: string; json?: boolean }) => addWebhook(clientFromEnvironment(), url, options, io));
webhooks
  .command('test')
  .description('send a webhook.test event now')
  .argument('<id>', 'wh_…')
  .action((id: string) => testWebhook(clientFromEnvironment(), id, io));
webhooks
  .command('deliveries')
  .description('the latest attempts, newest first')
  .argument('<id>', 'wh_…')
  .option('--limit <n>', '1 to 100 (20 by default)')
  .option('--json', 'print the API answer as JSON')
  .action((id: string, options: { limit?: string; json?: boolean }) => listDeliveries(clientFromEnvironment(), id, options, io));
webhooks
  .command('rotate-secret')
  .description('a new signing secret; the old one keeps signing beside it for 24 hours')
  .argument('<id>', 'wh_…')
  .action((id: string) => rotateSecret(clientFromEnvironment(), id, io));
webhooks
  .command('enable')
  .description('turn a webhook on again (after a 410 or 5 days of failures, too)')
  .argument('<id>', 'wh_…')
  .action((id: string) => setWebhookEnabled(clientFromEnvironment(), id, true, io));
webhooks
  .command('disable')
  .description('stop sending to it for now')
  .argument('<id>', 'wh_…')
  .action((id: string) => setWebhookEnabled(clientFromEnvironment(), id, false, io));
webhooks
  .command('delete')
  .description('remove a webhook: nothing more is sent to it')
  .argument('<id>', 'wh_…')
  .action((id: string) => deleteWebhook(clientFromEnvironment(), id, io));

const keys = program.command('keys').description("the workspace's API keys (people only: reads SHORTENER_TOKEN and SHORTENER_WORKSPACE instead of a key)");
keys
  .command('create')
  .description('make a key holding only the given scopes (never more than your role allows); prints the key, shown this once')
  .argument('<name>', 'what the key is for, e.g. "CI deploys"')
  .requiredOption('--scopes <list>', `comma-separated among ${SCOPES.join(', ')}`)
  .option('--expires-at <time>', 'an ISO 8601 time with a time zone, at most a year ahead (default: until revoked)')
  .option('--json', 'print the API answer as JSON')
  .action((name: string, options: { scopes: string; expiresAt?: string; json?: boolean }) => createKey(personClientFromEnvironment(), name, options, io));
keys
  .command('list')
  .description("the workspace's keys: id, state, name, scopes, expiry, last use, maker (never a secret)")
  .option('--json', 'print the API answer as JSON')
  .action((options: { json?: boolean }) => listKeys(personClientFromEnvironment(), options, io));
keys
  .command('revoke')
  .description('revoke a key: its next request is refused')
  .argument('<id>', 'key_…')
  .action((id: string) => revokeKey(personClientFromEnvironment(), id, io));

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
