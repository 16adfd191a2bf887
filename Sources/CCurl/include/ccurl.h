#ifndef RIFFLE_CCURL_H
#define RIFFLE_CCURL_H

// libcurl, declared here and loaded on first use.
//
// Debian ships libcurl.so.4 on every machine but its headers (libcurl4-openssl-dev) only on some, so
// RiffleKit declares the part of libcurl's stable ABI it calls and dlopen()s the library the first time
// a request is sent: a browser painting a cached page never loads libcurl and the ~30 libraries under
// it. libcurl's option and info numbers are part of that ABI (soname 4): CURLOPTTYPE_LONG + n,
// CURLOPTTYPE_OBJECTPOINT (10000) + n, CURLOPTTYPE_FUNCTIONPOINT (20000) + n, CURLOPTTYPE_OFF_T (30000) + n.
//
// Swift cannot call C variadic functions (curl_easy_setopt, curl_easy_getinfo, curl_multi_setopt), so
// each argument kind has a typed wrapper below.

#include <stddef.h>
#include <stdint.h>

typedef size_t (*rc_data_callback)(char *buffer, size_t size, size_t count, void *context);
typedef int (*rc_progress_callback)(void *context, int64_t download_total, int64_t download_now,
                                    int64_t upload_total, int64_t upload_now);

// Loads libcurl.so.4 and runs curl_global_init once. Returns 0, or -1 with a one-line reason in `error`.
int rc_load(char *error, size_t error_size);
// libcurl's version text ("libcurl/7.88.1 OpenSSL/3.0.x zlib/1.2.13 brotli/1.0.9 nghttp2/1.52.0"); rc_load first.
const char *rc_version(void);

void *rc_easy_init(void);
void rc_easy_cleanup(void *easy);
int rc_easy_setopt_long(void *easy, int option, long value);
int rc_easy_setopt_pointer(void *easy, int option, const void *value);
int rc_easy_setopt_offset(void *easy, int option, int64_t value);
int rc_easy_setopt_data_callback(void *easy, int option, rc_data_callback callback);
int rc_easy_setopt_progress_callback(void *easy, int option, rc_progress_callback callback);
int rc_easy_getinfo_long(void *easy, int info, long *value);
int rc_easy_getinfo_offset(void *easy, int info, int64_t *value);
const char *rc_easy_strerror(int code);

void *rc_multi_init(void);
void rc_multi_cleanup(void *multi);
int rc_multi_setopt_long(void *multi, int option, long value);
int rc_multi_add_handle(void *multi, void *easy);
int rc_multi_remove_handle(void *multi, void *easy);
int rc_multi_perform(void *multi, int *running);
int rc_multi_poll(void *multi, int timeout_ms, int *ready);
int rc_multi_wakeup(void *multi);
// The next finished transfer: 1 with its handle and CURLcode, 0 when none is waiting.
int rc_multi_next_done(void *multi, void **easy, int *result);

void *rc_slist_append(void *list, const char *text);
void rc_slist_free_all(void *list);

#endif
