// Media files made with ffmpeg from lavfi sources and served over loopback HTTP, as publishers' hosts serve them.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect } from 'vitest';
import { runTool } from '../../src/media/tool.ts';

export interface FileHost {
  base: string;
  close(): Promise<void>;
}

/**
 * Makes each file with ffmpeg from a lavfi source (`outputArgs` go before the file's name) and serves it at /<name>;
 * with `heldUntil`, every request waits for that promise before it is answered (a host that holds a generation back).
 */
export async function serveMadeFiles(dir: string, sources: Record<string, string>, options: { outputArgs: string[]; contentType: string; heldUntil?: Promise<void> }): Promise<FileHost> {
  const files = new Map<string, Buffer>();
  for (const [name, source] of Object.entries(sources)) {
    const file = path.join(dir, name);
    const made = await runTool('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', source, ...options.outputArgs, file]);
    expect(made.code, made.stderr.toString()).toBe(0);
    files.set(`/${name}`, await readFile(file));
  }
  const server: Server = createServer(async (request, response) => {
    await options.heldUntil;
    const bytes = files.get(request.url ?? '');
    if (!bytes) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': options.contentType, 'content-length': bytes.length }).end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
