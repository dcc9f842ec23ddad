#ifndef VOCAB_EBUR128_SHIM_H
#define VOCAB_EBUR128_SHIM_H
#include <ebur128.h>

/* libebur128 is loaded on first use (dlopen), like libsndfile: only clip processing and
   import validation measure loudness, and catalog commands should not map it at start-up. */

/* Non-zero when the library could be loaded; otherwise vocab_ebur128_load_error() says why.
   The first call of any function here performs the load, once per process. */
int vocab_ebur128_available(void);
const char *vocab_ebur128_load_error(void);

/* Non-zero once a load has been attempted; never triggers one (lets tests see laziness). */
int vocab_ebur128_load_attempted(void);

/* Names the library to dlopen instead of libebur128.so.1. Only effective before the first
   load; returns 0 when too late. Exists so a test can see the failure path in a fresh process. */
int vocab_ebur128_use_library(const char *soname);

/* The library's own version, or zeros when it is unavailable. */
void vocab_ebur128_version(int *major, int *minor, int *patch);

ebur128_state *vocab_ebur128_init(unsigned int channels, unsigned long samplerate, int mode);
void vocab_ebur128_destroy(ebur128_state **state);
int vocab_ebur128_add_frames_float(ebur128_state *state, const float *src, size_t frames);
int vocab_ebur128_loudness_global(ebur128_state *state, double *out);
int vocab_ebur128_sample_peak(ebur128_state *state, unsigned int channel, double *out);
int vocab_ebur128_true_peak(ebur128_state *state, unsigned int channel, double *out);
/* The loudness of the last `window` ms fed (ungated); at most 400 ms in mode M, 3 s in mode S. */
int vocab_ebur128_loudness_window(ebur128_state *state, unsigned long window, double *out);
#endif
