// Video checks for tests: previews fetched to disk, streams probed with ffprobe, frames read back as RGB pixels.
import { writeFile } from 'node:fs/promises';
import { expect } from 'vitest';
import { runTool } from '../../src/media/tool.ts';
import { serveMadeFiles, type FileHost } from './fileHost.ts';

export interface Probed {
  video: { codec_name: string; width: number; height: number };
  audio: { codec_name: string } | undefined;
  durationMs: number;
}

export async function download(url: string, file: string): Promise<{ contentType: string | null; bytes: Buffer }> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  const bytes = Buffer.from(await response.arrayBuffer());
  await writeFile(file, bytes);
  return { contentType: response.headers.get('content-type'), bytes };
}

export async function probe(file: string): Promise<Probed> {
  const run = await runTool('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name,width,height:format=duration,format_name', '-of', 'json', file]);
  expect(run.code, run.stderr).toBe(0);
  const parsed = JSON.parse(run.stdout.toString()) as { streams: { codec_type: string; codec_name: string; width: number; height: number }[]; format: { duration: string } };
  return {
    video: parsed.streams.find((stream) => stream.codec_type === 'video')!,
    audio: parsed.streams.find((stream) => stream.codec_type === 'audio'),
    durationMs: Number(parsed.format.duration) * 1000,
  };
}

export interface Area {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The pixels of an area of the frame shown at `atMs`, as RGB triples row by row. */
export async function framePixels(file: string, atMs: number, area: Area): Promise<Buffer> {
  // Cropped after conversion to RGB: on 4:2:0 video ffmpeg would round an odd width or offset down to an even one.
  const crop = `format=rgb24,crop=${area.width}:${area.height}:${area.x}:${area.y}`;
  const run = await runTool('ffmpeg', ['-v', 'error', '-ss', (atMs / 1000).toFixed(3), '-i', file, '-frames:v', '1', '-vf', crop, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1']);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout.length).toBe(area.width * area.height * 3);
  return run.stdout;
}

export type Rgb = [number, number, number];

/** Which pixels are within `tolerance` of a colour on every channel (video compression shifts colours a little). */
export function matching(pixels: Buffer, [r, g, b]: Rgb, tolerance = 40): number[] {
  const found: number[] = [];
  for (let at = 0; at < pixels.length; at += 3) {
    if (Math.abs(pixels[at]! - r) <= tolerance && Math.abs(pixels[at + 1]! - g) <= tolerance && Math.abs(pixels[at + 2]! - b) <= tolerance) found.push(at / 3);
  }
  return found;
}

/** The average colour of the pixels. */
export function average(pixels: Buffer): Rgb {
  const sum = [0, 0, 0];
  for (let at = 0; at < pixels.length; at += 3) for (let channel = 0; channel < 3; channel++) sum[channel]! += pixels[at + channel]!;
  const count = pixels.length / 3;
  return sum.map((value) => Math.round(value / count)) as Rgb;
}

/** Serves images made with ffmpeg from lavfi sources (`color=c=red:s=200x100`) at /<name>. */
export const serveImages = (dir: string, sources: Record<string, string>): Promise<FileHost> =>
  serveMadeFiles(dir, sources, { outputArgs: ['-frames:v', '1'], contentType: 'image/png' });
