#include "opus_shim.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// Loaded at run time, like libsndfile and libespeak-ng: only a command that decodes WebM needs it.
static void *library;
static char load_error[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void *(*p_create)(int, int, int *);
static int (*p_decode_float)(void *, const unsigned char *, int, float *, int, int);
static void (*p_destroy)(void *);

static void load(void) {
    library = dlopen("libopus.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "%s (install libopus0)", dlerror());
        return;
    }
    p_create = dlsym(library, "opus_decoder_create");
    p_decode_float = dlsym(library, "opus_decode_float");
    p_destroy = dlsym(library, "opus_decoder_destroy");
    if (!p_create || !p_decode_float || !p_destroy) {
        snprintf(load_error, sizeof load_error, "libopus.so.0 lacks an expected function");
        library = NULL;
    }
}

int vocab_opus_available(void) { pthread_once(&once, load); return library != NULL; }
const char *vocab_opus_load_error(void) { pthread_once(&once, load); return load_error; }

void *vocab_opus_decoder_create(int rate, int channels, int *error) {
    if (!vocab_opus_available()) { *error = -1; return NULL; }
    return p_create(rate, channels, error);
}

int vocab_opus_decode_float(void *decoder, const unsigned char *data, int length, float *pcm, int frames) {
    return vocab_opus_available() ? p_decode_float(decoder, data, length, pcm, frames, 0) : -1;
}

void vocab_opus_decoder_destroy(void *decoder) {
    if (decoder && vocab_opus_available()) p_destroy(decoder);
}
