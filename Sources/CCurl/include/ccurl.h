#ifndef RIFFLE_CCURL_H
#define RIFFLE_CCURL_H

// libcurl, declared here and loaded on first use.
//
// Debian ships libcurl.so.4 on every machine but its headers (libcurl4-openssl-dev) only on some, so
// RiffleKit declares the part of libcurl's stable ABI it calls and dlopen()s the library the first time
// a request is sent: a browser painting a cached page never loads libcurl and the ~30 libraries under
// it. This file is the one place that ABI is written: the functions below, and the option and info
// numbers in the tables, which Swift reads as the `RC_*` constants (it writes no number of its own).
//
// Swift cannot call C variadic functions (curl_easy_setopt, curl_easy_getinfo, curl_multi_setopt), so
// each argument kind has a typed wrapper, and each kind of option its own enum: a long option cannot be
// set with a pointer. Every wrapper returns libcurl's code, which the Swift side checks.
//
// Libcurl 7.68.0 or newer is needed (curl_multi_wakeup); rc_load checks the version it loaded.

#include <stddef.h>
#include <stdint.h>

// The tables: X(curl's macro name, its number, the libcurl version that added it), numbers as curl.h
// and multi.h define them (soname 4 keeps them stable): an option is its type's base plus an index
// (CURLOPTTYPE_LONG 0, CURLOPTTYPE_OBJECTPOINT/STRINGPOINT/SLISTPOINT/CBPOINT 10000,
// CURLOPTTYPE_FUNCTIONPOINT 20000, CURLOPTTYPE_OFF_T 30000), an info number its type's base plus an
// index (CURLINFO_LONG 0x200000, CURLINFO_OFF_T 0x600000). Versions from curl's
// docs/libcurl/symbols-in-versions.

// Options set with a `long`.
#define RC_LONG_OPTIONS(X) \
    X(CURLOPT_LOW_SPEED_LIMIT, 19, "7.1") \
    X(CURLOPT_LOW_SPEED_TIME, 20, "7.1") \
    X(CURLOPT_NOPROGRESS, 43, "7.1") \
    X(CURLOPT_NOBODY, 44, "7.1") \
    X(CURLOPT_POST, 47, "7.1") \
    X(CURLOPT_FOLLOWLOCATION, 52, "7.1") \
    X(CURLOPT_HTTPGET, 80, "7.8.1") \
    X(CURLOPT_HTTP_VERSION, 84, "7.9.1") \
    X(CURLOPT_NOSIGNAL, 99, "7.10") \
    X(CURLOPT_TIMEOUT_MS, 155, "7.16.2") \
    X(CURLOPT_CONNECTTIMEOUT_MS, 156, "7.16.2") \
    X(CURLOPT_PROTOCOLS, 181, "7.19.4") /* deprecated in 7.85.0 for CURLOPT_PROTOCOLS_STR */ \
    X(CURLOPT_TCP_KEEPALIVE, 213, "7.25.0") \
    X(CURLOPT_PIPEWAIT, 237, "7.43.0")

// Options set with a pointer: a C string (copied by libcurl), a list, a buffer or callback data.
#define RC_POINTER_OPTIONS(X) \
    X(CURLOPT_WRITEDATA, 10001, "7.9.7") \
    X(CURLOPT_URL, 10002, "7.1") \
    X(CURLOPT_ERRORBUFFER, 10010, "7.1") \
    X(CURLOPT_USERAGENT, 10018, "7.1") \
    X(CURLOPT_HTTPHEADER, 10023, "7.1") \
    X(CURLOPT_HEADERDATA, 10029, "7.10") \
    X(CURLOPT_CUSTOMREQUEST, 10036, "7.1") \
    X(CURLOPT_XFERINFODATA, 10057, "7.32.0") \
    X(CURLOPT_CAINFO, 10065, "7.4.2") \
    X(CURLOPT_ACCEPT_ENCODING, 10102, "7.21.6") \
    X(CURLOPT_COPYPOSTFIELDS, 10165, "7.17.1") \
    X(CURLOPT_PROTOCOLS_STR, 10318, "7.85.0")

// Options set with a function pointer.
#define RC_FUNCTION_OPTIONS(X) \
    X(CURLOPT_WRITEFUNCTION, 20011, "7.1") \
    X(CURLOPT_HEADERFUNCTION, 20079, "7.7.2") \
    X(CURLOPT_XFERINFOFUNCTION, 20219, "7.32.0")

// Options set with a curl_off_t (int64_t on every platform libcurl.so.4 ships for).
#define RC_OFFSET_OPTIONS(X) \
    X(CURLOPT_MAXFILESIZE_LARGE, 30117, "7.11.0") \
    X(CURLOPT_POSTFIELDSIZE_LARGE, 30120, "7.11.1")

// Multi-handle options, set with a `long`.
#define RC_MULTI_OPTIONS(X) \
    X(CURLMOPT_PIPELINING, 3, "7.16.0") \
    X(CURLMOPT_MAXCONNECTS, 6, "7.16.3") \
    X(CURLMOPT_MAX_HOST_CONNECTIONS, 7, "7.30.0")

