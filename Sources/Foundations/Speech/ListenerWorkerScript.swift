/// The program the listener's Python process runs (`python3 -I -c <script>`), kept in the binary
/// so the two ends of the pipe always come from the same build.
///
/// It loads hama's phoneme recogniser once (a CTC model: for each 20 ms of sound, how likely
/// each phone is), says `ready` with the recogniser's phones, then answers one request per line:
/// `{"count", "rate"}` followed by `count` little-endian float32 mono samples in, a header
/// (`ok`, `frames`, `phones`) and `frames` × `phones` float32 log-probabilities out, or
/// `{"ok": false, "error"}`. What the log-probabilities mean for a word is decided in Swift
/// (`PronunciationJudge`): this program only runs the model.
enum ListenerWorkerScript {
    static let source = #"""
        import json, sys
        out = sys.stdout.buffer
        inp = sys.stdin.buffer

        def send(header, payload=b""):
            out.write(json.dumps(header, ensure_ascii=False).encode("utf-8") + b"\n")
            if payload:
                out.write(payload)
            out.flush()

        try:
            import numpy as np
            import hama
            from hama import asr
            model = hama.ASRModel()
            names = (model._waveform_input_name, model._waveform_lengths_input_name)
            outputs = [model._log_probs_output_name, model._out_lengths_output_name]
            def run(samples, rate):
                if rate != model.model_sample_rate:
                    samples = asr._resample_linear(samples, rate, model.model_sample_rate)
                wav = samples.reshape(1, -1).astype(np.float32, copy=False)
                log_probs, lengths = model.session.run(outputs, {names[0]: wav, names[1]: np.array([wav.shape[1]], dtype=np.int64)})
                valid = int(np.asarray(lengths).reshape(-1)[0])
                return np.ascontiguousarray(np.asarray(log_probs[0][:valid], dtype="<f4"))
            run(np.zeros(8000, dtype=np.float32), 16000)
        except Exception as error:
            send({"ready": False, "error": "%s: %s" % (type(error).__name__, error)})
            sys.exit(3)

        send({"ready": True, "version": getattr(hama, "__version__", "?"), "phones": model.decoder_tokens,
              "blank": model.blank_id, "rate": model.model_sample_rate})
        while True:
            line = inp.readline()
            if not line:
                break
            try:
                request = json.loads(line)
                count = int(request["count"])
                data = inp.read(count * 4)
                if len(data) != count * 4:
                    break
                samples = np.frombuffer(data, dtype="<f4").astype(np.float32)
                lattice = run(samples, int(request["rate"]))
                send({"ok": True, "frames": int(lattice.shape[0]), "phones": int(lattice.shape[1])}, lattice.tobytes())
            except Exception as error:
                send({"ok": False, "error": "%s: %s" % (type(error).__name__, error)})
        """#
}
