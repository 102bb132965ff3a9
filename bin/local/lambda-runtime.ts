import { Worker } from 'node:worker_threads';
import * as path from 'node:path';
import type { FunctionSpec } from './template';

const WORKER_FILE = path.join(__dirname, 'lambda-worker.mjs');

/**
 * The stack's own flags without tsx's loader, which a worker would inherit: a bundle is plain JavaScript, as on
 * Lambda, and through tsx's hooks every module it loads was transformed again, with a source map, at each cold
 * start (a quarter of the redirect worker's CPU in a profile of a short load run).
 */
/** `tsx` itself (`--import tsx`), one of its entry points, or a file inside its package. */
const isTsx = (specifier: string) => /^tsx(\/|$)|[\\/]tsx[\\/]/.test(specifier);

export function workerExecArgv(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let index = 0; index < execArgv.length; index += 1) {
    const flag = execArgv[index] ?? '';
    const next = execArgv[index + 1] ?? '';
    if ((flag === '--require' || flag === '--import') && isTsx(next)) index += 1;
    else if (!/^--(require|import)=/.test(flag) || !isTsx(flag.replace(/^--(require|import)=/, ''))) kept.push(flag);
  }
  return kept;
}

/** What the worker sends once per turn of its event loop (lambda-worker.mjs): its log, its answers (JSON), or that it is ready. */
interface WorkerMessage {
  log?: string;
  answers?: string;
  ready?: boolean;
}

/** What the worker says of one invocation. */
interface Answer {
  id: number;
  result?: unknown;
  error?: { name: string; message: string };
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** One deployed function running locally: its bundle in a worker thread with its own environment. */
export class LocalFunction {
  private worker!: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  /** Invocations not yet posted to the worker (see `post`). */
  private outbox: string[] = [];
  /** The end of the log's last line, when a write stopped mid-line. */
  private partialLine = '';
  ready!: Promise<void>;

  /**
   * `logs.onLogLine` receives every line the function writes to stdout (its log); with `echo` the lines reach our
   * stdout too, as every other function's do. `afterEachInvocation` hears of every invocation that finished.
   */
  constructor(
    readonly spec: FunctionSpec,
    private readonly sharedEnvironment: Record<string, string>,
    private readonly logs?: { onLogLine: (line: string) => void; echo: boolean },
    private readonly afterEachInvocation?: () => void,
  ) {
    this.start();
  }

  private start(): void {
    const { spec } = this;
    const worker = new Worker(WORKER_FILE, {
      workerData: { entryFile: spec.entryFile, exportName: spec.exportName, functionName: spec.logicalId, timeoutSeconds: spec.timeoutSeconds },
      execArgv: workerExecArgv(process.execArgv),
      // LAMBDA_TASK_ROOT is where Lambda unpacks the bundle: functions read files shipped beside it from there.
      env: { ...process.env, ...this.sharedEnvironment, ...spec.environment, AWS_LAMBDA_FUNCTION_NAME: spec.logicalId, LAMBDA_TASK_ROOT: path.dirname(spec.entryFile) },
    });
    this.worker = worker;
    this.partialLine = '';
    let ready: () => void = () => undefined;
    this.ready = new Promise((resolve, reject) => {
      ready = resolve;
      worker.once('error', reject);
    });
    // One message per turn of the worker's event loop: what it wrote to stdout, then the answers it finished.
    worker.on('message', (message: WorkerMessage) => {
      if (message.log) this.wrote(message.log);
      if (message.answers) for (const answer of JSON.parse(message.answers) as Answer[]) this.settle(answer);
      if (message.ready) ready();
    });
  }

  /** The function's log: to our stdout (unless a subscription reads it and echo is off), and line by line to its readers. */
  private wrote(text: string): void {
    const { logs } = this;
    if (!logs || logs.echo) process.stdout.write(text);
    if (!logs) return;
    const lines = (this.partialLine + text).split('\n');
    this.partialLine = lines.pop() ?? '';
    for (const line of lines) if (line) logs.onLogLine(line);
  }

  private settle(answer: Answer): void {
    const pending = this.pending.get(answer.id);
    if (!pending) return;
    this.pending.delete(answer.id);
    clearTimeout(pending.timer);
    if (answer.error) pending.reject(Object.assign(new Error(answer.error.message), { name: answer.error.name }));
    else pending.resolve(answer.result);
  }

  invoke(event: unknown): Promise<unknown> {
    const invocation = this.send(event);
    const after = this.afterEachInvocation;
    return after ? invocation.finally(after) : invocation;
  }

  private send(event: unknown): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${this.spec.logicalId} timed out after ${this.spec.timeoutSeconds} s`));
      }, this.spec.timeoutSeconds * 1000);
      this.pending.set(id, { resolve, reject, timer });
      if (this.outbox.length === 0) setImmediate(() => this.post());
      this.outbox.push(JSON.stringify({ id, event }));
    });
  }

  /**
   * The invocations of one turn of the event loop cross to the worker in one message. Each message wakes the
   * worker's thread, and one per visit made the two threads wake each other twice a visit on two cores: batched, the
   * hot link's rate went from 0.76 to 1.04–1.17 of 386dc3c's (bench:ab --sessions own, docs/measurements.md).
   */
  private post(): void {
    if (this.outbox.length === 0) return;
    this.worker.postMessage(`[${this.outbox.join(',')}]`);
    this.outbox = [];
  }

  /**
   * Kills the running instance mid-work, as a crashed Lambda environment dies: every invocation in flight fails
   * (its caller, a queue or a stream, then retries it), and a fresh instance with a cold start takes the next ones.
   */
  async crash(): Promise<void> {
    await this.worker.terminate();
    // Invocations not yet posted fail with the others: the fresh instance must not run what its callers retry.
    this.outbox = [];
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      this.pending.delete(id);
      pending.reject(new Error(`${this.spec.logicalId} crashed`));
    }
    this.start();
    await this.ready;
  }

  stop(): Promise<number> {
    return this.worker.terminate();
  }
}
