#ifndef VOCAB_PCM_KERNELS_H
#define VOCAB_PCM_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/* Finite float samples to 16-bit PCM in host byte order: clipped to [-1, 1], scaled by 32767
 * and rounded half away from zero. In C because the compiler turns this loop into vector
 * instructions, which Swift's conversions from float to integer (checked, per element) do not
 * allow. */
void vocab_pcm16_from_float(const float *samples, int16_t *out, size_t count);

/* `count` samples made 1/`speed` times as long at the same pitch, by a phase vocoder with
 * identity phase locking (Laroche and Dolson): Hann frames of `n` samples (a power of two) taken
 * `hop` * `speed` apart and laid down `hop` apart, each bin's phase advanced with its peak's so
 * a voice's harmonics stay together. Writes round(count / speed) samples, at most `capacity`, to
 * `out` and returns how many (0 for nothing to do, or no memory). In C for its FFTs, run for every
 * frame of a slowed clip, debug builds included. */
size_t vocab_phase_vocoder(const float *samples, size_t count, double speed, size_t n, size_t hop, float *out, size_t capacity);

#endif
