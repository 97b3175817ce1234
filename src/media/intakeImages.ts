// Picture sizes read from image headers (PNG IHDR, JPEG SOF, WebP VP8/VP8L/VP8X, GIF screen), so a picture too large
// to decode is refused before anything decodes it.
import type { ByteSource, FormatName } from './intake.ts';

export interface PictureSize {
  width: number;
  height: number;
}

/** The size the header gives, or null when it gives none (a truncated or malformed header). */
export async function imageSizeOf(name: FormatName, source: ByteSource): Promise<PictureSize | null> {
  switch (name) {
    case 'png':
      return pngSize(await source.read(0, 24));
    case 'gif':
      return gifSize(await source.read(0, 10));
    case 'webp':
      return webpSize(await source.read(0, 30));
    case 'jpeg':
      return jpegSize(source);
    default:
      return null;
  }
}

function pngSize(head: Buffer): PictureSize | null {
  if (head.length < 24 || head.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
}

const gifSize = (head: Buffer): PictureSize | null => (head.length < 10 ? null : { width: head.readUInt16LE(6), height: head.readUInt16LE(8) });

function webpSize(head: Buffer): PictureSize | null {
  if (head.length < 30) return null;
  const chunk = head.toString('latin1', 12, 16);
  if (chunk === 'VP8 ') return { width: head.readUInt16LE(26) & 0x3fff, height: head.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = head.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: head.readUIntLE(24, 3) + 1, height: head.readUIntLE(27, 3) + 1 };
  return null;
}

/** Start-of-frame markers: every SOFn but DHT (C4), JPG (C8) and DAC (CC). */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/** Walks the marker segments from the start to the first frame header; at most 256 segments. */
async function jpegSize(source: ByteSource): Promise<PictureSize | null> {
  let at = 2;
  for (let segments = 0; segments < 256 && at + 4 <= source.size; segments++) {
    const header = await source.read(at, 9);
    if (header.length < 4 || header[0] !== 0xff) return null;
    const marker = header[1]!;
    // Fill bytes and markers without a length.
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (isStartOfFrame(marker)) return header.length < 9 ? null : { height: header.readUInt16BE(5), width: header.readUInt16BE(7) };
    if (marker === 0xd9 || marker === 0xda) return null;
    at += 2 + header.readUInt16BE(2);
  }
  return null;
}
