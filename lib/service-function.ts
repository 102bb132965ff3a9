import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Architecture, LoggingFormat, type SystemLogLevel } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type ICommandHooks } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import * as path from 'node:path';
import { METRICS_NAMESPACE } from '../functions/shared/metric-names';
import { ESBUILD_TARGET, LAMBDA_RUNTIME } from './node-runtime';

const PROJECT_ROOT = path.join(__dirname, '..');

/**
 * esbuild's ESM output keeps CommonJS `require` calls of bundled dependencies (the SDK's node:https among
 * them); without a real `require` in scope they fail at import with "Dynamic require of ... is not supported".
 */
export const ESM_REQUIRE_BANNER = "import { createRequire as __createRequire } from 'node:module';const require = __createRequire(import.meta.url);";

export interface BindingOptions {
  /** The one index the function queries. */
  queriedIndex?: string;
  /** The only attributes (key included) its item calls may name: an IAM condition, for writers of a few fields. */
  onlyAttributes?: readonly string[];
}

/** The DynamoDB calls the functions make; each function is granted only the ones it uses. */
export type TableAction = 'GetItem' | 'BatchGetItem' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'Query';

export interface ServiceFunctionProps {
  /** Folder under functions/ holding handler.ts. */
  name: string;
  description: string;
  memorySize?: number;
  /** Seconds; 10 unless the function's work is measured to need more (see capacity.ts). */
  timeoutSeconds?: number;
  /** Executions kept for this function and never exceeded (see capacity.ts). */
  reservedConcurrentExecutions?: number;
  environment?: Record<string, string>;
  removalPolicy: RemovalPolicy;
  /** Files (paths from the project root) shipped beside the bundle, read at run time from LAMBDA_TASK_ROOT. */
  filesBeside?: readonly string[];
  /**
   * Bundles of their own beside the main one (file name → entry from the project root), built with the same
   * options and imported from LAMBDA_TASK_ROOT when first needed: code few requests use costs the others nothing.
   */
  lazyBundles?: Readonly<Record<string, string>>;
  /**
   * WARN drops Lambda's own INFO lines (platform.start and platform.report, about 0.4 KB an invocation): for a
   * function called on every visit they cost as much to ingest as its click lines, and its durations are metrics.
   */
  systemLogLevel?: SystemLogLevel;
}

/**
 * esbuild options of every bundle, the lazy ones too. No source maps: nothing would read them (the runtime maps
 * stack traces only with --enable-source-maps, which costs every cold start), and 500s are logged with their
 * cause and message, which minifying keeps.
 */
const BUNDLING = { target: ESBUILD_TARGET, minify: true, sourceMap: false, mainFields: ['module', 'main'], banner: ESM_REQUIRE_BANNER };

function besideTheBundle(files: readonly string[], lazyBundles: Readonly<Record<string, string>>): ICommandHooks {
  const esbuildOptions = [
    '--bundle --platform=node --format=esm',
    `--target=${BUNDLING.target}`,
    BUNDLING.minify ? '--minify' : '',
    BUNDLING.sourceMap ? '--sourcemap' : '',
    `--main-fields=${BUNDLING.mainFields.join(',')}`,
    `--banner:js="${BUNDLING.banner}"`,
  ].join(' ');
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir, outputDir) => [
      ...files.map((file) => `cp "${path.join(inputDir, file)}" "${outputDir}/${path.basename(file)}"`),
      ...Object.entries(lazyBundles).map(
        ([name, entry]) => `"${path.join(inputDir, 'node_modules', '.bin', 'esbuild')}" "${path.join(inputDir, entry)}" ${esbuildOptions} --log-level=warning --outfile="${outputDir}/${name}"`,
      ),
    ],
  };
}

/** The one place holding the Lambda defaults: the project's Node.js on arm64, minified ESM, JSON logs. */
export class ServiceFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    const logGroup = new LogGroup(scope, `${id}Logs`, { retention: RetentionDays.ONE_MONTH, removalPolicy: props.removalPolicy });
    // An own role instead of AWSLambdaBasicExecutionRole: it may write to this function's log group and nothing else.
    const role = new Role(scope, `${id}Role`, { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    logGroup.grantWrite(role);
    super(scope, id, {
      entry: path.join(PROJECT_ROOT, 'functions', props.name, 'handler.ts'),
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: path.join(PROJECT_ROOT, 'package-lock.json'),
      handler: 'handler',
      description: props.description,
      runtime: LAMBDA_RUNTIME,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 256,
      timeout: Duration.seconds(props.timeoutSeconds ?? 10),
      ...(props.reservedConcurrentExecutions !== undefined ? { reservedConcurrentExecutions: props.reservedConcurrentExecutions } : {}),
      logGroup,
      role,
      loggingFormat: LoggingFormat.JSON,
      ...(props.systemLogLevel ? { systemLogLevelV2: props.systemLogLevel } : {}),
      environment: { POWERTOOLS_SERVICE_NAME: props.name, POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE, ...props.environment },
      bundling: {
        format: OutputFormat.ESM,
        ...BUNDLING,
        // Bundle the SDK too: tree-shaken clients load faster than the runtime's full copy, and versions are pinned.
        externalModules: [],
        ...(props.filesBeside || props.lazyBundles ? { commandHooks: besideTheBundle(props.filesBeside ?? [], props.lazyBundles ?? {}) } : {}),
      },
    });
  }

  /**
   * Sets the table's environment variable and grants exactly the calls the function makes on it: item actions on
   * the table, Query on the table or the one index it reads (never `index/*`, which table.grant would add).
   */
  bindTable(table: ITable, environmentName: string, actions: readonly TableAction[], options: BindingOptions = {}): this {
    const { queriedIndex, onlyAttributes } = options;
    this.addEnvironment(environmentName, table.tableName);
    const itemActions = actions.filter((action) => action !== 'Query');
    if (itemActions.length > 0) {
      this.addToRolePolicy(
        new PolicyStatement({
          actions: itemActions.map((action) => `dynamodb:${action}`),
          resources: [table.tableArn],
          ...(onlyAttributes
            ? {
                conditions: {
                  'ForAllValues:StringEquals': { 'dynamodb:Attributes': [...onlyAttributes] },
                  // Returned items would carry other attributes: the calls must return none.
                  StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' },
                },
              }
            : {}),
        }),
      );
    }
    if (actions.includes('Query')) {
      const resource = queriedIndex ? `${table.tableArn}/index/${queriedIndex}` : table.tableArn;
      this.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:Query'], resources: [resource] }));
    }
    return this;
  }
}
