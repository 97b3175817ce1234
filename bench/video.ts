// Video rendering benchmark: a ~2,000-word narration's 720p karaoke video with waveform and two images, rendered by
// the service's renderer, against bare ffmpeg commands of the same composition run in the same rounds; peak memory.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createEspeakEngine } from '../src/media/engines/espeak.ts';
import { runTool } from '../src/media/tool.ts';
import { defaultVideoSettings, type VideoSettings } from '../src/player/videoSettings.ts';
import { captionScript } from '../src/video/captions.ts';
import { composition, joinParts, partsList } from '../src/video/composition.ts';
import { runFfmpeg } from '../src/video/ffmpeg.ts';
import { DEFAULT_FONT } from '../src/video/fonts.ts';
import { imageSlots } from '../src/video/slots.ts';
import type { VideoRenderRequest } from '../src/video/port.ts';
import { createVideoRenderer, renderSpans } from '../src/video/render.ts';
import { longArticleHtml } from '../test/fixtures/longArticle.ts';
import { gitCommit, median } from './service.ts';

const { values: args } = parseArgs({
  options: { words: { type: 'string', default: '2000' }, minutes: { type: 'string' }, rounds: { type: 'string', default: '3' }, preset: { type: 'string', default: 'veryfast' } },
});
/** espeak-ng reads this article at about 160 words a minute. */
const words = args.minutes ? Math.round(Number(args.minutes) * 160) : Number(args.words);
const rounds = Number(args.rounds);
const preset = args.preset!;
const [WIDTH, HEIGHT, FPS, THREADS] = [1280, 720, 25, 2];

