import type { Server } from 'node:http';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { AwsJsonError, listenAwsJson } from './aws-json-server';

/**
 * A stand-in for the slice of the SSM API this service uses (GetParameter(s), GetParametersByPath,
 * PutParameter), spoken in the SDK's own AWS JSON 1.1 protocol so the real SSM client talks to it unchanged.
 */
interface StoredParameter {
  Name: string;
  Value: string;
  Type: string;
  Version: number;
  LastModifiedDate: number;
}


export class SsmStandIn {
  private readonly parameters = new Map<string, StoredParameter>();
  private server?: Server;

  /** With a file, parameters survive restarts (an operator's flag flips among them). */
  constructor(private readonly file?: string) {
    if (file && existsSync(file)) {
      for (const parameter of JSON.parse(readFileSync(file, 'utf8')) as StoredParameter[]) this.parameters.set(parameter.Name, parameter);
    }
  }

  has(name: string): boolean {
    return this.parameters.has(name);
  }

  get(name: string): string | undefined {
    return this.parameters.get(name)?.Value;
  }

  put(name: string, value: string, type = 'String'): void {
    const version = (this.parameters.get(name)?.Version ?? 0) + 1;
    this.parameters.set(name, { Name: name, Value: value, Type: type, Version: version, LastModifiedDate: Date.now() / 1000 });
    if (this.file) {
      mkdirSync(path.dirname(this.file), { recursive: true });
      writeFileSync(this.file, JSON.stringify([...this.parameters.values()], null, 2));
    }
  }

  private view(parameter: StoredParameter) {
    return { ...parameter, ARN: `arn:aws:ssm:local:000000000000:parameter${parameter.Name}`, DataType: 'text' };
  }

  private handle(operation: string, input: Record<string, unknown>): unknown {
    switch (operation) {
      case 'GetParameter': {
        const parameter = this.parameters.get(String(input.Name));
        if (!parameter) throw new AwsJsonError('ParameterNotFound', `Parameter ${String(input.Name)} not found.`);
        return { Parameter: this.view(parameter) };
      }
      case 'GetParameters': {
        const names = (input.Names as string[] | undefined) ?? [];
        if (names.length > 10) throw new AwsJsonError('ValidationException', 'Member must have length less than or equal to 10');
        return {
          Parameters: names.flatMap((name) => {
            const parameter = this.parameters.get(name);
            return parameter ? [this.view(parameter)] : [];
          }),
          InvalidParameters: names.filter((name) => !this.parameters.has(name)),
        };
      }
      case 'GetParametersByPath': {
        const prefix = `${String(input.Path).replace(/\/+$/, '')}/`;
        const recursive = input.Recursive === true;
        const matches = [...this.parameters.values()].filter(
          (parameter) => parameter.Name.startsWith(prefix) && (recursive || !parameter.Name.slice(prefix.length).includes('/')),
        );
        return { Parameters: matches.map((parameter) => this.view(parameter)) };
      }
      case 'PutParameter': {
        const name = String(input.Name);
        if (this.parameters.has(name) && input.Overwrite !== true) {
          throw new AwsJsonError('ParameterAlreadyExists', 'The parameter already exists. To overwrite this value, set the overwrite option in the request to true.');
        }
        this.put(name, String(input.Value), String(input.Type ?? this.parameters.get(name)?.Type ?? 'String'));
        return { Version: this.parameters.get(name)?.Version, Tier: 'Standard' };
      }
      default:
        throw new AwsJsonError('InvalidAction', `The stand-in does not implement ${operation}`);
    }
  }

  listen(port: number, host = '127.0.0.1'): Promise<number> {
    const { server, listening } = listenAwsJson((operation, input) => this.handle(operation, input), { targetPrefix: 'AmazonSSM', contentType: 'application/x-amz-json-1.1' }, port, host);
    this.server = server;
    return listening;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