// Infos read into a `long`.
#define RC_LONG_INFOS(X) \
    X(CURLINFO_RESPONSE_CODE, 0x200002, "7.10.8") \
    X(CURLINFO_OS_ERRNO, 0x200019, "7.12.2") \
    X(CURLINFO_REQUEST_SIZE, 0x20000C, "7.4.1") \
    X(CURLINFO_NUM_CONNECTS, 0x20001A, "7.12.3")

// Infos read into a curl_off_t.
#define RC_OFFSET_INFOS(X) \
    X(CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, 0x60000F, "7.55.0") \
    X(CURLINFO_SIZE_DOWNLOAD_T, 0x600008, "7.55.0")

// Values of the options above.
#define RC_CURL_HTTP_VERSION_2TLS 4L   /* CURLOPT_HTTP_VERSION: HTTP/2 over TLS, else 1.1 (7.47.0) */
#define RC_CURLPIPE_MULTIPLEX 2L       /* CURLMOPT_PIPELINING: multiplex over HTTP/2 (7.43.0) */
#define RC_CURLPROTO_HTTP 1L           /* CURLOPT_PROTOCOLS bits, (1<<0) and (1<<1) (7.19.4) */
#define RC_CURLPROTO_HTTPS 2L
#define RC_CURLE_FILESIZE_EXCEEDED 63  /* CURLcode: CURLOPT_MAXFILESIZE_LARGE reached */
#define RC_CURLE_TOO_LARGE 100         /* CURLcode: a header over libcurl's own limit (8.6.0) */
#define RC_LIBCURL_MINIMUM 0x074400    /* 7.68.0, the first with curl_multi_wakeup */
#define RC_LIBCURL_PROTOCOLS_STR 0x075500  /* 7.85.0, the first with CURLOPT_PROTOCOLS_STR */

#define RC_ENUM_CASE(name, number, since) RC_##name = number,
enum rc_long_option { RC_LONG_OPTIONS(RC_ENUM_CASE) };
enum rc_pointer_option { RC_POINTER_OPTIONS(RC_ENUM_CASE) };
enum rc_function_option { RC_FUNCTION_OPTIONS(RC_ENUM_CASE) };
enum rc_offset_option { RC_OFFSET_OPTIONS(RC_ENUM_CASE) };
enum rc_multi_option { RC_MULTI_OPTIONS(RC_ENUM_CASE) };
enum rc_long_info { RC_LONG_INFOS(RC_ENUM_CASE) };
enum rc_offset_info { RC_OFFSET_INFOS(RC_ENUM_CASE) };
#undef RC_ENUM_CASE

typedef size_t (*rc_data_callback)(char *buffer, size_t size, size_t count, void *context);
typedef int (*rc_progress_callback)(void *context, int64_t download_total, int64_t download_now,
                                    int64_t upload_total, int64_t upload_now);

// Loads libcurl.so.4, checks its version (RC_LIBCURL_MINIMUM) and runs curl_global_init, once.
// Returns 0, or -1 with a one-line reason in `error`.
int rc_load(char *error, size_t error_size);
// libcurl's version text ("libcurl/7.88.1 OpenSSL/3.0.x zlib/1.2.13 brotli/1.0.9 nghttp2/1.52.0"); rc_load first.
const char *rc_version(void);
// libcurl's version as a number, 0xXXYYZZ (7.88.1 is 0x075801), from curl_version_info; rc_load first.
unsigned int rc_version_number(void);
// The table's macro name for an easy option number ("CURLOPT_URL") and, in `since`, the version that
// added it; NULL (and `since` untouched) for a number not in the tables.
const char *rc_option_name(int option, const char **since);
// The same for a multi option number ("CURLMOPT_PIPELINING").
const char *rc_multi_option_name(int option, const char **since);

void *rc_easy_init(void);
void rc_easy_cleanup(void *easy);
int rc_easy_setopt_long(void *easy, enum rc_long_option option, long value);
int rc_easy_setopt_pointer(void *easy, enum rc_pointer_option option, const void *value);
int rc_easy_setopt_offset(void *easy, enum rc_offset_option option, int64_t value);
int rc_easy_setopt_data_callback(void *easy, enum rc_function_option option, rc_data_callback callback);
int rc_easy_setopt_progress_callback(void *easy, enum rc_function_option option, rc_progress_callback callback);
int rc_easy_getinfo_long(void *easy, enum rc_long_info info, long *value);
int rc_easy_getinfo_offset(void *easy, enum rc_offset_info info, int64_t *value);
// libcurl's words for a CURLcode; loads the library if needed, NULL when it cannot be loaded.
const char *rc_easy_strerror(int code);

void *rc_multi_init(void);
void rc_multi_cleanup(void *multi);
int rc_multi_setopt_long(void *multi, enum rc_multi_option option, long value);
const char *rc_multi_strerror(int code);
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
