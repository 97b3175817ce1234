import { describe, expect, it } from 'vitest';
import { escapeXml, podcastGuid } from '../../src/podcasts/feed.ts';
import { renderTranscript } from '../../src/podcasts/transcript.ts';

describe('podcast:guid', () => {
  it("is the UUIDv5 of the feed URL without its scheme, as the Podcasting 2.0 namespace's example gives", () => {
    expect(podcastGuid('https://mp3s.nashownotes.com/pc20rss.xml')).toBe('917393e3-1b1e-5cef-ace4-edaa54e1f810');
    expect(podcastGuid('http://mp3s.nashownotes.com/pc20rss.xml/')).toBe('917393e3-1b1e-5cef-ace4-edaa54e1f810');
  });
});

describe('escaping', () => {
  it('escapes markup and drops characters XML cannot carry', () => {
    expect(escapeXml(`a & b <c> "d" 'e'\u0001`)).toBe('a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;');
  });

  it('keeps transcript cues on one line and free of markup', () => {
    const vtt = renderTranscript([
      { content_type: 'text', text: 'One -->\n\ntwo & <b>', start_time: 3_723_004, duration: 1_500 },
      { content_type: 'image', text: 'not spoken', start_time: 0, duration: 0 },
    ]);
    expect(vtt).toBe('WEBVTT\n\n1\n01:02:03.004 --> 01:02:04.504\nOne --&gt; two &amp; &lt;b&gt;\n');
  });
});
