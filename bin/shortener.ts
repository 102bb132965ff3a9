import './exit-quietly-when-the-reader-leaves';
import { Command, CommanderError } from 'commander';
import { ApiRefusal, importLinks, linkStats, listLinks, qrCode, type Io } from './shortener/commands';
import { apiClient, personClient, type CallerOptions } from './shortener/caller';
import { UsageError } from './shortener/csv-links';
import { BULK_ACTIONS, bulkChange, type BulkOptions } from './shortener/bulk-commands';
import { addDomain, listDomains, verifyDomain } from './shortener/domain-commands';
import { listAuditLog, type AuditOptions } from './shortener/audit-commands';
import { createKey, listKeys, revokeKey } from './shortener/key-commands';
import { importFrom } from './shortener/import-job-commands';
import { login, logout } from './shortener/login-commands';
import { changeRole, invite, listInvitations, listMembers, removeMember, revokeInvitation } from './shortener/member-commands';
import { credentialsPath } from './shortener/sign-in/credentials-file';
import { ROLES, SCOPES } from '../functions/shared/domain/accounts/permissions';
import { IMPORT_SOURCES } from '../functions/shared/domain/imports/import-record';
import { addWebhook, deleteWebhook, listDeliveries, listWebhooks, rotateSecret, setWebhookEnabled, testWebhook } from './shortener/webhook-commands';

/**
 * `npm run shortener -- <command>`: the API client's command line, on the typed client (clients/typescript).
 * Exit codes: 0 done, 1 the API refused (a call, or for `bulk` any link), 2 a bad file, argument or setting.
 */
const io: Io = { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) };

const program = new Command('shortener')
  .description(`Short links from the command line. Reads SHORTENER_API_URL and SHORTENER_API_KEY, or without a key the person \`shortener login\` signed in (kept in ${credentialsPath()}).`)
  .option('--workspace <id>', 'the workspace (acct_…) a signed-in person acts in; by default SHORTENER_WORKSPACE, else the one chosen at login')
  .exitOverride()
  .configureOutput({ writeErr: (text) => io.err(text) });

const caller = (): CallerOptions => {
  const { workspace } = program.opts<{ workspace?: string }>();
  return workspace ? { workspace } : {};
};

program
  .command('login')
  .description("sign in as a person in the browser (authorization code with PKCE); the tokens are kept in a file only you can read, renewed when they expire, and never printed")
  .option('--api-url <url>', 'the API address (default SHORTENER_API_URL)')
  .option('--issuer <url>', "the sign-in provider's issuer (default SHORTENER_ISSUER; the SignInIssuer output)")
  .option('--client-id <id>', "the command line's app client (default SHORTENER_CLIENT_ID; the CliClientId output)")
  .option('--workspace <id>', 'the workspace commands act in by default (without it: yours, when you have one)')
  .option('--no-browser', 'only print the address to open')
  .action(async (options: { apiUrl?: string; issuer?: string; clientId?: string; workspace?: string; browser: boolean }) => login({ ...options, workspace: options.workspace ?? caller().workspace }, io));

program
  .command('logout')
  .description('revoke the stored sign-in at the provider and forget it here')
  .action(async () => logout(io));

program
  .command('import')
  .description('create a link per row of a CSV file (columns url,alias,password,expiresIn,maxClicks,domain), 50 per request; with --from, move links in from another shortener\'s export, with their history')
  .argument('<file>', 'the CSV file, with a header row (with --from: the export, CSV or JSON as its source writes it)')
  .option('--out <file>', 'write the results (every row, with shortUrl or error; with --from the rows that failed, were renamed or skipped) there instead of to stdout (with --from: beside the file)')
  .option('--from <source>', `import the export of ${IMPORT_SOURCES.join(', ')} (POST /v2/imports), following the job with a progress bar`)
  .option('--on-conflict <skip|rename>', 'with --from: what to do with a slug already taken (skip by default)')
  .option('--wait <minutes>', 'with --from: how long to follow the job before leaving it to run and exiting 1 (30 by default)')
  .action(async (file: string, options: { out?: string; from?: string; onConflict?: string; wait?: string }) =>
    options.from === undefined ? importLinks(await apiClient(caller()), file, options, io) : importFrom(await apiClient(caller()), file, { ...options, from: options.from }, io),
  );

program
  .command('list')
  .description("list the account's links, newest first")
  .option('--status <status>', 'only links in this state: active, expired, used-up, disabled, deleted')
  .option('--domain <domain>', 'only links on this domain (a custom one, or the shared host)')
  .option('--health <health>', 'broken: only links two checks in a row found broken (PRO and up; docs/link-health.md)')
  .option('--json', 'print JSON instead of tab-separated lines')
  .action(async (options: { status?: string; domain?: string; health?: string; json?: boolean }) => listLinks(await apiClient(caller()), options, io));

