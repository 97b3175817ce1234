// Languages benchmark: per language of test/speech-languages/news.ts (a short news item with a number and a date),
// the time from the POST to the first playable HLS segment through the service, narrated by the language's default
// voice; then that voice's engine alone, in a process of its own per language (built as the service builds it):
// its real-time factor (synthesis time over audio time, after a warm-up) and the peak memory of its processes.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { NEWS } from '../test/speech-languages/news.ts';
import { benchEnv, median, startServer, type Server } from './service.ts';
import { API_KEY, createItem, errorText, getItem, guardRun, loadAverage, machineLine, ms, wholeOption } from './support.ts';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    languages: { type: 'string', default: NEWS.map((news) => news.language).join(',') },
    'poll-ms': { type: 'string', default: '50' },
    'round-timeout': { type: 'string', default: '300' },
    // Internal: the engine measure of one language, run by this script in a child process.
    engine: { type: 'string' },
    voice: { type: 'string' },
  },
});
const rounds = wholeOption(args, 'rounds', 1);
const pollMs = wholeOption(args, 'poll-ms', 1);
const roundTimeoutMs = wholeOption(args, 'round-timeout', 10) * 1000;
const languages = args.languages.split(',').map((code) => {
  const news = NEWS.find((each) => each.language === code.trim());
  if (!news) throw new Error(`no news item in ${code}: one of ${NEWS.map((each) => each.language).join(', ')}`);
  return news;
});
const TARGET_MS = 2_000;
const paragraphs = (news: (typeof NEWS)[number]) => [news.title, ...[...news.body.matchAll(/<p>(.*?)<\/p>/g)].map((match) => match[1]!)];

// ---------------------------------------------------------------------------------------------
// Peak memory: the highest VmHWM (peak resident set) of each process under a parent, sampled from /proc (Linux).

function childrenOf(parent: number): Array<{ pid: number; command: string }> {
  const found: Array<{ pid: number; command: string }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== parent) continue;
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean).map((part) => path.basename(part)).slice(0, 2).join(' ');
      found.push({ pid: Number(entry), command }, ...childrenOf(Number(entry)));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

