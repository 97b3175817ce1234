// Generation benchmark: wall time from POST to `processed` for a ~2,000-word article, against the bare tools
// (one espeak-ng process, one ffmpeg encode) on the same text, rounds interleaved; prints markdown tables.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { benchEnv, median, startServer, type Server } from './service.ts';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { API_KEY, SERVICE_MP3_ARGS, benchArticle, cpuMs, createItem, errorText, getItem, guardRun, loadAverage, machineLine, medianOrNull, ms, toolRunner, verdict, wholeOption, type Cpu } from './support.ts';

const DEFAULT_MP3_ARGS = ['-c:a', 'libmp3lame', '-b:a', '64k'];

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    words: { type: 'string', default: '2000' },
    'poll-ms': { type: 'string', default: '20' },
    'round-timeout': { type: 'string', default: '120' },
    'cpu-prof': { type: 'string' },
  },
});
const whole = (name: keyof typeof args, min: number) => wholeOption(args, name, min);
const rounds = whole('rounds', 1);
const warmup = whole('warmup', 0);
const words = whole('words', 50);
const pollMs = whole('poll-ms', 1);
const roundTimeoutMs = whole('round-timeout', 5) * 1000;
const TOOL_TIMEOUT_MS = 60_000;

// ---------------------------------------------------------------------------------------------
// The article, and the text the service would speak for it.

const { title, body, texts: spokenTexts } = benchArticle(words);
const spokenText = spokenTexts.join('\n\n');
const spokenWords = spokenText.split(/\s+/).filter(Boolean).length;

// ---------------------------------------------------------------------------------------------

// The service reaps its espeak-words and ffmpeg processes, this script its bare tools: a round's CPU time (`cpuMs`)
// covers all of its work.
const cpuDelta = (before: Cpu | null, after: Cpu | null): Cpu | null =>
  before === null || after === null ? null : { own: after.own - before.own, tools: after.tools - before.tools };
const cpuTotal = (cpu: Cpu | null) => (cpu === null ? null : cpu.own + cpu.tools);

// ---------------------------------------------------------------------------------------------
// One pipeline round: POST, then GET every `pollMs` until the item is processed.

interface ItemView {
  id: string;
  status: string;
  duration: number | null;
  created: string;
  updated: string;
  error: string | null;
  segments: { created?: string }[] | null;
}

interface PipelineRound {
  wallMs: number;
  /** CPU time of the service and its tools during the round (includes answering the polls). */
  cpu: Cpu | null;
  speechMs: number;
  polls: number;
  /** Server clock (same machine) relative to the moment the POST was sent, in ms. */
  createdAt: number;
  startedAt: number | null;
  renderAt: number | null;
  processedAt: number;
}

async function pipelineRound({ baseUrl, pid }: Server, sourceId: string): Promise<PipelineRound> {
  const cpuBefore = cpuMs(pid);
  const sentEpoch = Date.now();
  const sent = performance.now();
  const id = await createItem(baseUrl, { title, body, source_id: sourceId });
  let startedIso: string | null = null;
  let polls = 0;
  for (;;) {
    const polled = performance.now();
    if (polled - sent > roundTimeoutMs) throw new Error(`item ${id} not processed within ${roundTimeoutMs / 1000} s`);
    const item = await getItem<ItemView>(baseUrl, id, 'none');
    polls++;
    if (item.status === 'processing') startedIso ??= item.updated;
    if (item.status === 'error' || item.status === 'skipped') throw new Error(`item ${id} ended ${item.status}: ${item.error}`);
    if (item.status === 'processed') {
      const wallMs = performance.now() - sent;
      const cpuAfter = cpuMs(pid);
      // Outside the measured time: the segments carry the moment rendering started (render.ts `created`).
      const full = await getItem<ItemView>(baseUrl, id, 'partial');
      const at = (iso: string | null | undefined) => (iso ? Date.parse(iso) - sentEpoch : null);
      return {
        wallMs,
        cpu: cpuDelta(cpuBefore, cpuAfter),
        speechMs: full.duration ?? 0,
        polls,
        createdAt: at(full.created)!,
        startedAt: at(startedIso),
        renderAt: at(full.segments?.[0]?.created),
        processedAt: at(full.updated)!,
      };
    }
    await sleep(Math.max(0, pollMs - (performance.now() - polled)));
  }
}

