import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Template } from 'aws-cdk-lib/assertions';
import { readTopology, type Template as TemplateJson } from '../../bin/local/template';
import { BESIDE_THE_BUNDLE } from '../../functions/shared/config';
import { buildStack } from './app-factory';
import { WEBHOOK_DELIVERER_MAX_CONCURRENCY } from '../../lib/capacity';
import { dashboardApiPathsCode, dashboardPagesCode, DASHBOARD_CACHE_CONTROL } from '../../lib/dashboard';
import { ORIGIN_VERIFY_HEADER } from '../../functions/shared/http/trusted-viewer';
import { dashboardContentSecurityPolicy } from '../../web/content-security-policy';

/**
 * Synth passes whether or not an ESM bundle can load (the "Dynamic require" trap): import each built bundle
 * in a fresh Node process, as Lambda would.
 */
const outdir = mkdtempSync(path.join(tmpdir(), 'bundles-'));
const { stack } = buildStack({ stage: 'dev' }, { outdir, bundle: true });
const template = Template.fromStack(stack).toJSON() as TemplateJson;
const functions = [...readTopology(template, outdir, { region: 'us-east-1', shortHost: 'sho.rt' }).functions.values()];

describe('bundled functions', () => {
  it('are twenty-three', () => {
    expect(functions).toHaveLength(23);
  });

  it.each(functions.map((fn) => [fn.environment.POWERTOOLS_SERVICE_NAME ?? fn.logicalId, fn] as const))(
    '%s imports as ESM in a fresh Node process and exports its handler',
    (_name, fn) => {
      const script = `const m = await import(${JSON.stringify(pathToFileURL(fn.entryFile).href)}); console.log(typeof m.${fn.exportName});`;
      const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        // LAMBDA_TASK_ROOT as Lambda sets it: the docs function reads the file shipped beside its bundle from there.
        env: { ...process.env, ...fn.environment, AWS_REGION: 'us-east-1', LAMBDA_TASK_ROOT: path.dirname(fn.entryFile) },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      expect(output.trim()).toBe('function');
    },
  );

  it('carry the User-Agent classifier (ua-parser-js, about 6 ms of a cold start with isbot) only where visits are read', () => {
    // "Konqueror" is one of ua-parser-js's browser names; no code of ours spells it.
    const carrying = functions.filter((fn) => /konqueror/i.test(readFileSync(fn.entryFile, 'utf8'))).map((fn) => fn.environment.POWERTOOLS_SERVICE_NAME);
    expect(carrying).toEqual(['redirect']);
  });

  it('carry the import files\' parsers (csv-parse among them) where a file is accepted, not in the import worker', () => {
    // One of csv-parse's error codes; no code of ours spells it. (The docs function describes the import routes
    // from the same module and carries them too; it has no SDK floor to be measured against.)
    const carrying = functions.filter((fn) => readFileSync(fn.entryFile, 'utf8').includes('CSV_QUOTE_NOT_CLOSED')).map((fn) => fn.environment.POWERTOOLS_SERVICE_NAME);
    expect(carrying).toContain('imports');
    expect(carrying).not.toContain('import-worker');
  });
});

describe('the local stack reads from the synthesized template', () => {
  it('the domain worker\'s and link health\'s schedules, as EventBridge runs them', () => {
    const topology = readTopology(template, outdir, { region: 'us-east-1', shortHost: 'sho.rt' });
    const idOf = (service: string) => functions.find((fn) => fn.environment.POWERTOOLS_SERVICE_NAME === service)?.logicalId;
    expect(topology.schedules).toEqual(
      expect.arrayContaining([
        { functionId: idOf('domain-worker'), everyMs: 60_000 },
        { functionId: idOf('link-health'), everyMs: 3_600_000 },
      ]),
    );
    expect(topology.schedules).toHaveLength(2);
  });

  it('link health\'s check queue, its redrive policy and its consumer; the router and the worker send to it by its URL', () => {
    const topology = readTopology(template, outdir, { region: 'us-east-1', shortHost: 'sho.rt' });
    const idOf = (service: string) => functions.find((fn) => fn.environment.POWERTOOLS_SERVICE_NAME === service)?.logicalId;
    const checks = topology.queues.find((queue) => queue.id.startsWith('LinkHealthChecks'));
    expect(checks).toEqual({ id: expect.any(String), visibilityTimeoutSeconds: 540, deadLetter: { queueId: expect.stringMatching(/^LinkHealthCheckDeadLetters/), maxReceiveCount: 5 } });
    expect(topology.queueSources.filter((source) => source.queueId === checks?.id)).toEqual([{ functionId: idOf('link-health'), queueId: checks?.id, batchSize: 5, reportBatchItemFailures: true, maxConcurrency: 5 }]);
    for (const service of ['link-health', 'webhook-events']) {
      expect(functions.find((fn) => fn.logicalId === idOf(service))?.environment.HEALTH_QUEUE_URL).toBe(`https://sqs.us-east-1.amazonaws.com/000000000000/${checks?.id ?? ''}`);
    }
  });
});

