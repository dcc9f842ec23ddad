/// The program the neural voice's Python process runs (`python3 -I -c <script>`), kept in the
/// binary so the two ends of the pipe always come from the same build.
///
/// It loads hibari's model once (each accent's spelling-to-sound converter on first use), says `ready`, then
/// answers one request per line: `{"text", "british", "speed"}` in, a JSON header line
/// (`ok`, `count`, `rate`, `phonemes`) and `count` little-endian float32 samples out, or
/// `{"ok": false, "error"}`. Every request starts from the same seed, so the same text gives
/// the same samples whatever came before (hibari's noise branch draws from it).
///
/// A word or phrase without final punctuation is spoken as a statement ("cat" as "cat."): with
/// the falling tone a teacher gives a word, an offline recogniser understood 97 of 120 catalog
/// words instead of 90 (a slower pace understood 87).
///
/// British: hibari's British lexicon writes four symbols the voice was never trained on; they
/// are mapped to the nearest ones it knows (ɒ→ɔ, Q→O, ː dropped, a→æ), which an offline
/// recogniser understands 79 % of the time instead of 57 % unmapped
/// (`../shared/reference/natural-voice.md`).
enum NeuralWorkerScript {
    static let source = #"""
        import json, sys
        out = sys.stdout.buffer

        def send(header, payload=b""):
            out.write(json.dumps(header, ensure_ascii=False).encode("utf-8") + b"\n")
            if payload:
                out.write(payload)
            out.flush()

        try:
            import numpy as np
            import hibari
            from hibari import Hibari
            from hibari.g2p import G2P
            tts = Hibari(threads=1)
            tts.from_phonemes("wˈɔɹm", seed=0)
        except Exception as error:
            send({"ready": False, "error": "%s: %s" % (type(error).__name__, error)})
            sys.exit(3)

        BRITISH = str.maketrans({"ɒ": "ɔ", "Q": "O", "ː": None, "a": "æ"})
        converters = {}

        def converter(british):
            # Each spelling-to-sound converter takes about 0.4 s to load: only the accents asked for.
            if british not in converters:
                converters[british] = G2P(british=True) if british else tts.g2p
            return converters[british]
        LIMIT = 400

        def chunks(text, british):
            text = text.strip()
            if text and text[-1] not in ".!?…":
                text += "."
            result = []
            for sentence in Hibari.split_sentences(text):
                phonemes = converter(british)(sentence)
                if british:
                    phonemes = phonemes.translate(BRITISH)
                phonemes = phonemes.strip()
                while len(phonemes) > LIMIT:
                    cut = max(phonemes.rfind(" ", 0, LIMIT), 1)
                    result.append(phonemes[:cut].strip())
                    phonemes = phonemes[cut:].strip()
                if phonemes:
                    result.append(phonemes)
            return result

        send({"ready": True, "version": hibari.__version__, "rate": tts.sample_rate})
        for line in sys.stdin.buffer:
            try:
                request = json.loads(line)
                parts = chunks(request["text"], bool(request.get("british")))
                if not parts:
                    send({"ok": False, "nothing": True, "error": "no sounds to speak in %r" % request["text"]})
                    continue
                rng = np.random.default_rng(0)
                speed = float(request.get("speed", 1.0))
                audio = [tts.from_ids(tts.ids(p), speed, rng) for p in parts]
                samples = np.concatenate(audio).astype("<f4")
                if samples.size == 0:
                    send({"ok": False, "error": "no audio for %r" % request["text"]})
                    continue
                send({"ok": True, "count": int(samples.size), "rate": tts.sample_rate, "phonemes": " ".join(parts)}, samples.tobytes())
            except Exception as error:
                send({"ok": False, "error": "%s: %s" % (type(error).__name__, error)})
        """#
}