// ---------------------------------------------------------------------------------------------
// The bare tools: one espeak-ng process for the whole text, one ffmpeg encode.

const tools = toolRunner(TOOL_TIMEOUT_MS);
const timed = async (command: string, commandArgs: string[]) => (await tools.run(command, commandArgs)).ms;

interface BareRound {
  espeakMs: number;
  ffmpegMs: number;
  totalMs: number;
  /** The tools' CPU time (this script's own is left out). */
  cpuMs: number | null;
  speechMs: number;
}

async function bareRound(dir: string, textPath: string, mp3Args: string[]): Promise<BareRound> {
  const wav = path.join(dir, 'out.wav');
  const mp3 = path.join(dir, 'out.mp3');
  rmSync(wav, { force: true });
  rmSync(mp3, { force: true });
  const cpuBefore = cpuMs('self');
  const espeakMs = await timed('espeak-ng', ['-v', 'en-us', '-w', wav, '-f', textPath]);
  const ffmpegMs = await timed('ffmpeg', ['-v', 'error', '-y', '-i', wav, ...mp3Args, mp3]);
  return { espeakMs, ffmpegMs, totalMs: espeakMs + ffmpegMs, cpuMs: cpuDelta(cpuBefore, cpuMs('self'))?.tools ?? null, speechMs: wavDurationMs(readFileSync(wav)) };
}

/** espeak-ng writes a canonical 44-byte header: rate at 24, data size at 40 (16-bit mono). */
function wavDurationMs(file: Buffer): number {
  const rate = file.readUInt32LE(24);
  const bytes = Math.min(file.readUInt32LE(40), file.length - 44);
  return (bytes / 2 / rate) * 1000;
}

// ---------------------------------------------------------------------------------------------
// Reporting.

const seconds = (value: number) => (value / 1000).toFixed(2);

function toolVersion(command: string, versionArgs: string[]): string {
  try {
    return execFileSync(command, versionArgs, { encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'ignore'] }).split('\n')[0]!.trim();
  } catch {
    return `${command}: not found`;
  }
}

// ---------------------------------------------------------------------------------------------
// The run.

const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-generation-'));
const toolsDir = mkdtempSync(path.join(tmpdir(), 'bench-generation-tools-'));
let server: Server | undefined;
const budgetSeconds = 90 + (rounds + warmup) * (roundTimeoutMs / 1000 + 4 * (TOOL_TIMEOUT_MS / 1000));
const { cleanUp, fail } = guardRun(budgetSeconds, async () => {
  tools.stop();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(toolsDir, { recursive: true, force: true });
});

type Task = 'pipeline' | 'bareA' | 'bareB';
interface Round {
  order: Task[];
  pipeline: PipelineRound;
  bareA: BareRound;
  bareB: BareRound;
}

