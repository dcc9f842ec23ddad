#ifndef VOCAB_PCM_KERNELS_H
#define VOCAB_PCM_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/* Finite float samples to 16-bit PCM in host byte order: clipped to [-1, 1], scaled by 32767
 * and rounded half away from zero. In C because the compiler turns this loop into vector
 * instructions, which Swift's conversions from float to integer (checked, per element) do not
 * allow. */
void vocab_pcm16_from_float(const float *samples, int16_t *out, size_t count);

#endif