program
  .command('bulk')
  .description('one action on many links (POST /v2/links/bulk): the codes given, 100 a call, or every link a filter picks, following the cursor until done; prints each link not changed with the reason, then a summary; exit 1 when any was not changed')
  .argument('<action>', BULK_ACTIONS.join(', '))
  .option('--codes <list>', 'comma-separated short codes, or - to read them from stdin, one a line')
  .option('--tag <tag>', 'filter: links carrying this tag')
  .option('--search <text>', 'filter: links whose code or destination contains this')
  .option('--status <status>', 'filter: links in this state: active, expired, used-up, disabled, deleted')
  .option('--domain <domain>', "with --codes, the domain they are on (by default the account's default domain); else a filter: links on this domain")
  .option('--tags <list>', 'add-tags, remove-tags: comma-separated tags')
  .option('--url <url>', 'update: the new destination')
  .option('--expires-at <time>', 'update: the new expiry, an ISO 8601 time with a time zone, or none to remove it')
  .option('--yes', 'delete over a filter: yes, delete every link it picks')
  .action(async (action: string, options: BulkOptions) => bulkChange(() => apiClient(caller()), action, options, io));

program
  .command('stats')
  .description("a link's clicks, or without a code the whole workspace's")
  .argument('[code]', 'the short code')
  .option('--days <n>', 'the window, 1 to 90 days (30 by default)')
  .option('--domain <domain>', "the link's domain (by default the account's default domain); for the workspace, only that custom domain's links")
  .option('--tag <tag>', "the workspace's links carrying this tag only")
  .option('--bots', "add bots' visits to every figure (they are always counted apart)")
  .option('--json', 'print the API answer as JSON')
  .action(async (code: string | undefined, options: { days?: string; domain?: string; tag?: string; bots?: boolean; json?: boolean }) => linkStats(await apiClient(caller()), code, options, io));

program
  .command('qr')
  .description("save a link's QR code")
  .argument('<code>', 'the short code')
  .requiredOption('--out <file>', 'where to write it (.svg or .png)')
  .option('--format <format>', 'svg or png (by default from the file name)')
  .option('--size <pixels>', '128 to 1024')
  .option('--domain <domain>', "the link's domain (by default the account's default domain)")
  .action(async (code: string, options: { out: string; format?: string; size?: string; domain?: string }) => qrCode(await apiClient(caller()), code, options, io));

program
  .command('audit')
  .description("the workspace's audit log, newest first: who changed what (needs audit:read)")
  .option('--actor <id>', 'only changes by this key id, user id, or operator')
  .option('--action <action>', 'only this action, such as link.updated')
  .option('--target <id>', "only changes to this link's code, domain, webhook id…")
  .option('--from <time>', 'from this ISO time on')
  .option('--to <time>', 'up to this ISO time')
  .option('--limit <n>', 'at most this many records (50 by default)')
  .option('--json', 'print JSON instead of tab-separated lines')
  .action(async (options: AuditOptions) => listAuditLog(await apiClient(caller()), options, io));

const domains = program.command('domains').description("the account's own domains for its links");
domains
  .command('list')
  .description('every domain of the account, with its status and the DNS records still to create')
  .option('--json', 'print the API answer as JSON')
  .action(async (options: { json?: boolean }) => listDomains(await apiClient(caller()), options, io));
domains
  .command('add')
  .description('claim a domain for the account; it is active once its DNS record points at the service')
  .argument('<domain>', 'e.g. go.example.com')
  .option('--json', 'print the API answer as JSON')
  .action(async (domain: string, options: { json?: boolean }) => addDomain(await apiClient(caller()), domain, options, io));
domains
  .command('verify')
  .description("check a domain's DNS now rather than on the schedule")
  .argument('<domain>', 'e.g. go.example.com')
  .option('--json', 'print the API answer as JSON')
  .action(async (domain: string, options: { json?: boolean }) => verifyDomain(await apiClient(caller()), domain, options, io));

const webhooks = program.command('webhooks').description("the account's webhooks: signed calls to your endpoint when links change or are clicked");
webhooks
  .command('list')
  .description('every webhook of the account: id, state, URL, events')
  .option('--json', 'print the API answer as JSON')
  .action(async (options: { json?: boolean }) => listWebhooks(await apiClient(caller()), options, io));
webhooks
  .command('add')
  .description('send these events to a URL; prints the signing secret, shown this once')
  .argument('<url>', 'https://… (your endpoint)')
  .requiredOption('--events <list>', 'comma-separated, e.g. link.created,link.clicked')
  .option('--description <text>', 'what it is for')
  .option('--json', 'print the API answer as JSON')
  .action(async (url: string, options: { events: string; description?: string; json?: boolean }) => addWebhook(await apiClient(caller()), url, options, io));
