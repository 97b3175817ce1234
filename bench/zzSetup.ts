import { createWriteStream, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { generateTraffic } from './traffic.ts';
import { benchEnv, startServer } from './service.ts';
import { API_KEY } from './support.ts';
const dataDir = '/work/scratch/an1m';
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });
const env = benchEnv(dataDir, API_KEY, { generation: false });
writeFileSync('/work/scratch/env.json', JSON.stringify(env));
const server = await startServer(env, [], (m) => { console.error(m); process.exit(1); });
const headers = { 'x-api-key': API_KEY, 'content-type': 'application/json' };
const items: string[] = [];
for (let i = 0; i < 200; i++) {
  const r = await fetch(`${server.baseUrl}/v1/projects/1/content`, { method: 'POST', headers, body: JSON.stringify({ title: `Story ${i}`, body: 'A story.' }) });
  items.push(((await r.json()) as any).id);
}
writeFileSync('/work/scratch/items.json', JSON.stringify(items));
const out = createWriteStream('/work/scratch/events.ndjson');
let written = 0; const now = Date.now();
for (const line of generateTraffic({ projectId: 1, contentIds: items, sessions: 1_000_000, from: new Date(now - 90 * 86_400_000), to: new Date(now - 60_000), seed: 2 })) {
  if (!out.write(`${JSON.stringify(line)}\n`)) await once(out, 'drain');
  if (++written === 1_000_000) break;
}
out.end(); await once(out, 'finish');
await server.stop();
console.log('ok', server.baseUrl);
