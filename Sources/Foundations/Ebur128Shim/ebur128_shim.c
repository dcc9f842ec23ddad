#include "ebur128_shim.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static void *library;
static char load_error[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t name_lock = PTHREAD_MUTEX_INITIALIZER;
static char soname[256] = "libebur128.so.1";
static int attempted;

static void (*p_get_version)(int *, int *, int *);
static ebur128_state *(*p_init)(unsigned int, unsigned long, int);
static void (*p_destroy)(ebur128_state **);
static int (*p_add_frames_float)(ebur128_state *, const float *, size_t);
static int (*p_loudness_global)(ebur128_state *, double *);
static int (*p_sample_peak)(ebur128_state *, unsigned int, double *);
static int (*p_true_peak)(ebur128_state *, unsigned int, double *);
static int (*p_loudness_window)(ebur128_state *, unsigned long, double *);

static void load(void) {
    char name[sizeof soname];
    pthread_mutex_lock(&name_lock);
    attempted = 1;
    memcpy(name, soname, sizeof name);
    pthread_mutex_unlock(&name_lock);

    library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "%s (install libebur128-1)", dlerror());
        return;
    }
    p_get_version = dlsym(library, "ebur128_get_version");
    p_init = dlsym(library, "ebur128_init");
    p_destroy = dlsym(library, "ebur128_destroy");
    p_add_frames_float = dlsym(library, "ebur128_add_frames_float");
    p_loudness_global = dlsym(library, "ebur128_loudness_global");
    p_sample_peak = dlsym(library, "ebur128_sample_peak");
    p_true_peak = dlsym(library, "ebur128_true_peak");
    p_loudness_window = dlsym(library, "ebur128_loudness_window");
    if (!p_get_version || !p_init || !p_destroy || !p_add_frames_float || !p_loudness_global || !p_sample_peak || !p_true_peak
        || !p_loudness_window) {
        snprintf(load_error, sizeof load_error, "%s lacks an expected function (need libebur128 1.2 or later)", name);
        library = NULL;
    }
}

int vocab_ebur128_available(void) { pthread_once(&once, load); return library != NULL; }
const char *vocab_ebur128_load_error(void) { pthread_once(&once, load); return load_error; }

int vocab_ebur128_load_attempted(void) {
    pthread_mutex_lock(&name_lock);
    int result = attempted;
    pthread_mutex_unlock(&name_lock);
    return result;
}

int vocab_ebur128_use_library(const char *name) {
    pthread_mutex_lock(&name_lock);
    int ok = !attempted && name && strlen(name) < sizeof soname;
    if (ok) snprintf(soname, sizeof soname, "%s", name);
    pthread_mutex_unlock(&name_lock);
    return ok;
}

void vocab_ebur128_version(int *major, int *minor, int *patch) {
    if (vocab_ebur128_available()) { p_get_version(major, minor, patch); return; }
    *major = *minor = *patch = 0;
}

ebur128_state *vocab_ebur128_init(unsigned int channels, unsigned long samplerate, int mode) { return vocab_ebur128_available() ? p_init(channels, samplerate, mode) : NULL; }
void vocab_ebur128_destroy(ebur128_state **state) { if (vocab_ebur128_available()) p_destroy(state); }
int vocab_ebur128_add_frames_float(ebur128_state *state, const float *src, size_t frames) { return vocab_ebur128_available() ? p_add_frames_float(state, src, frames) : EBUR128_ERROR_NOMEM; }
int vocab_ebur128_loudness_global(ebur128_state *state, double *out) { return vocab_ebur128_available() ? p_loudness_global(state, out) : EBUR128_ERROR_INVALID_MODE; }
int vocab_ebur128_sample_peak(ebur128_state *state, unsigned int channel, double *out) { return vocab_ebur128_available() ? p_sample_peak(state, channel, out) : EBUR128_ERROR_INVALID_MODE; }
int vocab_ebur128_true_peak(ebur128_state *state, unsigned int channel, double *out) { return vocab_ebur128_available() ? p_true_peak(state, channel, out) : EBUR128_ERROR_INVALID_MODE; }
int vocab_ebur128_loudness_window(ebur128_state *state, unsigned long window, double *out) { return vocab_ebur128_available() ? p_loudness_window(state, window, out) : EBUR128_ERROR_INVALID_MODE; }
