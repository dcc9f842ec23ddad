#include "pcm_kernels.h"

void vocab_pcm16_from_float(const float *samples, int16_t *out, size_t count) {
    for (size_t i = 0; i < count; i++) {
        float x = samples[i];
        /* The clip and the rounding of vocab's earlier per-sample Swift code, step for step
         * (min(1, max(-1, x)) * 32767, then ± 0.5 and truncation), so the same bytes. */
        float y = (x >= -1.0f ? x : -1.0f);
        y = (y < 1.0f ? y : 1.0f) * 32767.0f;
        out[i] = (int16_t)(int32_t)(y + (y >= 0.0f ? 0.5f : -0.5f));
    }
}

size_t vocab_best_match(const float *region, size_t positions, const float *target, size_t n) {
    size_t best = 0;
    double best_sum = 0;
    for (size_t at = 0; at < positions; at++) {
        const float *x = region + at;
        float sum = 0;
        for (size_t i = 0; i < n; i++) sum += x[i] * target[i];
        if (at == 0 || sum > best_sum) {
            best = at;
            best_sum = sum;
        }
    }
    return best;
}