const dir = mkdtempSync(path.join(tmpdir(), 'bench-video-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

// The narration: the generation benchmark's article as plain text, spoken by espeak-ng with its word times.
const text = longArticleHtml(words)
  .replace(/<[^>]+>/g, ' ')
  .replace(/\s+/g, ' ')
  .trim();
const spoken = await createEspeakEngine({ concurrency: 1, timeoutMs: 600_000 }).speak(text, 'en-us', path.join(dir, 'narration.wav'));
const durationMs = Math.round(spoken.durationMs);

// Two images, served over HTTP as the renderer fetches them.
for (const [name, source] of [['one.jpg', 'testsrc2=s=1600x900'], ['two.jpg', 'mandelbrot=s=1200x1200']] as const) {
  await runTool('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', source, '-frames:v', '1', path.join(dir, name)]);
}
const server = createServer((request, response) => {
  void import('node:fs/promises').then(({ readFile }) =>
    readFile(path.join(dir, path.basename(request.url ?? ''))).then(
      (bytes) => response.writeHead(200, { 'content-type': 'image/jpeg' }).end(bytes),
      () => response.writeHead(404).end(),
    ),
  );
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const settings: VideoSettings = { ...defaultVideoSettings, enabled: true, textAnimation: 'karaoke', audioAndWaveformEnabled: true, panAndZoomEnabled: true, playbackMode: 'cycle', cycleTime: 5000 };
const request: VideoRenderRequest = {
  audioPath: spoken.wavPath,
  durationMs,
  segments: [
    { content_type: 'image', section: null, text: null, image_url: `${base}/two.jpg`, video_url: null, start_time: 0, duration: 0, words: [] },
    { content_type: 'text', section: null, text, image_url: null, video_url: null, start_time: 0, duration: durationMs, words: spoken.words },
  ],
  settings,
  featureImageUrl: `${base}/one.jpg`,
  language: 'en_US',
  size: { name: 'landscape', width: WIDTH, height: HEIGHT },
  outPath: path.join(dir, 'service.mp4'),
};
const limits = { maxBytes: 20_000_000, timeoutMs: 10_000, allowPrivate: true };
const renderer = createVideoRenderer({ fontCacheDir: path.join(dir, 'fonts'), threads: THREADS, preset, fonts: limits, images: limits, timeout: { baseMs: 60_000, perAudioMs: 1 } });

// The bare commands' working directory: the same captions script and images, prepared once outside the timing.
const work = path.join(dir, 'bare');
await mkdir(path.join(dir, 'fonts'), { recursive: true });
await mkdir(work);
await symlink(path.join(dir, 'fonts'), path.join(work, 'fonts'));
writeFileSync(path.join(work, 'captions.ass'), captionScript({ ...request, width: WIDTH, height: HEIGHT, fontFamily: DEFAULT_FONT }));
const probeSize = async (file: string) => {
  const run = await runTool('ffprobe', ['-v', 'error', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', file]);
  const [width, height] = run.stdout.toString().trim().split(',').map(Number);
  return { path: file, width: width!, height: height! };
};
const images = [await probeSize(path.join(dir, 'one.jpg')), await probeSize(path.join(dir, 'two.jpg'))];
const slots = imageSlots({ ...request, segments: request.segments.map((segment) => (segment.image_url ? { ...segment, image_url: `${base}/two.jpg` } : segment)) }).slots;
const seconds = (durationMs / 1000).toFixed(3);

/**
 * The renderer's own ffmpeg commands, run directly: what the service adds (fetching, fonts, captions, probing) is
 * left out. Its parts at once and their join, as the renderer runs them; and its graph in one process.
 */
const assets = { images, slots, logo: null, captions: true, fontsDir: 'fonts' };
const spans = renderSpans(durationMs, FPS, THREADS, false);
const partFiles = spans.map((_, part) => `part-${part}.mp4`);
const parts = spans.map((span, part) => composition({ ...request, outPath: partFiles[part]! }, assets, { fps: FPS, threads: 1, preset }, span));
writeFileSync(path.join(work, 'parts.txt'), partsList(partFiles));
const join = joinParts({ ...request, outPath: path.join(dir, 'same-parts.mp4') });
const sameGraph = composition({ ...request, outPath: path.join(dir, 'same.mp4') }, assets, { fps: FPS, threads: THREADS, preset });

/**
 * The same picture written by hand, independently of the renderer's code: a colour source at the video's rate, each
 * image decoded once, scaled to cover, repeated and zoomed and panned the same way, shown in turn every 5 s; the
 * waveform's 4-second window; the same captions script; the same encoder settings.
 */
const zoomed = (index: number) =>
  `scale=1434:806:force_original_aspect_ratio=increase,crop=1434:806,format=yuv420p,loop=-1:1,setpts=N/${FPS}/TB,` +
  `scale=w='max(${WIDTH},2*trunc(${WIDTH}*(1+0.06*(1+sin(t/5+${index})))/2))':h='max(${HEIGHT},2*trunc(${HEIGHT}*(1+0.06*(1+sin(t/5+${index})))/2))':eval=frame:flags=fast_bilinear`;
const at = (index: number) => `x='-(w-W)*(0.5+0.5*sin(t/6+${index}))':y='-(h-H)*(0.5+0.5*cos(t/7+${index}))'`;
const handWritten = [
  '-nostdin', '-nostats', '-v', 'error', '-y', '-filter_complex_threads', '1',
  '-f', 'lavfi', '-i', `color=c=black:s=${WIDTH}x${HEIGHT}:r=${FPS}:d=${seconds}`,
  '-i', images[0]!.path, '-i', images[1]!.path, '-i', spoken.wavPath,
  '-filter_complex',
  [
    `[1:v]${zoomed(0)}[one]`,
    `[2:v]${zoomed(1)}[two]`,
    `[0:v][one]overlay=${at(0)}:enable='lte(mod(t,10),5)'[a]`,
    `[a][two]overlay=${at(1)}:enable='gte(mod(t,10),5)'[b]`,
    `[3:a]apad,atrim=end=${seconds},asplit[sound][wavein]`,
    `[wavein]aresample=8000,showwaves=s=${WIDTH}x120:mode=cline:n=25:rate=${FPS}:colors=white:scale=sqrt[wave]`,
    `[b][wave]overlay=0:300,ass=captions.ass:fontsdir=fonts[v]`,
  ].join(';'),
  '-map', '[v]', '-map', '[sound]',
  '-c:v', 'libx264', '-preset', preset, '-crf', '23', '-pix_fmt', 'yuv420p', '-r', String(FPS), '-g', String(FPS * 4), '-x264-params', 'bframes=0:me=dia:subme=1', '-threads', String(THREADS),
  '-c:a', 'aac', '-aac_coder', 'fast', '-b:a', '128k', '-t', seconds, '-movflags', '+faststart', path.join(dir, 'hand.mp4'),
];

interface Sample {
  ms: number;
  peak: number;
}
const results: Record<'service' | 'sameParts' | 'sameGraph' | 'handWritten', Sample[]> = { service: [], sameParts: [], sameGraph: [], handWritten: [] };
const ffmpeg = (command: string[]) => runFfmpeg(command, { cwd: work, timeoutMs: 30 * 60_000 });
const loads: number[] = [];
for (let round = 0; round < rounds; round++) {
  loads.push(loadavg()[0]!);
  let started = performance.now();
  const rendered = await renderer.render(request);
  results.service.push({ ms: performance.now() - started, peak: rendered.peakMemoryBytes });
  started = performance.now();
  const partRuns = await Promise.all(parts.map(ffmpeg));
  const joined = await ffmpeg(join);
  results.sameParts.push({ ms: performance.now() - started, peak: Math.max(joined.peakMemoryBytes, partRuns.reduce((sum, run) => sum + run.peakMemoryBytes, 0)) });
  for (const [name, command] of [['sameGraph', sameGraph], ['handWritten', handWritten]] as const) {
    started = performance.now();
    const run = await ffmpeg(command);
    results[name].push({ ms: performance.now() - started, peak: run.peakMemoryBytes });
  }
  loads.push(loadavg()[0]!);
  console.error(`round ${round + 1}/${rounds}: ${Object.entries(results).map(([name, samples]) => `${name} ${(samples.at(-1)!.ms / 1000).toFixed(1)} s`).join(', ')}`);
}
server.close();

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
const serviceMs = median(results.service.map((sample) => sample.ms));
console.log(`node ${process.version}, ${availableParallelism()} CPUs (${cpus()[0]?.model}), commit ${gitCommit()}`);
console.log(`narration: ${words} words, ${(durationMs / 60_000).toFixed(1)} min; ${WIDTH}x${HEIGHT} ${FPS} fps, libx264 ${preset}, ${THREADS} cores (${spans.length} parts); medians of ${rounds} rounds`);
console.log(`1-minute load average before and after each round: ${loads.map((load) => load.toFixed(1)).join(', ')}\n`);
console.log('| run | render time | × real time | service ÷ this | ffmpeg peak memory (VmHWM, parts summed) |');
console.log('|---|---|---|---|---|');
const rows = [
  ['service', 'service renderer (fetch, fonts, captions, ffmpeg)'],
  ['sameParts', "bare ffmpeg: the renderer's own commands (parts at once, then the join)"],
  ['sameGraph', "bare ffmpeg: the renderer's graph in one process"],
  ['handWritten', 'bare ffmpeg: hand-written, same picture, one process'],
] as const;
for (const [name, label] of rows) {
  const ms = median(results[name].map((sample) => sample.ms));
  const peak = median(results[name].map((sample) => sample.peak));
  console.log(`| ${label} | ${(ms / 1000).toFixed(1)} s | ${(durationMs / ms).toFixed(1)}× | ${(serviceMs / ms).toFixed(2)} | ${mb(peak)} MB |`);
}
