// The preview page's markup, style and script: one self-contained document, nothing loaded from other hosts.

/** Styled by the project's theme colours, which the script sets as custom properties. */
export const PREVIEW_STYLE = `
:root { --text: #111; --background: #f5f5f5; --icon: #333; --highlight: #e4e4e4; --word: #c7dcfb; color-scheme: light dark; }
* { box-sizing: border-box; }
html { background: var(--background); min-height: 100%; }
body { margin: 0 auto; max-width: 46rem; padding: 2rem 1.25rem 4rem; color: var(--text);
  font: 1.0625rem/1.6 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
header { display: flex; align-items: center; gap: 1rem; margin-bottom: 1.5rem; }
h1 { font-size: 1.5rem; line-height: 1.25; margin: 0; flex: 1; }
#play { flex: none; width: 3.25rem; height: 3.25rem; border-radius: 50%; border: 2px solid var(--icon);
  background: transparent; color: var(--icon); cursor: pointer; display: grid; place-items: center; }
#play:disabled { opacity: 0.4; cursor: default; }
#play svg { width: 1.4rem; height: 1.4rem; fill: currentColor; }
#play .pause, #play[aria-pressed="true"] .play { display: none; }
#play[aria-pressed="true"] .pause { display: block; }
#meta { font-size: 0.875rem; opacity: 0.75; margin: -1rem 0 1.25rem; font-variant-numeric: tabular-nums; }
ol { list-style: none; margin: 0; padding: 0; }
.segment { display: block; width: 100%; text-align: left; font: inherit; color: inherit; background: transparent;
  border: 0; border-radius: 0.5rem; padding: 0.5rem 0.75rem; margin: 0 0 0.25rem; cursor: pointer; }
.segment:hover { outline: 1px solid var(--highlight); }
.segment:disabled { cursor: default; }
.segment.active { background: var(--highlight); }
.word { border-radius: 0.2rem; }
.word-active { background: var(--word); }
#status:empty { display: none; }
`;

/**
 * Fetches the item's player data (words included, the page's `preview_token` passed on), picks native HLS when
 * the browser plays it and the mp3 otherwise, and follows playback. All item text goes in as text nodes.
 */
