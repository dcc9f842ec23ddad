#include "curl_shim.h"

CURLcode vocab_curl_setopt_long(CURL *curl, CURLoption option, long value) { return curl_easy_setopt(curl, option, value); }
CURLcode vocab_curl_setopt_string(CURL *curl, CURLoption option, const char *value) { return curl_easy_setopt(curl, option, value); }
CURLcode vocab_curl_setopt_pointer(CURL *curl, CURLoption option, void *value) { return curl_easy_setopt(curl, option, value); }
CURLcode vocab_curl_setopt_write_function(CURL *curl, CURLoption option, vocab_curl_write_cb callback) { return curl_easy_setopt(curl, option, callback); }
CURLcode vocab_curl_setopt_off_t(CURL *curl, CURLoption option, long long value) { return curl_easy_setopt(curl, option, (curl_off_t)value); }
CURLcode vocab_curl_getinfo_long(CURL *curl, CURLINFO info, long *value) { return curl_easy_getinfo(curl, info, value); }
CURLcode vocab_curl_getinfo_string(CURL *curl, CURLINFO info, const char **value) { return curl_easy_getinfo(curl, info, value); }
