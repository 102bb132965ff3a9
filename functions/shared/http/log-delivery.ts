import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';

/** What CloudWatch Logs delivers to a subscription's Lambda: base64 of gzip of this JSON. */
export interface LogDelivery {
  messageType: 'DATA_MESSAGE' | 'CONTROL_MESSAGE';
  logGroup: string;
  logStream: string;
  subscriptionFilters: string[];
  logEvents: Array<{ id: string; timestamp: number; message: string }>;
}

export function decodeLogDelivery(event: { awslogs?: { data?: string } }): LogDelivery {
  const data = event.awslogs?.data;
  if (!data) throw new Error('not a CloudWatch Logs delivery');
  return JSON.parse(gunzipSync(Buffer.from(data, 'base64')).toString('utf8')) as LogDelivery;
}

/** The same delivery, redelivered, has the same id: CloudWatch Logs event ids are unique and stable. */
export function deliveryId(delivery: LogDelivery): string {
  const hash = createHash('sha256').update(`${delivery.logGroup}\n${delivery.logStream}\n`);
  for (const event of delivery.logEvents) hash.update(`${event.id}\n`);
  return hash.digest('base64url');
}