webhooks
  .command('test')
  .description('send a webhook.test event now')
  .argument('<id>', 'wh_…')
  .action(async (id: string) => testWebhook(await apiClient(caller()), id, io));
webhooks
  .command('deliveries')
  .description('the latest attempts, newest first')
  .argument('<id>', 'wh_…')
  .option('--limit <n>', '1 to 100 (20 by default)')
  .option('--json', 'print the API answer as JSON')
  .action(async (id: string, options: { limit?: string; json?: boolean }) => listDeliveries(await apiClient(caller()), id, options, io));
webhooks
  .command('rotate-secret')
  .description('a new signing secret; the old one keeps signing beside it for 24 hours')
  .argument('<id>', 'wh_…')
  .action(async (id: string) => rotateSecret(await apiClient(caller()), id, io));
webhooks
  .command('enable')
  .description('turn a webhook on again (after a 410 or 5 days of failures, too)')
  .argument('<id>', 'wh_…')
  .action(async (id: string) => setWebhookEnabled(await apiClient(caller()), id, true, io));
webhooks
  .command('disable')
  .description('stop sending to it for now')
  .argument('<id>', 'wh_…')
  .action(async (id: string) => setWebhookEnabled(await apiClient(caller()), id, false, io));
webhooks
  .command('delete')
  .description('remove a webhook: nothing more is sent to it')
  .argument('<id>', 'wh_…')
  .action(async (id: string) => deleteWebhook(await apiClient(caller()), id, io));

const keys = program.command('keys').description("the workspace's API keys (people only: a signed-in person or SHORTENER_TOKEN, never a key)");
keys
  .command('create')
  .description('make a key holding only the given scopes (never more than your role allows); prints the key, shown this once')
  .argument('<name>', 'what the key is for, e.g. "CI deploys"')
  .requiredOption('--scopes <list>', `comma-separated among ${SCOPES.join(', ')}`)
  .option('--expires-at <time>', 'an ISO 8601 time with a time zone, at most a year ahead (default: until revoked)')
  .option('--json', 'print the API answer as JSON')
  .action(async (name: string, options: { scopes: string; expiresAt?: string; json?: boolean }) => createKey(await personClient(caller()), name, options, io));
keys
  .command('list')
  .description("the workspace's keys: id, state, name, scopes, expiry, last use, maker (never a secret)")
  .option('--json', 'print the API answer as JSON')
  .action(async (options: { json?: boolean }) => listKeys(await personClient(caller()), options, io));
keys
  .command('revoke')
  .description('revoke a key: its next request is refused')
  .argument('<id>', 'key_…')
  .action(async (id: string) => revokeKey(await personClient(caller()), id, io));

const members = program.command('members').description("the workspace's people (people only: a signed-in person or SHORTENER_TOKEN)");
members
  .command('list')
  .description('every member: user id, role, email, joined')
  .option('--json', 'print the API answer as JSON')
  .action(async (options: { json?: boolean }) => listMembers(await personClient(caller()), options, io));
members
  .command('invite')
  .description('invite someone by email with a role: they accept from the mail, signed in as that address')
  .argument('<email>', 'who to invite')
  .requiredOption('--role <role>', ROLES.join(', '))
  .option('--json', 'print the API answer as JSON')
  .action(async (email: string, options: { role: string; json?: boolean }) => invite(await personClient(caller()), email, options, io));
members
  .command('role')
  .description("change a member's role (a workspace keeps at least one owner)")
  .argument('<userId>', "the member's user id (see members list)")
  .requiredOption('--role <role>', ROLES.join(', '))
  .option('--json', 'print the API answer as JSON')
  .action(async (userId: string, options: { role: string; json?: boolean }) => changeRole(await personClient(caller()), userId, options, io));
members
  .command('remove')
  .description('remove a member: their next request is refused')
  .argument('<userId>', "the member's user id (see members list)")
  .action(async (userId: string) => removeMember(await personClient(caller()), userId, io));

const invitations = program.command('invitations').description("the workspace's pending invitations (people only)");
invitations
  .command('list')
  .description('every pending invitation: id, role, email, who invited, expiry')
  .option('--json', 'print the API answer as JSON')
  .action(async (options: { json?: boolean }) => listInvitations(await personClient(caller()), options, io));
invitations
  .command('revoke')
  .description("revoke an invitation: its mail's link no longer works")
  .argument('<id>', 'inv_…')
  .action(async (id: string) => revokeInvitation(await personClient(caller()), id, io));

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
