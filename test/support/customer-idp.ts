import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { PINNED_NODE } from '../../bin/local/child-process';
import type { CustomerIdpInfo } from './customer-idp-server';

export interface CustomerIdp extends CustomerIdpInfo {
  /** The email (and whether it is verified) the provider vouches for when signing in `hint`: by default the hint itself, verified. */
  vouch(hint: string, email: string, verified: boolean): Promise<void>;
  close(): Promise<void>;
}

/** A company's own OpenID provider for the single sign-on tests, in a process of its own (customer-idp-server.ts). */
export async function startCustomerIdp(port: number, poolRedirectUri: string): Promise<CustomerIdp> {
  const child = spawn(PINNED_NODE, ['--import', 'tsx', path.join(__dirname, 'customer-idp-server.ts'), String(port), poolRedirectUri], {
    cwd: path.join(__dirname, '..', '..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const firstLine = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the customer's provider exited with ${code}`)));
  });
  const info = JSON.parse(firstLine) as CustomerIdpInfo;
  return {
    ...info,
    vouch: async (hint, email, verified) => {
      const response = await fetch(`${info.issuer}/vouch`, { method: 'POST', body: JSON.stringify({ hint, email, verified }) });
      if (response.status !== 204) throw new Error(`vouch answered ${response.status}`);
    },
    close: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
