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
