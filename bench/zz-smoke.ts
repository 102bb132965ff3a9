import { createServer } from 'node:http';
import { startLocalStack } from '../bin/local/stack';
(async () => {
  const received: any[] = [];
  const server = createServer((req, res) => { let b=''; req.on('data', c => b+=c); req.on('end', () => { received.push({h: req.headers, b}); res.writeHead(200); res.end('ok'); }); });
  await new Promise<void>(r => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as any).port;
  process.env.LOCAL_WEBHOOK_ALLOW = `127.0.0.1:${port}`;
  process.env.LOCAL_WEBHOOK_TIME_SCALE = '0.001';
  
  const stack = await startLocalStack({ port: 3999, dynamoDbPort: 8999, ssmPort: 8998, inMemory: true, shortBaseUrl: 'http://localhost:3999', synth: false, log: console.log });
  const h = { authorization: `Bearer ${stack.devApiKey}`, 'content-type': 'application/json' };
  let r = await fetch(`${stack.apiUrl}/v2/webhooks`, { method: 'POST', headers: h, body: JSON.stringify({ url: `http://127.0.0.1:${port}/hook`, events: ['link.created', 'link.updated', 'link.deleted', 'link.clicked', 'link.expired'] }) });
  const wh: any = await r.json(); console.log(r.status, wh);
  r = await fetch(`${stack.apiUrl}/v2/shorten`, { method: 'POST', headers: h, body: JSON.stringify({ url: 'https://example.com/a', expiresAt: new Date(Date.now() + 3000).toISOString() }) });
  const link: any = await r.json(); console.log(r.status, link);
  r = await fetch(`${stack.apiUrl}/v2/webhooks/${wh.id}/test`, { method: 'POST', headers: h }); console.log(r.status, await r.json());
  await new Promise(r => setTimeout(r, 9000));
  console.log(received.map(x => [x.h['webhook-id'], x.h['webhook-signature'], x.b]));
  r = await fetch(`${stack.apiUrl}/v2/webhooks/${wh.id}/deliveries`, { headers: h }); console.log(r.status, JSON.stringify(await r.json()));
  await new Promise(r => setTimeout(r, 1000)); await stack.stop(); server.close();
})().catch(e => { console.error(e); process.exit(1); });
