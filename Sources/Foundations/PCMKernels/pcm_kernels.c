#include "pcm_kernels.h"

#include <math.h>
#include <stdlib.h>

static const double pi = 3.14159265358979323846;

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

/* An in-place radix-2 FFT of `n` complex values (a power of two); `inverse` without the 1/n. */
static void fft(double *re, double *im, size_t n, int inverse) {
    for (size_t i = 1, j = 0; i < n; i++) {
        size_t bit = n >> 1;
        for (; j & bit; bit >>= 1) j ^= bit;
        j ^= bit;
        if (i < j) {
            double t = re[i]; re[i] = re[j]; re[j] = t;
            t = im[i]; im[i] = im[j]; im[j] = t;
        }
    }
    for (size_t length = 2; length <= n; length <<= 1) {
        double angle = (inverse ? 2 : -2) * pi / (double)length;
        double wr = cos(angle), wi = sin(angle);
        for (size_t start = 0; start < n; start += length) {
            double cr = 1, ci = 0;
            for (size_t k = 0; k < length / 2; k++) {
                size_t a = start + k, b = a + length / 2;
                double tr = re[b] * cr - im[b] * ci, ti = re[b] * ci + im[b] * cr;
                re[b] = re[a] - tr; im[b] = im[a] - ti;
                re[a] += tr; im[a] += ti;
                double next = cr * wr - ci * wi;
                ci = cr * wi + ci * wr;
                cr = next;
            }
        }
    }
}

size_t vocab_phase_vocoder(const float *samples, size_t count, double speed, size_t n, size_t hop, float *out, size_t capacity) {
    if (count == 0 || speed <= 0 || n < 16 || (n & (n - 1)) != 0 || hop == 0) return 0;
    size_t bins = n / 2 + 1;
    double analysis = (double)hop * speed;
    size_t padded = n + count + n + 2;
    size_t frames = (size_t)((double)(padded - n - 1) / analysis);
    if (frames == 0) return 0;
    size_t length = frames * hop + n;
    double *x = calloc(padded, sizeof(double)), *window = malloc(n * sizeof(double));
    double *re = malloc(n * sizeof(double)), *im = malloc(n * sizeof(double));
    double *magnitude = malloc(bins * sizeof(double)), *measured = malloc(bins * sizeof(double));
    double *previous = malloc(bins * sizeof(double)), *phase = malloc(bins * sizeof(double)), *advanced = malloc(bins * sizeof(double));
    size_t *peaks = malloc(bins * sizeof(size_t));
    double *y = calloc(length, sizeof(double)), *weight = calloc(length, sizeof(double));
    size_t written = 0;
    if (!x || !window || !re || !im || !magnitude || !measured || !previous || !phase || !advanced || !peaks || !y || !weight) goto done;
    for (size_t i = 0; i < count; i++) x[n + i] = samples[i];
    for (size_t i = 0; i < n; i++) window[i] = 0.5 - 0.5 * cos(2 * pi * (double)i / (double)(n - 1));
    for (size_t k = 0; k < frames; k++) {
        double position = (double)k * analysis;
        size_t at = (size_t)position;
        double fraction = position - (double)at;
        for (size_t i = 0; i < n; i++) {
            re[i] = ((1 - fraction) * x[at + i] + fraction * x[at + i + 1]) * window[i];
            im[i] = 0;
        }
        fft(re, im, n, 0);
        for (size_t b = 0; b < bins; b++) {
            magnitude[b] = hypot(re[b], im[b]);
            measured[b] = atan2(im[b], re[b]);
        }
        if (k == 0) {
            for (size_t b = 0; b < bins; b++) phase[b] = measured[b];
        } else {
            for (size_t b = 0; b < bins; b++) {
                double omega = 2 * pi * (double)b / (double)n;
                double change = measured[b] - previous[b] - omega * analysis;
                change -= 2 * pi * round(change / (2 * pi));
                advanced[b] = phase[b] + (omega + change / analysis) * (double)hop;
            }
            size_t found = 0;
            for (size_t b = 1; b + 1 < bins; b++) {
                if (magnitude[b] > magnitude[b - 1] && magnitude[b] >= magnitude[b + 1]) peaks[found++] = b;
            }
            if (found == 0) {
                for (size_t b = 0; b < bins; b++) phase[b] = advanced[b];
            } else {
                /* Each bin follows its nearest peak, the boundaries half-way between two peaks. */
                size_t owner = 0;
                for (size_t b = 0; b < bins; b++) {
                    while (owner + 1 < found && b >= (peaks[owner] + peaks[owner + 1]) / 2 + 1) owner++;
                    size_t p = peaks[owner];
                    phase[b] = advanced[p] + measured[b] - measured[p];
                }
            }
        }
        for (size_t b = 0; b < bins; b++) previous[b] = measured[b];
        for (size_t b = 0; b < bins; b++) {
            re[b] = magnitude[b] * cos(phase[b]);
            im[b] = magnitude[b] * sin(phase[b]);
        }
        for (size_t b = 1; b < n / 2; b++) {
            re[n - b] = re[b];
            im[n - b] = -im[b];
        }
        fft(re, im, n, 1);
        for (size_t i = 0; i < n; i++) {
            y[k * hop + i] += re[i] / (double)n * window[i];
            weight[k * hop + i] += window[i] * window[i];
        }
    }
    size_t start = (size_t)((double)n / speed);
    size_t wanted = (size_t)llround((double)count / speed);
    for (size_t i = 0; i < wanted && start + i < length && i < capacity; i++, written++) {
        double w = weight[start + i] > 1e-3 ? weight[start + i] : 1e-3;
        out[i] = (float)(y[start + i] / w);
    }
done:
    free(x), free(window), free(re), free(im), free(magnitude), free(measured), free(previous), free(phase), free(advanced), free(peaks), free(y), free(weight);
    return written;
}