describe('the local stack plays the webhooks\' queues and streams from the template', () => {
  const topology = readTopology(template, outdir, { region: 'us-east-1', shortHost: 'sho.rt' });
  const idOf = (service: string) => functions.find((fn) => fn.environment.POWERTOOLS_SERVICE_NAME === service)?.logicalId;
  const deliveries = topology.queues.find((queue) => queue.id.startsWith('WebhooksDeliveries'));

  it('the delivery queue, its redrive policy and its consumer, with its maximum concurrency for the local poller', () => {
    expect(deliveries).toEqual({ id: expect.any(String), visibilityTimeoutSeconds: 180, deadLetter: { queueId: expect.stringMatching(/^WebhooksDeliveryDeadLetters/), maxReceiveCount: 5 } });
    expect(topology.queueSources.filter((source) => source.queueId === deliveries?.id)).toEqual([{ functionId: idOf('webhook-deliverer'), queueId: deliveries?.id, batchSize: 10, reportBatchItemFailures: true, maxConcurrency: WEBHOOK_DELIVERER_MAX_CONCURRENCY }]);
    // The queue's Ref is its URL, as on AWS: the functions send to it by that.
    expect(functions.find((fn) => fn.logicalId === idOf('webhook-events'))?.environment.DELIVERY_QUEUE_URL).toBe(`https://sqs.us-east-1.amazonaws.com/000000000000/${deliveries?.id ?? ''}`);
  });

  it('the table streams, the usage one filtered to quota counters, the audit recorder\'s to stamped changes, each with its failure queue', () => {
    expect(topology.streamSources.map((source) => [source.functionId, source.tableName.replace(/[A-F0-9]{8}$/, ''), source.filterPatterns, source.onFailureQueueId?.replace(/[A-F0-9]{8}$/, '')])).toEqual([
      [idOf('webhook-events'), 'DataLinks', [], 'WebhooksStreamDeadLetters'],
      [idOf('webhook-events'), 'DataUsage', [{ dynamodb: { Keys: { pk: { S: [{ prefix: 'quota#' }] } } } }], 'WebhooksStreamDeadLetters'],
      // The audit log's: the links' changes stamped on their items (functions/audit-events); clicks remove the stamp.
      [idOf('audit-events'), 'DataLinks', [{ dynamodb: { NewImage: { auditStamp: { M: { id: { S: [{ exists: true }] } } } } } }], 'AuditStreamDeadLetters'],
    ]);
    expect(topology.tables.filter((table) => table.streamViewType).map((table) => table.name.replace(/[A-F0-9]{8}$/, '')).sort()).toEqual(['DataLinks', 'DataUsage']);
  });
});

describe('what the bundles ship', () => {
  it('has no source maps: nothing reads them, and every function would carry them (issue 16)', () => {
    for (const fn of functions) {
      const folder = path.dirname(fn.entryFile);
      expect(readdirSync(folder).filter((file) => file.endsWith('.map'))).toEqual([]);
      expect(readFileSync(fn.entryFile, 'utf8')).not.toContain('sourceMappingURL');
    }
  });
});

describe('the idempotency bundle beside the creation functions', () => {
  const creators = functions.filter((fn) => ['create', 'batch'].includes(fn.environment.POWERTOOLS_SERVICE_NAME ?? ''));

  it('ships beside create and batch only, and keeps Powertools idempotency out of their main bundles', () => {
    expect(creators).toHaveLength(2);
    for (const fn of functions) {
      const beside = path.join(path.dirname(fn.entryFile), BESIDE_THE_BUNDLE.idempotency);
      expect([fn.environment.POWERTOOLS_SERVICE_NAME, existsSync(beside)]).toEqual([fn.environment.POWERTOOLS_SERVICE_NAME, creators.includes(fn)]);
      expect(readFileSync(fn.entryFile, 'utf8')).not.toContain('INPROGRESS');
    }
  });

  it.each(creators.map((fn) => [fn.environment.POWERTOOLS_SERVICE_NAME, fn] as const))('imports as ESM beside %s and exports the store', (_name, fn) => {
    const file = path.join(path.dirname(fn.entryFile), BESIDE_THE_BUNDLE.idempotency);
    const script = `const m = await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(typeof m.idempotencyStore);`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, AWS_REGION: 'us-east-1' }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(output.trim()).toBe('function');
  });
});

