import './exit-quietly-when-the-reader-leaves';
import { parseArgs } from 'node:util';
import {
  accountsList,
  accountsSetPlan,
  accountsShow,
  aliasesAllow,
  domainsDisable,
  domainsEnable,
  domainsList,
  domainsRelease,
  domainsShow,
  flagsList,
  flagsSet,
  keysCreate,
  keysList,
  keysRevoke,
  linksDisable,
  linksEnable,
  linksShow,
  type Parsed,
} from './ops/commands';
import { FLAG_NAMES } from '../functions/shared/domain/limits/flags';
import { SCOPES } from '../functions/shared/domain/accounts/permissions';
import { deployedTarget, localTarget, OpsError, type OpsTarget } from './ops/target';

/** `npm run ops -- <command>`: the operator's CLI, against the local stack or a deployed stage (--stage). */
const COMMANDS: Record<string, (target: OpsTarget, parsed: Parsed, print: (line: string) => void) => Promise<void>> = {
  'keys create': keysCreate,
  'keys list': keysList,
  'keys revoke': keysRevoke,
  'accounts list': accountsList,
  'accounts show': accountsShow,
  'accounts set-plan': accountsSetPlan,
  'links show': linksShow,
  'links disable': linksDisable,
  'links enable': linksEnable,
  'domains list': domainsList,
  'domains show': domainsShow,
  'domains disable': domainsDisable,
  'domains enable': domainsEnable,
  'domains release': domainsRelease,
  'flags list': flagsList,
  'flags set': flagsSet,
  'aliases allow': aliasesAllow,
};

const USAGE = `usage: npm run ops -- <command> [--stage <name>]
  help
  keys create --plan <FREE|INDIE|PRO|ENTERPRISE> [--label <text>] [--monthly-limit <n>] [KEY] [--json]   (a new account)
  keys create --account <accountId> [--label <text>] [KEY] [--json]                                    (one more key)
      KEY: [--scopes <scope,scope,...>] [--expires-at <ISO time>]   (without --scopes: every scope)
      scopes: ${SCOPES.join(', ')}
  keys list
  keys revoke <keyId>
  accounts list
  accounts show <accountId>
  accounts set-plan <accountId> <FREE|INDIE|PRO|ENTERPRISE>
  links show <code>                         (a link on a custom domain: <domain>/<code>)
  links disable <code> --reason <text>
  links enable <code>
  domains list [--account <accountId>]
  domains show <domain>
  domains disable <domain> --reason <text>  (every link on it answers 410)
  domains enable <domain>
  domains release <domain>                  (frees the name: a hold, a takedown or any claim on it goes)
  flags list
  flags set <${FLAG_NAMES.join('|')}> <on|off>
  aliases allow <alias> --key <keyId>`;

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      plan: { type: 'string' },
      label: { type: 'string' },
      'monthly-limit': { type: 'string' },
      json: { type: 'boolean' },
      key: { type: 'string' },
      account: { type: 'string' },
      reason: { type: 'string' },
      scopes: { type: 'string' },
      'expires-at': { type: 'string' },
      stage: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals.length === 0 || positionals[0] === 'help') return void console.log(USAGE);
  const command = COMMANDS[positionals.slice(0, 2).join(' ')];
  if (!command) throw new OpsError(`unknown command "${positionals.join(' ')}"\n${USAGE}`);
  const target = values.stage ? await deployedTarget(values.stage) : localTarget();
  await command(target, { positionals, values }, (line) => console.log(line));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  const unreachable = /ECONNREFUSED|connect/i.test(message) ? ' (is the local stack running? npm start)' : '';
  console.error(`ops: ${message.split('\n')[0]}${unreachable}`);
  if (error instanceof OpsError && message.includes('\n')) console.error(message.split('\n').slice(1).join('\n'));
  process.exit(error instanceof OpsError ? 2 : 1);
});
