#ifndef CHOOSY_CCURL_SHIM_H
#define CHOOSY_CCURL_SHIM_H

#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call. These typed
// wrappers take the function pointer resolved with dlsym, so nothing here links libcurl.
typedef CURLcode (*choosy_curl_setopt_fn)(CURL *, CURLoption, ...);
typedef CURLcode (*choosy_curl_getinfo_fn)(CURL *, CURLINFO, ...);

typedef size_t (*choosy_curl_data_callback)(char *, size_t, size_t, void *);
typedef int (*choosy_curl_progress_callback)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t);

static inline CURLcode choosy_curl_setopt_long(void *fn, CURL *handle, CURLoption option, long value) {
    return ((choosy_curl_setopt_fn)fn)(handle, option, value);
}

static inline CURLcode choosy_curl_setopt_offset(void *fn, CURL *handle, CURLoption option, curl_off_t value) {
    return ((choosy_curl_setopt_fn)fn)(handle, option, value);
}

static inline CURLcode choosy_curl_setopt_string(void *fn, CURL *handle, CURLoption option, const char *value) {
    return ((choosy_curl_setopt_fn)fn)(handle, option, value);
}

static inline CURLcode choosy_curl_setopt_pointer(void *fn, CURL *handle, CURLoption option, void *value) {
    return ((choosy_curl_setopt_fn)fn)(handle, option, value);
}

static inline CURLcode choosy_curl_setopt_data_callback(void *fn, CURL *handle, CURLoption option, choosy_curl_data_callback value) {
    return ((choosy_curl_setopt_fn)fn)(handle, option, value);
}

static inline CURLcode choosy_curl_setopt_progress_callback(void *fn, CURL *handle, CURLoption option, choosy_curl_progress_callback value) {
    return ((choosy_curl_setopt_fn)fn)(handle, option, value);
}

static inline CURLcode choosy_curl_getinfo_long(void *fn, CURL *handle, CURLINFO info, long *value) {
    return ((choosy_curl_getinfo_fn)fn)(handle, info, value);
}

static inline CURLcode choosy_curl_getinfo_string(void *fn, CURL *handle, CURLINFO info, const char **value) {
    return ((choosy_curl_getinfo_fn)fn)(handle, info, value);
}

#endif
