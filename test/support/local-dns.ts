import { appendFileSync } from 'node:fs';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { StackOutputs } from '../../lib/stack-outputs';
import { dynamo, stackOutput } from './local-stack';

interface DnsRecords {
  dnsRecords: Array<{ type: string; name: string; value: string }>;
}

/**
 * Publishes the records a domain's view asks for, as its owner would at their DNS provider: the local stack reads
 * LOCAL_DNS_TXT_FILE (TXT) and LOCAL_HOSTS_FILE (A) before DNS, and the test stack names both (global-setup.ts).
 */
export function publishDnsRecords(view: DnsRecords, types: readonly string[] = ['TXT', 'A']): void {
  for (const record of view.dnsRecords.filter((candidate) => types.includes(candidate.type))) {
    if (record.type === 'TXT') appendFileSync(process.env.LOCAL_DNS_TXT_FILE as string, `${record.name} ${record.value}\n`);
    if (record.type === 'A') appendFileSync(process.env.LOCAL_HOSTS_FILE as string, `${record.value} ${record.name}\n`);
  }
}

const domainsTable = () => stackOutput(StackOutputs.domainsTable);

/** What the schedule does within 5 minutes, now: the pending domain's next check is due (the worker runs every second here). */
export async function checkDueNow(domain: string): Promise<void> {
  await dynamo().send(
    new UpdateCommand({ TableName: domainsTable(), Key: { domain }, UpdateExpression: 'SET dueAt = :now', ConditionExpression: 'attribute_exists(#work)', ExpressionAttributeNames: { '#work': 'work' }, ExpressionAttributeValues: { ':now': Date.now() } }),
  );
}

/** What a minute does to the once-a-minute limit of checks on request (POST …/verify), now. */
export async function forgetManualCheck(domain: string): Promise<void> {
  await dynamo().send(new UpdateCommand({ TableName: domainsTable(), Key: { domain }, UpdateExpression: 'REMOVE manualCheckAt' }));
}
