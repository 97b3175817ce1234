// Reads a request body into memory up to a byte limit; a body declared or found larger is refused without keeping the rest.
import type { IncomingMessage } from 'node:http';

export type BodyRead = { ok: true; bytes: Buffer } | { ok: false; reason: 'too_large' | 'incomplete' };

export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  const declared = Number(req.headers['content-length']);
  if (declared > maxBytes) return Promise.resolve({ ok: false, reason: 'too_large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: BodyRead) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onIncomplete);
      req.off('close', onIncomplete);
      resolve(result);
    };
    function onData(chunk: Buffer) {
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      // The rest flows past unkept, so the client, still sending, reads the 413 (closing early would reset the
      // connection under it); the request timeout bounds how long that may take.
      finish({ ok: false, reason: 'too_large' });
      req.resume();
    }
    function onEnd() {
      finish({ ok: true, bytes: Buffer.concat(chunks, size) });
    }
    function onIncomplete() {
      finish({ ok: false, reason: 'incomplete' });
    }
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onIncomplete);
    req.on('close', onIncomplete);
  });
}
