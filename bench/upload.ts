// File upload (POST /v1/projects/1/content/upload): how long a recording takes from the first byte sent to the 201
// (received, written, admitted by the media intake and the item created; narration not counted: generation is off),
// and how far the API process's peak resident memory (VmHWM) rises, per file size (smallest first, so a rise that
// followed the file's size would show). Medians of --rounds uploads.
// Usage: npm run bench:upload [-- --rounds 5]
import { mkdtempSync, openAsBlob, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { runTool } from '../src/media/tool.ts';
import { benchEnv, median, startServer, type Server } from './service.ts';
import { API_KEY, guardRun, machineLine, wholeOption } from './support.ts';

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
const rounds = wholeOption(args, 'rounds', 1);
const MB = 1024 * 1024;
/** 96 kHz stereo 32-bit PCM: 768,000 bytes a second. */
const SIZES_S = [{ label: '10 MB', seconds: 14 }, { label: '50 MB', seconds: 69 }, { label: '100 MB', seconds: 138 }];

const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-upload-'));
const scratch = mkdtempSync(path.join(tmpdir(), 'bench-upload-files-'));
let server: Server | undefined;
const { cleanUp, fail } = guardRun(900, async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

const peakRss = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

async function uploadOnce(file: string): Promise<number> {
  const form = new FormData();
  form.append('title', 'Bench recording');
  form.append('file', await openAsBlob(file), 'recording.wav');
  const started = performance.now();
  const response = await fetch(`${server!.baseUrl}/v1/projects/1/content/upload`, { method: 'POST', headers: { 'x-api-key': API_KEY }, body: form });
  const body = await response.text();
  if (response.status !== 201) throw new Error(`upload answered ${response.status}: ${body.slice(0, 300)}`);
  return performance.now() - started;
}

try {
  server = await startServer({ ...benchEnv(dataDir, API_KEY, { generation: false }), AUDIO_FETCH_MAX_BYTES: String(120 * MB) }, [], fail);
  const started = peakRss(server.pid);
  const rows: string[] = [];
  for (const { label, seconds } of SIZES_S) {
    const file = path.join(scratch, `${seconds}.wav`);
    const made = await runTool('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `sine=frequency=330:duration=${seconds}:sample_rate=96000`, '-ac', '2', '-c:a', 'pcm_s32le', file]);
    if (made.code !== 0) throw new Error(made.stderr);
    const bytes = statSync(file).size;
    const times: number[] = [];
    const growths: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const before = peakRss(server.pid);
      times.push(await uploadOnce(file));
      growths.push(peakRss(server.pid) - before);
    }
    const ms = median(times);
    const peak = peakRss(server.pid) / MB;
    rows.push(`| ${label} (${(bytes / MB).toFixed(1)} MB, ${seconds} s of audio) | ${Math.round(ms)} | ${((bytes / MB) / (ms / 1000)).toFixed(0)} | ${(Math.max(...growths) / MB).toFixed(1)} | ${peak.toFixed(0)} |`);
  }
  console.log(`\nFile upload to 201, generation off; ${rounds} rounds per size; ${machineLine()}\n`);
  console.log(`API process's peak RSS (VmHWM) after start: ${(started / MB).toFixed(0)} MB\n`);
  console.log('| file | median ms to 201 | MB/s | largest rise of peak RSS in one upload, MB | peak RSS so far, MB |');
  console.log('|---|---|---|---|---|');
  for (const row of rows) console.log(row);
} catch (error) {
  fail(String(error));
}
await cleanUp();
