#ifndef VOCAB_SNDFILE_SHIM_H
#define VOCAB_SNDFILE_SHIM_H
#include <sndfile.h>

/* libsndfile is loaded on first use (dlopen), not at process start: the catalog commands
   never touch audio and should not pay for mapping libsndfile and its codecs. */

/* Non-zero when libsndfile.so.1 could be loaded; otherwise vocab_sndfile_load_error() says why. */
int vocab_sndfile_available(void);
const char *vocab_sndfile_load_error(void);

SNDFILE *vocab_sf_open(const char *path, int mode, SF_INFO *info);
/* Reads from a descriptor the caller opened (and checked is a regular file); closes it when close_desc. */
SNDFILE *vocab_sf_open_fd(int fd, int mode, SF_INFO *info, int close_desc);
int vocab_sf_close(SNDFILE *file);
sf_count_t vocab_sf_readf_float(SNDFILE *file, float *ptr, sf_count_t frames);
sf_count_t vocab_sf_writef_float(SNDFILE *file, const float *ptr, sf_count_t frames);
const char *vocab_sf_strerror(SNDFILE *file);
#endif
