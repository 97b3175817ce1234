/* Synthesizes UTF-8 text from stdin with RHVoice's library into a 16-bit mono WAV at the voice's own rate and
 * prints the synthesizer's own word events as JSON lines, which RHVoice's command-line programs cannot report.
 *
 * usage: rhvoice-words <voice> <rate> <out.wav> < text      (rate: RHVoice's relative rate, 1 = the voice's own)
 * stdout: {"start":<ms>,"pos":<1-based code point offset>,"len":<code points>} per word start (RHVoice counts
 *         bytes; they are turned into code points as espeak-words reports them),
 *         then {"samples":<N>,"rate":<Hz>}.
 * exit codes: 2 usage, 3 voice not found, 4 I/O, 5 synthesis failed.
 *
 * A word's start is the audio written when RHVoice reports it: the library calls word_starts in the order of the
 * speech it hands to play_speech. As in espeak-words, the audio's leading silence is left out (the samples are
 * counted after it, so the starts move back by as much). */
#include <RHVoice.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define LEADING_SILENCE 32 /* |sample| at or below this (-60 dBFS) before the first sound is dropped */

typedef struct { uint32_t at; unsigned pos, len; } word_t;

static FILE *wav;
static uint32_t samples, sample_rate;
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

static int on_rate(int rate, void *user) {
  (void)user;
  if (sample_rate != 0 && (uint32_t)rate != sample_rate) { failed = 1; return 0; }
  sample_rate = (uint32_t)rate;
  return 1;
}

static int on_speech(const short *pcm, unsigned int n, void *user) {
  (void)user;
  if (!heard) {
    unsigned int quiet = 0;
    while (quiet < n && abs(pcm[quiet]) <= LEADING_SILENCE) quiet++;
    pcm += quiet;
    n -= quiet;
    heard = n > 0;
  }
  if (n > 0 && fwrite(pcm, sizeof(short), n, wav) != n) { failed = 1; return 0; }
  samples += n;
  return 1;
}

static int on_word(unsigned int position, unsigned int length, void *user) {
  (void)user;
  if (word_count == word_cap) {
    word_t *bigger = realloc(words, (word_cap = word_cap ? word_cap * 2 : 256) * sizeof *words);
    if (!bigger) { failed = 1; return 0; }
    words = bigger;
  }
  words[word_count++] = (word_t){samples, position, length};
  return 1;
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

/* RHVoice reports positions and lengths in bytes of the UTF-8 text: the code points in `count` bytes from `from`. */
static unsigned code_points(const char *text, size_t size, size_t from, size_t count) {
  unsigned n = 0;
  for (size_t i = from; i < from + count && i < size; i++) n += ((unsigned char)text[i] & 0xc0) != 0x80;
  return n;
}

/* The installed voice named `name` (any case), by RHVoice's own spelling of it ("aleksandr" → "Aleksandr"). */
static const char *installed_voice(RHVoice_tts_engine engine, const char *name) {
  const RHVoice_voice_info *voices = RHVoice_get_voices(engine);
  for (unsigned i = 0; i < RHVoice_get_number_of_voices(engine); i++) {
    if (strcasecmp(voices[i].name, name) == 0) return voices[i].name;
  }
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 4) { fprintf(stderr, "usage: %s <voice> <rate> <out.wav> < text\n", argv[0]); return 2; }
  size_t size;
  char *text = read_all(stdin, &size);
  if (!text) { fprintf(stderr, "cannot read stdin\n"); return 4; }
  RHVoice_init_params init;
  memset(&init, 0, sizeof init);
  init.callbacks.set_sample_rate = on_rate;
  init.callbacks.play_speech = on_speech;
  init.callbacks.word_starts = on_word;
  RHVoice_tts_engine engine = RHVoice_new_tts_engine(&init);
  if (!engine) { fprintf(stderr, "RHVoice cannot start\n"); return 5; }
  const char *voice = installed_voice(engine, argv[1]);
  if (!voice) { fprintf(stderr, "voice not found: %s\n", argv[1]); return 3; }
  RHVoice_synth_params params;
  memset(&params, 0, sizeof params);
  params.voice_profile = voice;
  params.relative_rate = atof(argv[2]);
  params.relative_pitch = 1;
  params.relative_volume = 1;
  params.punctuation_mode = RHVoice_punctuation_none;
  params.capitals_mode = RHVoice_capitals_off;
  wav = fopen(argv[3], "wb");
  if (!wav || !write_header(0, 0)) { fprintf(stderr, "cannot write %s\n", argv[3]); return 4; }
  static char wav_buffer[1 << 16];
  setvbuf(wav, wav_buffer, _IOFBF, sizeof wav_buffer);
  RHVoice_message message = RHVoice_new_message(engine, text, (unsigned)size, RHVoice_message_text, &params, NULL);
  if (!message || !RHVoice_speak(message) || failed || sample_rate == 0) { fprintf(stderr, "synthesis failed\n"); return 5; }
  if (!write_header(sample_rate, samples) || fclose(wav) != 0) { fprintf(stderr, "cannot write %s\n", argv[3]); return 4; }
  for (size_t i = 0; i < word_count; i++) {
    unsigned pos = code_points(text, size, 0, words[i].pos), len = code_points(text, size, words[i].pos, words[i].len);
    printf("{\"start\":%d,\"pos\":%u,\"len\":%u}\n", (int)((words[i].at * 1000.0) / sample_rate + 0.5), pos + 1, len);
  }
  printf("{\"samples\":%u,\"rate\":%u}\n", samples, sample_rate);
  RHVoice_delete_message(message);
  RHVoice_delete_tts_engine(engine);
  free(words);
  free(text);
  return 0;
}
