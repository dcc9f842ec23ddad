#ifndef VOCAB_CURL_SHIM_H
#define VOCAB_CURL_SHIM_H
#include <curl/curl.h>
#include <stddef.h>

/* curl_easy_setopt and curl_easy_getinfo are variadic; Swift can only call typed functions. */
typedef size_t (*vocab_curl_write_cb)(char *data, size_t size, size_t nmemb, void *userdata);

CURLcode vocab_curl_setopt_long(CURL *curl, CURLoption option, long value);
CURLcode vocab_curl_setopt_string(CURL *curl, CURLoption option, const char *value);
CURLcode vocab_curl_setopt_pointer(CURL *curl, CURLoption option, void *value);
CURLcode vocab_curl_setopt_write_function(CURL *curl, CURLoption option, vocab_curl_write_cb callback);
CURLcode vocab_curl_setopt_off_t(CURL *curl, CURLoption option, long long value);
CURLcode vocab_curl_getinfo_long(CURL *curl, CURLINFO info, long *value);
CURLcode vocab_curl_getinfo_string(CURL *curl, CURLINFO info, const char **value);
#endif
