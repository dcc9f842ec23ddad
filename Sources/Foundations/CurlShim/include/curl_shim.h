#ifndef VOCAB_CURL_SHIM_H
#define VOCAB_CURL_SHIM_H
#include <curl/curl.h>
#include <stddef.h>

/* libcurl (and the TLS, Kerberos and LDAP libraries it pulls in) is loaded on first use,
   not at process start, so commands that never go online start fast. curl_easy_setopt and
   curl_easy_getinfo are variadic, which Swift cannot call: typed wrappers live here too. */

int vocab_curl_available(void);
const char *vocab_curl_load_error(void);

typedef size_t (*vocab_curl_write_cb)(char *data, size_t size, size_t nmemb, void *userdata);

CURL *vocab_curl_easy_init(void);
void vocab_curl_easy_cleanup(CURL *curl);
CURLcode vocab_curl_easy_perform(CURL *curl);
const char *vocab_curl_easy_strerror(CURLcode code);
struct curl_slist *vocab_curl_slist_append(struct curl_slist *list, const char *string);
void vocab_curl_slist_free_all(struct curl_slist *list);

CURLcode vocab_curl_setopt_long(CURL *curl, CURLoption option, long value);
CURLcode vocab_curl_setopt_string(CURL *curl, CURLoption option, const char *value);
CURLcode vocab_curl_setopt_pointer(CURL *curl, CURLoption option, void *value);
CURLcode vocab_curl_setopt_write_function(CURL *curl, CURLoption option, vocab_curl_write_cb callback);
CURLcode vocab_curl_setopt_off_t(CURL *curl, CURLoption option, long long value);
CURLcode vocab_curl_getinfo_long(CURL *curl, CURLINFO info, long *value);
CURLcode vocab_curl_getinfo_string(CURL *curl, CURLINFO info, const char **value);
#endif