describe('the claim rules beside the domains function (issue 17)', () => {
  const domains = functions.find((fn) => fn.environment.POWERTOOLS_SERVICE_NAME === 'domains');

  it('keep the Public Suffix List out of every main bundle, and judge names from their own', () => {
    for (const fn of functions) expect(readFileSync(fn.entryFile, 'utf8')).not.toContain('cloudfront.net');
    const file = path.join(path.dirname(domains?.entryFile ?? ''), BESIDE_THE_BUNDLE.domainNames);
    const script = `const m = await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(JSON.stringify([m.claimableDomain('Go.Acme.com', []), m.claimableDomain('x.github.io', []) ?? null]));`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(JSON.parse(output)).toEqual(['go.acme.com', null]);
  });
});

describe('the smart-link schemas beside the creation and link functions (issue 18)', () => {
  const parsers = functions.filter((fn) => ['create', 'batch', 'links'].includes(fn.environment.POWERTOOLS_SERVICE_NAME ?? ''));

  it('ship beside create, batch and links only, and stay out of every main bundle but the document\'s', () => {
    expect(parsers).toHaveLength(3);
    for (const fn of functions) {
      const name = fn.environment.POWERTOOLS_SERVICE_NAME;
      const beside = path.join(path.dirname(fn.entryFile), BESIDE_THE_BUNDLE.smartLinks);
      // The country list is the schemas' own data: a main bundle holding it holds them (the docs function describes them).
      const inMainBundle = readFileSync(fn.entryFile, 'utf8').includes('"AD","AE","AF"');
      expect([name, existsSync(beside), inMainBundle]).toEqual([name, parsers.includes(fn), name === 'docs']);
    }
  });

  it.each(parsers.map((fn) => [fn.environment.POWERTOOLS_SERVICE_NAME, fn] as const))('import as ESM beside %s and parse, answering a problem (named by its field) rather than throwing a class of their own', (_name, fn) => {
    const file = path.join(path.dirname(fn.entryFile), BESIDE_THE_BUNDLE.smartLinks);
    const script = `const m = await import(${JSON.stringify(pathToFileURL(file).href)});
      const parsed = m.smartFieldParsers.request({ utm: { source: 'mail' } });
      const refused = m.smartFieldParsers.patch({ rules: [{ url: 'https://example.com/', when: { country: ['XX'] } }] });
      console.log(JSON.stringify([parsed.value.utm, refused]));`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(JSON.parse(output)).toEqual([{ source: 'mail' }, { ok: false, message: 'rules[0].when.country[0]: is not an ISO 3166-1 alpha-2 country code (such as DE or US)' }]);
  });
});

describe('the local stack serves the dashboard as its distribution does, from the template', () => {
  const site = readTopology(template, outdir, { region: 'us-east-1', shortHost: 'sho.rt' }).staticSite;

  it('the bucket behaviors in order, each with its viewer-request code and response headers', () => {
    expect(site?.behaviors.map((behavior) => [behavior.pathPattern, behavior.viewerRequestCode === dashboardPagesCode(), behavior.headers['cache-control']])).toEqual([
      ['/app/assets/*', true, DASHBOARD_CACHE_CONTROL.assets],
      ['/app', true, DASHBOARD_CACHE_CONTROL.page],
      ['/app/*', true, DASHBOARD_CACHE_CONTROL.page],
    ]);
    // Resolved from the template (the sign-in pool's hosts in connect-src; the local site puts its provider there).
    const [domainId] = Object.entries(template.Resources).find(([, resource]) => resource.Type === 'AWS::Cognito::UserPoolDomain') ?? [];
    const policy = dashboardContentSecurityPolicy(['https://cognito-idp.eu-west-1.amazonaws.com', `https://${domainId}.auth.eu-west-1.amazoncognito.com`]);
    for (const behavior of site?.behaviors ?? []) {
      expect(behavior.headers).toMatchObject({ 'content-security-policy': policy, 'x-frame-options': 'DENY', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' });
    }
  });

  it('its API behavior: the function that closes the host, and the origin secret its origin sends (issue 27)', () => {
    expect(site?.api.viewerRequestCode).toBe(dashboardApiPathsCode());
    expect(site?.api.originHeaders).toEqual([{ name: ORIGIN_VERIFY_HEADER, secretName: 'shortener-dev-origin-verify', jsonKey: 'current' }]);
  });

  it('the files the deployment copies: the built page and its assets, under app/', () => {
    expect(site?.keyPrefix).toBe('app/');
    expect(readFileSync(path.join(site?.filesDir ?? '', 'index.html'), 'utf8')).toMatch(/<script type="module" src="\/app\/assets\/main-[A-Z0-9]+\.js"><\/script>/);
  });
});