export const PREVIEW_SCRIPT = `
(() => {
  'use strict';
  const byId = (id) => document.getElementById(id);
  const audio = byId('audio'), play = byId('play'), list = byId('segments'), status = byId('status'), meta = byId('meta');
  const id = location.pathname.split('/').pop();
  const token = new URLSearchParams(location.search).get('preview_token');
  const dataUrl = '../by_content_id/' + id + '?words=true' + (token === null ? '' : '&preview_token=' + encodeURIComponent(token));
  const segments = [];
  let activeSegment = null, activeWord = null, format = '';

  const clock = (seconds) => {
    const whole = Math.max(0, Math.floor(seconds || 0));
    return Math.floor(whole / 60) + ':' + String(whole % 60).padStart(2, '0');
  };
  const showTime = () => {
    meta.textContent = format + ' · ' + clock(audio.currentTime) + ' / ' + clock(audio.duration);
  };

  function applyTheme(settings) {
    const dark = settings.theme === 'dark' || (settings.theme === 'auto' && matchMedia('(prefers-color-scheme: dark)').matches);
    const theme = (dark ? settings.dark_theme : settings.light_theme) || {};
    const names = { text_color: '--text', background_color: '--background', icon_color: '--icon', highlight_color: '--highlight', word_highlight_color: '--word' };
    for (const [field, property] of Object.entries(names)) {
      if (typeof theme[field] === 'string') document.documentElement.style.setProperty(property, theme[field]);
    }
  }

  /** The segment's text with each timed word wrapped in a span; the text between words stays as it is. */
  function segmentButton(segment) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'segment';
    const words = [];
    const text = String(segment.text || '');
    const start = typeof segment.start_time === 'number' ? segment.start_time : null;
    let cursor = 0;
    for (const word of segment.words || []) {
      const at = text.indexOf(word.text, cursor);
      if (at < 0 || typeof word.start_time !== 'number' || start === null) continue;
      button.append(text.slice(cursor, at));
      const span = document.createElement('span');
      span.className = 'word';
      span.textContent = word.text;
      button.append(span);
      // Word times count from their segment's start, as the web player reads them.
      words.push({ start: start + word.start_time, end: start + word.start_time + (word.duration || 0), span });
      cursor = at + word.text.length;
    }
    button.append(text.slice(cursor));
    if (start === null) button.disabled = true;
    else button.addEventListener('click', () => { audio.currentTime = start / 1000; follow(); });
    return { button, start, words };
  }

  function setActive(current, next, className) {
    if (current === next) return current;
    if (current) { current.classList.remove(className); current.removeAttribute('aria-current'); }
    if (next) { next.classList.add(className); next.setAttribute('aria-current', 'true'); }
    return next;
  }

  /** Highlights the last segment that has started (it stays lit through the pause after it) and the word being read. */
  function follow() {
    const now = audio.currentTime * 1000;
    let segment = null;
    for (const candidate of segments) if (candidate.start !== null && candidate.start <= now) segment = candidate;
    activeSegment = setActive(activeSegment, segment && segment.button, 'active');
    const word = segment ? segment.words.find((w) => w.start <= now && now < w.end) : undefined;
    if (activeWord && activeWord !== (word && word.span)) activeWord.classList.remove('word-active');
    activeWord = word ? word.span : null;
    if (activeWord) activeWord.classList.add('word-active');
    showTime();
  }

  function loop() {
    follow();
    if (!audio.paused) requestAnimationFrame(loop);
  }

  function chooseSource(media) {
    const hls = media.find((m) => String(m.content_type).toLowerCase() === 'application/x-mpegurl');
    const mp3 = media.find((m) => m.content_type === 'audio/mpeg');
    if (hls && audio.canPlayType('application/vnd.apple.mpegurl') !== '') {
      format = 'HLS';
      audio.src = hls.url;
      if (mp3) audio.addEventListener('error', () => { format = 'MP3'; audio.src = mp3.url; showTime(); }, { once: true });
    } else if (mp3) {
      format = 'MP3';
      audio.src = mp3.url;
    }
    audio.dataset.format = format.toLowerCase();
    return Boolean(format);
  }

  function render(data) {
    const item = data.content[0];
    applyTheme(data.settings || {});
    byId('title').textContent = item.title || (data.settings && data.settings.player_title) || '';
    document.title = 'Preview: ' + byId('title').textContent;
    for (const segment of item.segments || []) {
      const entry = segmentButton(segment);
      const li = document.createElement('li');
      li.append(entry.button);
      list.append(li);
      segments.push(entry);
    }
    if (!chooseSource(item.audio || [])) { status.textContent = 'This item has no audio yet.'; return; }
    play.disabled = false;
    showTime();
  }

  play.addEventListener('click', () => { if (audio.paused) audio.play().catch((e) => { status.textContent = String(e); }); else audio.pause(); });
  audio.addEventListener('play', () => { play.setAttribute('aria-pressed', 'true'); play.setAttribute('aria-label', 'Pause'); loop(); });
  audio.addEventListener('pause', () => { play.setAttribute('aria-pressed', 'false'); play.setAttribute('aria-label', 'Play'); follow(); });
  for (const name of ['seeked', 'timeupdate', 'durationchange']) audio.addEventListener(name, follow);

  fetch(dataUrl, { credentials: 'same-origin' })
    .then((response) => { if (!response.ok) throw new Error('player data answered ' + response.status); return response.json(); })
    .then(render)
    .catch((error) => { status.textContent = 'Could not load the item: ' + error.message; });
})();
`;

export const previewHtml = (style: string, script: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>Preview</title>
<style>${style}</style>
</head>
<body>
<header>
<button id="play" type="button" aria-label="Play" aria-pressed="false" disabled>
<svg class="play" viewBox="0 0 24 24" aria-hidden="true"><path d="M7 4.5v15l12.5-7.5z"/></svg>
<svg class="pause" viewBox="0 0 24 24" aria-hidden="true"><path d="M6 4h4.5v16H6zM13.5 4H18v16h-4.5z"/></svg>
</button>
<h1 id="title"></h1>
</header>
<p id="meta" aria-live="off"></p>
<p id="status" role="status"></p>
<audio id="audio" preload="metadata"></audio>
<ol id="segments" aria-label="Segments"></ol>
<script>${script}</script>
</body>
</html>
`;