try {
  const loadAtStart = loadAverage();
  const env = benchEnv(dataDir, API_KEY, { generation: true });
  const profileDir = args['cpu-prof'] ? path.resolve(args['cpu-prof']) : undefined;
  server = await startServer(env, profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [], fail);
  const textPath = path.join(toolsDir, 'text.txt');
  writeFileSync(textPath, spokenText);
  const runTag = randomBytes(4).toString('hex');

  const tasks: Task[] = ['pipeline', 'bareA', 'bareB'];
  const results: Round[] = [];
  for (let index = 0; index < warmup + rounds; index++) {
    // Rotate the order every round so that drift in the machine's load falls on all three alike.
    const order = tasks.map((_, i) => tasks[(i + index) % tasks.length]!);
    const round: Partial<Round> = { order };
    for (const task of order) {
      if (task === 'pipeline') round.pipeline = await pipelineRound(server, `bench-generation-${runTag}-${index}`);
      if (task === 'bareA') round.bareA = await bareRound(toolsDir, textPath, DEFAULT_MP3_ARGS);
      if (task === 'bareB') round.bareB = await bareRound(toolsDir, textPath, SERVICE_MP3_ARGS);
    }
    results.push(round as Round);
  }
  const loadAtEnd = loadAverage();
  await cleanUp();

  const measured = results.slice(warmup);
  const pipelineMs = measured.map((r) => r.pipeline.wallMs);
  const bareAMs = measured.map((r) => r.bareA.totalMs);
  const bareBMs = measured.map((r) => r.bareB.totalMs);
  const speechMs = median(measured.map((r) => r.pipeline.speechMs));
  const bareSpeechMs = median(measured.map((r) => r.bareB.speechMs));
  const cpuCount = availableParallelism();

  console.log(machineLine());
  console.log(`${toolVersion('espeak-ng', ['--version'])}; ${toolVersion('ffmpeg', ['-version'])}`);
  console.log(`load average (1/5/15 min): ${loadAtStart} at start, ${loadAtEnd} at end`);
  console.log(
    `article: longArticleHtml(${words}), ${body.length} B of HTML; spoken: ${spokenTexts.length} text segments, ${spokenWords} words, ` +
      `${spokenText.length} characters`,
  );
  console.log(`${rounds} rounds (+${warmup} warm-up, not counted), order rotated per round; polling every ${pollMs} ms\n`);

  console.log(
    'Per round, in ms. CPU: user + system time of the service (or of the bare tools) during the round. ' +
      'created … processed: server timestamps relative to the POST being sent. Order: P pipeline, a/b bare variants.\n',
  );
  console.log('| round | order | pipeline wall | pipeline CPU node + tools | bare (a) wall | bare (a) CPU | bare (b) wall | bare (b) CPU | espeak-ng a / b | ffmpeg (a) | ffmpeg (b) | created | started | rendering | processed | speech s |');
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  results.forEach((r, index) => {
    const p = r.pipeline;
    const label = index < warmup ? `warm-up ${index + 1}` : String(index - warmup + 1);
    const cells = [
      label,
      r.order.map((task) => ({ pipeline: 'P', bareA: 'a', bareB: 'b' })[task]).join(''),
      ms(p.wallMs),
      p.cpu === null ? '—' : `${ms(p.cpu.own)} + ${ms(p.cpu.tools)}`,
      ms(r.bareA.totalMs),
      ms(r.bareA.cpuMs),
      ms(r.bareB.totalMs),
      ms(r.bareB.cpuMs),
      `${ms(r.bareA.espeakMs)} / ${ms(r.bareB.espeakMs)}`,
      ms(r.bareA.ffmpegMs),
      ms(r.bareB.ffmpegMs),
      ms(p.createdAt),
      ms(p.startedAt),
      ms(p.renderAt),
      ms(p.processedAt),
      seconds(p.speechMs),
    ];
    console.log(`| ${cells.join(' | ')} |`);
  });

  const pipelineMedian = median(pipelineMs);
  const ratioA = pipelineMedian / median(bareAMs);
  const ratioB = pipelineMedian / median(bareBMs);
  const phase = (pick: (p: PipelineRound) => number | null) => ms(medianOrNull(measured.map((r) => pick(r.pipeline))));
  const pipelineCpu = medianOrNull(measured.map((r) => cpuTotal(r.pipeline.cpu)));
  const serviceNodeCpu = medianOrNull(measured.map((r) => r.pipeline.cpu?.own ?? null));
  const serviceToolsCpu = medianOrNull(measured.map((r) => r.pipeline.cpu?.tools ?? null));
  const bareACpu = medianOrNull(measured.map((r) => r.bareA.cpuMs));
  const bareBCpu = medianOrNull(measured.map((r) => r.bareB.cpuMs));
  const ratio = (a: number | null, b: number | null) => (a === null || b === null ? '—' : `${(a / b).toFixed(2)}×`);
  console.log('\nSummary (medians over the measured rounds unless noted)\n');
  console.log('| metric | value |');
  console.log('|---|---:|');
  const rows: [string, string][] = [
    ['pipeline wall time, POST → `processed` seen (median)', `${ms(pipelineMedian)} ms`],
    ['pipeline wall time (min)', `${ms(Math.min(...pipelineMs))} ms`],
    ['bare (a): espeak-ng + ffmpeg libmp3lame 64k (median)', `${ms(median(bareAMs))} ms`],
    ['bare (b): espeak-ng + ffmpeg 64k `-compression_level 7`, as the service (median)', `${ms(median(bareBMs))} ms`],
    ['  of which espeak-ng (median of all bare runs)', `${ms(median(measured.flatMap((r) => [r.bareA.espeakMs, r.bareB.espeakMs])))} ms`],
    ['  of which ffmpeg (a) / (b)', `${ms(median(measured.map((r) => r.bareA.ffmpegMs)))} / ${ms(median(measured.map((r) => r.bareB.ffmpegMs)))} ms`],
    ['pipeline / bare (a), wall (medians)', `${ratioA.toFixed(2)}×`],
    ['pipeline / bare (b), wall (medians)', `${ratioB.toFixed(2)}×`],
    ['CPU time: pipeline / bare (a) / bare (b) (medians)', `${ms(pipelineCpu)} / ${ms(bareACpu)} / ${ms(bareBCpu)} ms`],
    ['  pipeline CPU time: service Node / its espeak-words + ffmpeg (medians)', `${ms(serviceNodeCpu)} / ${ms(serviceToolsCpu)} ms`],
    ['pipeline / bare (b), CPU time (medians)', ratio(pipelineCpu, bareBCpu)],
    ['speech duration of the item (`duration`)', `${seconds(speechMs)} s`],
    ['speech duration of the bare WAV (no inter-segment pauses)', `${seconds(bareSpeechMs)} s`],
    ['real-time factor, pipeline wall / speech', `${(pipelineMedian / speechMs).toFixed(4)} (${(speechMs / pipelineMedian).toFixed(0)}× faster than real time)`],
    ['real-time factor, bare (b) / its speech', `${(median(bareBMs) / bareSpeechMs).toFixed(4)}`],
    ['phase: POST sent → item created (server clock)', `${phase((p) => p.createdAt)} ms`],
    ['phase: created → processing started', `${phase((p) => (p.startedAt === null ? null : p.startedAt - p.createdAt))} ms`],
    ['phase: processing started → rendering started (read streams, plan, text preparation)', `${phase((p) => (p.startedAt === null || p.renderAt === null ? null : p.renderAt - p.startedAt))} ms`],
    ['phase: rendering started → processed (synthesis, assembly, HLS, recording)', `${phase((p) => (p.renderAt === null ? null : p.processedAt - p.renderAt))} ms`],
    ['phase: processed → seen by the poll', `${phase((p) => p.wallMs - p.processedAt)} ms`],
  ];
  for (const [name, value] of rows) console.log(`| ${name} | ${value} |`);

  console.log('\nTargets');
  console.log(
    `- pipeline within 1.5× the bare tools (wall, medians): ${verdict(ratioB <= 1.5)} against (b), the service's encoder settings ` +
      `(${ratioB.toFixed(3)}×); ${verdict(ratioA <= 1.5)} against (a), ffmpeg's defaults (${ratioA.toFixed(3)}×)`,
  );
  console.log(`- pipeline under 5 s on 2 cores: ${verdict(pipelineMedian < 5000)} (median ${seconds(pipelineMedian)} s on ${cpuCount} CPUs${cpuCount === 2 ? '' : '; not a 2-core machine'})`);
  if (profileDir) console.log(`\nCPU profile of the service written to ${profileDir}`);
} catch (error) {
  fail(errorText(error));
}
