// The text of a page from its bytes: the byte order mark, then the Content-Type charset, then the page's own
// `<meta charset>` or http-equiv declaration, then UTF-8 (as browsers decide, WHATWG encoding sniffing).

const BOMS: [number[], string][] = [
  [[0xef, 0xbb, 0xbf], 'utf-8'],
  [[0xfe, 0xff], 'utf-16be'],
  [[0xff, 0xfe], 'utf-16le'],
];

/** A label TextDecoder knows (it has every WHATWG encoding: windows-1252, shift_jis, gbk, ...), or null. */
function known(label: string | undefined | null): string | null {
  if (!label) return null;
  try {
    return new TextDecoder(label.trim().replace(/^["']|["']$/g, '')).encoding;
  } catch {
    return null;
  }
}

const charsetParameter = (contentType: string | undefined) => /charset\s*=\s*["']?([^;"'\s]+)/i.exec(contentType ?? '')?.[1];

/** The charset a page declares in its first 1024 bytes (read as ASCII, as the prescan does). */
function declared(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  for (const tag of head.match(/<meta\b[^>]*>/gi) ?? []) {
    const direct = /\bcharset\s*=\s*["']?([^"'\s/>;]+)/i.exec(tag)?.[1];
    const found = known(direct);
    // UTF-16 declared inside the page cannot be true (the declaration itself was read as ASCII): UTF-8, as browsers do.
    if (found) return found.startsWith('utf-16') ? 'utf-8' : found;
  }
  return null;
}

export function decodePage(bytes: Uint8Array, contentType: string | undefined): { text: string; encoding: string } {
  for (const [mark, encoding] of BOMS) {
    if (mark.every((byte, index) => bytes[index] === byte)) return { text: new TextDecoder(encoding).decode(bytes.subarray(mark.length)), encoding };
  }
  const encoding = known(charsetParameter(contentType)) ?? declared(bytes) ?? 'utf-8';
  return { text: new TextDecoder(encoding).decode(bytes), encoding };
}
