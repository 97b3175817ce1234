// A million historical events imported from a file: a progress line, a report of the rejected line, and a second
// import of the same file that adds nothing. The import writes to the event store, which both CI runs keep in SQLite,
// so it runs once, on the embedded defaults (vitest.config.ts).
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliWithin } from '../support/cli.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { generateTraffic } from '../../bench/traffic.ts';
import { eventually } from './support.ts';

let server: TestServer;
let items: string[];

beforeAll(async () => {
  server = await startServer();
  items = [];
  for (const title of ['Tides', 'Storms', 'Harvest']) items.push((await server.request('POST', '/v1/projects/1/content', { body: { title, body: `${title} today.` } })).body.id);
  // The import opens the stores as an operator's would; the service is stopped so that it has the machine to itself.
  await server.stop();
});
afterAll(() => server.stop());

const longCli = (...args: string[]) => cliWithin(240_000, { ...server.env }, ...args);

describe('a million imported events', () => {
  it('are imported with a progress line and a report of rejected lines, and a second import adds nothing', async () => {
    const file = path.join(server.dataDir, 'million.ndjson');
    const out = createWriteStream(file);
    let lines = 0;
    let loads = 0;
    for (const event of generateTraffic({ projectId: 1, contentIds: items, sessions: 400_000, from: new Date(Date.UTC(2025, 0, 1)), to: new Date(Date.UTC(2025, 11, 31)), seed: 1 })) {
      if (!out.write(`${JSON.stringify(event)}\n`)) await once(out, 'drain');
      if (event.media_type === 'content' && event.event_type === 'load') loads += 1;
      if ((lines += 1) === 1_000_000) break;
    }
    out.write('{"event_type": "load"}\n');
    out.end();
    await once(out, 'finish');
    const first = await longCli('analytics', 'import', file);
    expect(first.stdout).toContain('imported');
    expect(first.stdout).toContain('1,000,001 lines, 1,000,000 events accepted (1,000,000 stored now, 0 stored by an earlier import of this file), 1 lines rejected');
    expect(first.stdout).toMatch(/line 1000001: /);
    expect(first.stderr).toMatch(/import \[#+\] 1,000,001 \/ 1,000,001 lines, [\d,]+ lines\/s, done/);
    const second = await longCli('analytics', 'import', file);
    expect(second.stdout).toContain('1,000,000 events accepted (0 stored now, 1,000,000 stored by an earlier import of this file), 1 lines rejected');
    // The service, started again, counts the thousand log events of a thousand player events each in batches short
    // enough that its lease is renewed between them: every impression of the year is there.
    server = await startServer({ dataDir: server.dataDir });
    const year = '/v1/projects/1/analytics?aggregation=all&start_date=2025-01-01&end_date=2025-12-31';
    // Asked every 2 s: the year's query sums a year of roll-ups, which would take the service's time from the counting.
    const [counted] = await eventually<any[]>(server, year, (body) => body[0]?.player_impressions.total === loads, 240_000, 2_000);
    expect(counted.player_impressions.total).toBe(loads);
  }, 600_000);
});
