#ifndef VOCAB_PCM_KERNELS_H
#define VOCAB_PCM_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/* Finite float samples to 16-bit PCM in host byte order: clipped to [-1, 1], scaled by 32767
 * and rounded half away from zero. In C because the compiler turns this loop into vector
 * instructions, which Swift's conversions from float to integer (checked, per element) do not
 * allow. */
void vocab_pcm16_from_float(const float *samples, int16_t *out, size_t count);

/* The offset, among `positions`, at which `n` samples of `region` best match `target` (the
 * largest dot product; the first such on a tie). In C for the same reason: it is the inner loop
 * of a time stretch, run for every frame of a slowed clip, debug builds included. */
size_t vocab_best_match(const float *region, size_t positions, const float *target, size_t n);

#endif
