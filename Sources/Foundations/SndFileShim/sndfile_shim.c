#include "sndfile_shim.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static void *library;
static char load_error[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static SNDFILE *(*p_open)(const char *, int, SF_INFO *);
static SNDFILE *(*p_open_fd)(int, int, SF_INFO *, int);
static int (*p_close)(SNDFILE *);
static sf_count_t (*p_readf_float)(SNDFILE *, float *, sf_count_t);
static sf_count_t (*p_writef_float)(SNDFILE *, const float *, sf_count_t);
static const char *(*p_strerror)(SNDFILE *);

static void load(void) {
    library = dlopen("libsndfile.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "%s (install libsndfile1)", dlerror());
        return;
    }
    p_open = dlsym(library, "sf_open");
    p_open_fd = dlsym(library, "sf_open_fd");
    p_close = dlsym(library, "sf_close");
    p_readf_float = dlsym(library, "sf_readf_float");
    p_writef_float = dlsym(library, "sf_writef_float");
    p_strerror = dlsym(library, "sf_strerror");
    if (!p_open || !p_open_fd || !p_close || !p_readf_float || !p_writef_float || !p_strerror) {
        snprintf(load_error, sizeof load_error, "libsndfile.so.1 lacks an expected function");
        library = NULL;
    }
}

int vocab_sndfile_available(void) { pthread_once(&once, load); return library != NULL; }
const char *vocab_sndfile_load_error(void) { pthread_once(&once, load); return load_error; }

SNDFILE *vocab_sf_open(const char *path, int mode, SF_INFO *info) { return vocab_sndfile_available() ? p_open(path, mode, info) : NULL; }
SNDFILE *vocab_sf_open_fd(int fd, int mode, SF_INFO *info, int close_desc) { return vocab_sndfile_available() ? p_open_fd(fd, mode, info, close_desc) : NULL; }
int vocab_sf_close(SNDFILE *file) { return vocab_sndfile_available() ? p_close(file) : 0; }
sf_count_t vocab_sf_readf_float(SNDFILE *file, float *ptr, sf_count_t frames) { return vocab_sndfile_available() ? p_readf_float(file, ptr, frames) : 0; }
sf_count_t vocab_sf_writef_float(SNDFILE *file, const float *ptr, sf_count_t frames) { return vocab_sndfile_available() ? p_writef_float(file, ptr, frames) : 0; }
const char *vocab_sf_strerror(SNDFILE *file) { return vocab_sndfile_available() ? p_strerror(file) : load_error; }
