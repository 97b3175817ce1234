/* Synthesizes UTF-8 text from stdin with libespeak-ng into a 16-bit mono WAV and prints the
 * synthesizer's own word events as JSON lines, which the espeak-ng CLI cannot report.
 *
 * usage: espeak-words <voice> <words-per-minute> <out.wav> < text
 * stdout: {"start":<ms>,"pos":<1-based code point offset>,"len":<code points>} per word event,
 *         then {"samples":<N>,"rate":<Hz>}.
 * exit codes: 2 usage, 3 voice not found, 4 I/O, 5 synthesis failed.
 *
 * espeak starts its audio with 12 to 50 ms of digital silence (longest before a stop consonant).
 * It is left out, and the word starts moved back by as much, so that the audio, and a segment
 * placed on a timeline, starts where the speech becomes audible. */
#include <espeak-ng/speak_lib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEADING_SILENCE 32 /* |sample| at or below this (-60 dBFS) before the first sound is dropped */

typedef struct { int start_ms, pos, len; } word_t;

static FILE *wav;
static uint32_t samples, skipped;
static int heard, failed;
static word_t *words;
static size_t word_count, word_cap;

static void put_u32(unsigned char *p, uint32_t v) {
  p[0] = v & 0xff; p[1] = (v >> 8) & 0xff; p[2] = (v >> 16) & 0xff; p[3] = v >> 24;
}

static void put_u16(unsigned char *p, uint16_t v) {
  p[0] = v & 0xff; p[1] = v >> 8;
}

/* The header is written twice: as a placeholder first, then with the sizes once they are known. */
static int write_header(uint32_t rate, uint32_t n) {
  unsigned char h[44];
  uint32_t data = n * 2;
  memcpy(h, "RIFF", 4); put_u32(h + 4, 36 + data); memcpy(h + 8, "WAVEfmt ", 8);
  put_u32(h + 16, 16); put_u16(h + 20, 1); put_u16(h + 22, 1);
  put_u32(h + 24, rate); put_u32(h + 28, rate * 2); put_u16(h + 32, 2); put_u16(h + 34, 16);
  memcpy(h + 36, "data", 4); put_u32(h + 40, data);
  return fseek(wav, 0, SEEK_SET) == 0 && fwrite(h, 1, sizeof h, wav) == sizeof h;
}

static int keep_word(const espeak_EVENT *e) {
  if (word_count == word_cap) {
    word_t *bigger = realloc(words, (word_cap = word_cap ? word_cap * 2 : 256) * sizeof *words);
    if (!bigger) return 0;
    words = bigger;
  }
  words[word_count++] = (word_t){e->audio_position, e->text_position, e->length};
  return 1;
}

static int on_synth(short *pcm, int n, espeak_EVENT *events) {
  for (espeak_EVENT *e = events; e->type != espeakEVENT_LIST_TERMINATED; e++) {
    if (e->type == espeakEVENT_WORD && !keep_word(e)) { failed = 1; return 1; }
  }
  if (pcm && !heard) {
    int quiet = 0;
    while (quiet < n && abs(pcm[quiet]) <= LEADING_SILENCE) quiet++;
    skipped += (uint32_t)quiet;
    pcm += quiet;
    n -= quiet;
    heard = n > 0;
  }
  if (pcm && n > 0) {
    if (fwrite(pcm, sizeof(short), (size_t)n, wav) != (size_t)n) { failed = 1; return 1; }
    samples += (uint32_t)n;
  }
  return 0;
}

/* As `espeak-ng -v` does: a voice name ("en-us", "English (Great Britain)"), else a language ("en-gb"). */
static int select_voice(const char *name) {
  if (espeak_SetVoiceByName(name) == EE_OK) return 1;
  espeak_VOICE by_language;
  memset(&by_language, 0, sizeof by_language);
  by_language.languages = name;
  return name[0] != 0 && espeak_SetVoiceByProperties(&by_language) == EE_OK;
}

static char *read_all(FILE *in, size_t *size) {
  size_t cap = 1 << 16, len = 0, got;
  char *buf = malloc(cap);
  while (buf && (got = fread(buf + len, 1, cap - len - 1, in)) > 0) {
    len += got;
    if (len + 1 == cap) {
      char *bigger = realloc(buf, cap *= 2);
      if (!bigger) free(buf);
      buf = bigger;
    }
  }
  if (buf) buf[len] = 0;
  *size = len;
  return buf;
}

int main(int argc, char **argv) {
  if (argc != 4) { fprintf(stderr, "usage: %s <voice> <words-per-minute> <out.wav> < text\n", argv[0]); return 2; }
  size_t size;
  char *text = read_all(stdin, &size);
  if (!text) { fprintf(stderr, "cannot read stdin\n"); return 4; }
  int rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, NULL, 0);
  if (rate <= 0) { fprintf(stderr, "espeak_Initialize failed\n"); return 5; }
  if (!select_voice(argv[1])) { fprintf(stderr, "voice not found: %s\n", argv[1]); return 3; }
  espeak_SetParameter(espeakRATE, atoi(argv[2]), 0);
  wav = fopen(argv[3], "wb");
  if (!wav || !write_header((uint32_t)rate, 0)) { fprintf(stderr, "cannot write %s\n", argv[3]); return 4; }
  static char wav_buffer[1 << 16];
  setvbuf(wav, wav_buffer, _IOFBF, sizeof wav_buffer);
  espeak_SetSynthCallback(on_synth);
  /* espeakPHONEMES: [[...]] in the text is phoneme input (pronunciation rules with an IPA transcription). */
  if (espeak_Synth(text, size + 1, 0, POS_CHARACTER, 0, espeakCHARS_UTF8 | espeakPHONEMES, NULL, NULL) != EE_OK ||
      espeak_Synchronize() != EE_OK || failed) { fprintf(stderr, "synthesis failed\n"); return 5; }
  if (!write_header((uint32_t)rate, samples) || fclose(wav) != 0) { fprintf(stderr, "cannot write %s\n", argv[3]); return 4; }
  int skipped_ms = (int)((skipped * 1000.0) / rate + 0.5);
  for (size_t i = 0; i < word_count; i++) {
    int start = words[i].start_ms - skipped_ms;
    printf("{\"start\":%d,\"pos\":%d,\"len\":%d}\n", start > 0 ? start : 0, words[i].pos, words[i].len);
  }
  printf("{\"samples\":%u,\"rate\":%d}\n", samples, rate);
  espeak_Terminate();
  free(words);
  free(text);
  return 0;
}
