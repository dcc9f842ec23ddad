#include "curl_shim.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static void *library;
static char load_error[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static CURLcode (*p_global_init)(long);
static CURL *(*p_easy_init)(void);
static void (*p_easy_cleanup)(CURL *);
static CURLcode (*p_easy_perform)(CURL *);
static const char *(*p_easy_strerror)(CURLcode);
static struct curl_slist *(*p_slist_append)(struct curl_slist *, const char *);
static void (*p_slist_free_all)(struct curl_slist *);
static CURLcode (*p_setopt)(CURL *, CURLoption, ...);
static CURLcode (*p_getinfo)(CURL *, CURLINFO, ...);

static void load(void) {
    library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "%s (install libcurl4)", dlerror());
        return;
    }
    p_global_init = dlsym(library, "curl_global_init");
    p_easy_init = dlsym(library, "curl_easy_init");
    p_easy_cleanup = dlsym(library, "curl_easy_cleanup");
    p_easy_perform = dlsym(library, "curl_easy_perform");
    p_easy_strerror = dlsym(library, "curl_easy_strerror");
    p_slist_append = dlsym(library, "curl_slist_append");
    p_slist_free_all = dlsym(library, "curl_slist_free_all");
    p_setopt = dlsym(library, "curl_easy_setopt");
    p_getinfo = dlsym(library, "curl_easy_getinfo");
    if (!p_global_init || !p_easy_init || !p_easy_cleanup || !p_easy_perform || !p_easy_strerror || !p_slist_append
        || !p_slist_free_all || !p_setopt || !p_getinfo) {
        snprintf(load_error, sizeof load_error, "libcurl.so.4 lacks an expected function");
        library = NULL;
        return;
    }
    /* Not thread-safe in libcurl, hence here, inside pthread_once. */
    p_global_init(CURL_GLOBAL_DEFAULT);
}

int vocab_curl_available(void) { pthread_once(&once, load); return library != NULL; }
const char *vocab_curl_load_error(void) { pthread_once(&once, load); return load_error; }

CURL *vocab_curl_easy_init(void) { return vocab_curl_available() ? p_easy_init() : NULL; }
void vocab_curl_easy_cleanup(CURL *curl) { if (vocab_curl_available()) p_easy_cleanup(curl); }
CURLcode vocab_curl_easy_perform(CURL *curl) { return vocab_curl_available() ? p_easy_perform(curl) : CURLE_FAILED_INIT; }
const char *vocab_curl_easy_strerror(CURLcode code) { return vocab_curl_available() ? p_easy_strerror(code) : load_error; }
struct curl_slist *vocab_curl_slist_append(struct curl_slist *list, const char *string) {
    return vocab_curl_available() ? p_slist_append(list, string) : NULL;
}
void vocab_curl_slist_free_all(struct curl_slist *list) { if (vocab_curl_available() && list) p_slist_free_all(list); }

CURLcode vocab_curl_setopt_long(CURL *curl, CURLoption option, long value) { return p_setopt(curl, option, value); }
CURLcode vocab_curl_setopt_string(CURL *curl, CURLoption option, const char *value) { return p_setopt(curl, option, value); }
CURLcode vocab_curl_setopt_pointer(CURL *curl, CURLoption option, void *value) { return p_setopt(curl, option, value); }
CURLcode vocab_curl_setopt_write_function(CURL *curl, CURLoption option, vocab_curl_write_cb callback) { return p_setopt(curl, option, callback); }
CURLcode vocab_curl_setopt_off_t(CURL *curl, CURLoption option, long long value) { return p_setopt(curl, option, (curl_off_t)value); }
CURLcode vocab_curl_getinfo_long(CURL *curl, CURLINFO info, long *value) { return p_getinfo(curl, info, value); }
CURLcode vocab_curl_getinfo_string(CURL *curl, CURLINFO info, const char **value) { return p_getinfo(curl, info, value); }