function peakSampler(parent: number, every = 20) {
  const peaks = new Map<number, { command: string; kb: number }>();
  const sample = () => {
    for (const { pid, command } of childrenOf(parent)) {
      try {
        const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
        if (hwm) peaks.set(pid, { command, kb: Math.max(peaks.get(pid)?.kb ?? 0, Number(hwm[1])) });
      } catch {
        // gone meanwhile
      }
    }
  };
  const timer = setInterval(sample, every);
  return {
    /**
     * The largest engine process's peak and what it runs: ffmpeg (which converts the engines' audio) and this
     * script's own tsx helpers left out. A process living less than a sampling period (pico2wave) may be missed.
     */
    stop(): { command: string; kb: number } {
      clearInterval(timer);
      sample();
      const engines = [...peaks.values()].filter((each) => !/^(ffmpeg|esbuild|node)\b/.test(each.command));
      return engines.reduce((top, each) => (each.kb > top.kb ? each : top), { command: '—', kb: 0 });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The engine alone (child process): the service's synthesizer for its configuration (src/composition.ts), the
// language's paragraphs normalized as generation normalizes them, spoken one call each, as segments are.

interface EngineFigures {
  voice: string;
  engine: string;
  warmUpMs: number;
  synthMs: number[];
  audioMs: number;
  peakKb: number;
  peakCommand: string;
}

async function measureEngine(code: string, voiceId: number): Promise<EngineFigures> {
  const { loadConfig } = await import('../src/config.ts');
  const { loadVoiceCatalogue, synthesizerOf } = await import('../src/composition.ts');
  const { normalizeForSpeech } = await import('../src/speech/normalize.ts');
  const loaded = loadConfig(process.env);
  if (!loaded.ok) throw new Error(loaded.message);
  const voices = await loadVoiceCatalogue(loaded.config, () => {});
  const voice = voices.byId(voiceId);
  if (!voice) throw new Error(`voice ${voiceId} is not in this process's catalogue`);
  const synthesizer = synthesizerOf(loaded.config, voices);
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-languages-engine-'));
  const texts = paragraphs(languages.find((news) => news.language === code)!).map((text) => normalizeForSpeech(text, code).spoken);
  const sampler = peakSampler(process.pid);
  try {
    const speakAll = async () => {
      const started = performance.now();
      let audioMs = 0;
      for (const [index, text] of texts.entries()) audioMs += (await synthesizer.speak(text, voice, path.join(dir, `${index}.wav`))).durationMs;
      return { ms: performance.now() - started, audioMs };
    };
    // The first call loads the model and the language's phonemizer in a worker; it is reported apart.
    const warmUp = await speakAll();
    const synthMs: number[] = [];
    let audioMs = 0;
    for (let round = 0; round < rounds; round++) {
      const spoken = await speakAll();
      synthMs.push(spoken.ms);
      audioMs = spoken.audioMs;
    }
    const peak = sampler.stop();
    return { voice: voice.name, engine: voice.engine, warmUpMs: warmUp.ms, synthMs, audioMs, peakKb: peak.kb, peakCommand: peak.command };
  } finally {
    sampler.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function engineInChild(code: string, voiceId: number, env: Record<string, string>): Promise<EngineFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--engine', code, '--voice', String(voiceId), '--rounds', String(rounds), '--languages', code], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    child.once('close', (exit) => {
      const last = stdout.trim().split('\n').pop() ?? '';
      if (exit === 0 && last.startsWith('{')) resolve(JSON.parse(last) as EngineFigures);
      else reject(new Error(`engine measure of ${code} ended with ${exit}: ${stderr.trim() || stdout.trim()}`));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Through the service: POST, then GET every `pollMs` until the playlist announced while processing lists a first .ts
// segment that answers with bytes; then wait for `processed`, so that rounds do not overlap.

interface ItemView {
  status: string;
  error: string | null;
  duration: number | null;
  audio: { content_type: string; url: string }[] | null;
  segments: { voice: { id: number; name: string } | null }[] | null;
}

async function firstPlayable(baseUrl: string, playlistUrl: string): Promise<boolean> {
  const playlistAt = new URL(new URL(playlistUrl, baseUrl).pathname, baseUrl);
  const playlist = await fetch(playlistAt, { signal: AbortSignal.timeout(10_000) });
  if (playlist.status !== 200) return false;
  const first = (await playlist.text()).split('\n').find((line) => line && !line.startsWith('#'));
  if (!first) return false;
  const segment = await fetch(new URL(first, playlistAt), { signal: AbortSignal.timeout(10_000) });
  return segment.status === 200 && (await segment.arrayBuffer()).byteLength > 0;
}

interface ServiceRound {
  firstMs: number;
  processedMs: number;
  voice: { id: number; name: string };
  durationMs: number;
}

async function serviceRound(baseUrl: string, news: (typeof NEWS)[number]): Promise<ServiceRound> {
  const sent = performance.now();
  const id = await createItem(baseUrl, { title: news.title, body: news.body, language: news.language, summary_enabled: false });
  let firstMs: number | null = null;
  for (;;) {
    const polled = performance.now();
    if (polled - sent > roundTimeoutMs) throw new Error(`${news.language} item ${id} not processed within ${roundTimeoutMs / 1000} s`);
    const item = await getItem<ItemView>(baseUrl, id, firstMs === null ? 'none' : 'partial');
    if (item.status === 'error' || item.status === 'skipped') throw new Error(`${news.language} item ${id} ended ${item.status}: ${item.error}`);
    if (item.status === 'processed') {
      // A short item may be done between two polls: its first segment was playable by then.
      const done = await getItem<ItemView>(baseUrl, id, 'partial');
      const processedMs = performance.now() - sent;
      return { firstMs: firstMs ?? processedMs, processedMs, voice: done.segments![0]!.voice!, durationMs: done.duration ?? 0 };
    }
    const live = firstMs === null && item.status === 'processing' ? item.audio?.find((file) => file.content_type === 'application/x-mpegURL') : undefined;
    if (live && (await firstPlayable(baseUrl, live.url))) firstMs = performance.now() - sent;
    await sleep(Math.max(0, (firstMs === null ? pollMs : 250) - (performance.now() - polled)));
  }
}

// ---------------------------------------------------------------------------------------------
// The run.

if (args.engine !== undefined) {
  try {
    console.log(JSON.stringify(await measureEngine(args.engine, Number(args.voice))));
    process.exit(0);
  } catch (error) {
    console.error(errorText(error));
    process.exit(1);
  }
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-languages-'));
let server: Server | undefined;
const { cleanUp, fail } = guardRun(120 + languages.length * rounds * 2 * (roundTimeoutMs / 1000), async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

try {
  const loadAtStart = loadAverage();
  // Synthesis of a segment may take longer than the default minute on a busy machine (Kokoro's real-time factor goes
  // from about 1 to 5): a retried segment would be measured twice.
  const env = { ...benchEnv(dataDir, API_KEY, { generation: true }), SYNTHESIS_TIMEOUT_MS: '240000' };
  server = await startServer(env, [], fail);
  const service = new Map<string, ServiceRound[]>();
  for (const news of languages) {
    const results: ServiceRound[] = [];
    for (let round = 0; round < rounds + 1; round++) results.push(await serviceRound(server.baseUrl, news));
    service.set(news.language, results);
    const [cold, ...warm] = results;
    console.error(`${news.language}: first HLS segment cold ${ms(cold!.firstMs)} ms, then median ${ms(median(warm.map((round) => round.firstMs)))} ms`);
  }
  await server.stop();
  server = undefined;
  // One engine that fails (a time limit passed on a busy machine) costs its own row, not the figures of the others.
  const engine = new Map<string, EngineFigures | Error>();
  for (const news of languages) {
    engine.set(
      news.language,
      await engineInChild(news.language, service.get(news.language)![0]!.voice.id, env).catch((error: unknown) => new Error(errorText(error).split('\n')[0])),
    );
  }
  const loadAtEnd = loadAverage();
  await cleanUp();

  console.log(machineLine());
  console.log(`load average (1/5/15 min): ${loadAtStart} at start, ${loadAtEnd} at end`);
  console.log(`each language's news item (test/speech-languages/news.ts: title and one paragraph); through the service, one item at a time, the first (cold: the language's phonemizer loads) and then ${rounds} rounds, polled every ${pollMs} ms;`);
  console.log(`the engine alone: one warm-up, then ${rounds} rounds of the item's paragraphs, one call each, in a process of its own per language (peak: the largest of its processes, VmHWM)\n`);
  console.log('| language | voice (engine) | audio s | first HLS segment playable after create, cold ms | then, median ms | processed, median ms | engine warm-up ms | engine synthesis, median ms | real-time factor | engine peak memory |');
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const news of languages) {
    const [cold, ...warm] = service.get(news.language)!;
    const figures = engine.get(news.language)!;
    const through = [ms(cold!.firstMs), ms(median(warm.map((round) => round.firstMs))), ms(median(warm.map((round) => round.processedMs)))];
    const voice = `${cold!.voice.name}`;
    const cells =
      figures instanceof Error
        ? [`${news.name} (${news.language})`, voice, `${(cold!.durationMs / 1000).toFixed(1)}`, ...through, `engine measure failed: ${figures.message}`, '', '', '']
        : [
            `${news.name} (${news.language})`,
            `${figures.voice} (${figures.engine})`,
            (figures.audioMs / 1000).toFixed(1),
            ...through,
            ms(figures.warmUpMs),
            ms(median(figures.synthMs)),
            (median(figures.synthMs) / figures.audioMs).toFixed(2),
            `${Math.round(figures.peakKb / 1024)} MB (${figures.peakCommand})`,
          ];
    console.log(`| ${cells.join(' | ')} |`);
  }
  const slow = languages.filter((news) => median(service.get(news.language)!.slice(1).map((round) => round.firstMs)) > TARGET_MS);
  console.log(`\nTarget: first playable audio ≤ ${TARGET_MS} ms (median, warm) in every language: ${slow.length === 0 ? 'met' : `NOT met (${slow.map((news) => news.language).join(', ')})`}`);
} catch (error) {
  fail(errorText(error));
}
