#ifndef VOCAB_OPUS_SHIM_H
#define VOCAB_OPUS_SHIM_H

/// libopus, loaded when first used (dlopen of libopus.so.0): Opus packets, as a browser's
/// MediaRecorder puts them in WebM, decoded to float samples. Only the three calls vocab needs.
int vocab_opus_available(void);
const char *vocab_opus_load_error(void);
/// A decoder for `rate` (48000) and `channels`; NULL with `*error` set when it cannot be made.
void *vocab_opus_decoder_create(int rate, int channels, int *error);
/// Decodes one packet into at most `frames` frames of interleaved samples; the frames made, or a
/// negative libopus error.
int vocab_opus_decode_float(void *decoder, const unsigned char *data, int length, float *pcm, int frames);
void vocab_opus_decoder_destroy(void *decoder);

#endif
