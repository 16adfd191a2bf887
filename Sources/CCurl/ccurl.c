// See include/ccurl.h: libcurl's functions resolved from libcurl.so.4 on first use.
#include "ccurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <sys/socket.h>
#include <stdio.h>
#include <string.h>

// libcurl's CURLMsg (multi.h): what curl_multi_info_read returns.
struct rc_message {
    int msg;          // CURLMSG_DONE is 1
    void *easy;
    union {
        void *whatever;
        int result;   // CURLcode
    } data;
};

// The head of libcurl's curl_version_info_data (curl.h), the same in every version since 7.10.
struct rc_version_info {
    int age;
    const char *version;
    unsigned int version_num;
};

static struct {
    int (*global_init)(long flags);
    char *(*version)(void);
    struct rc_version_info *(*version_info)(int age);
    void *(*easy_init)(void);
    void (*easy_cleanup)(void *);
    int (*easy_setopt)(void *, int, ...);
    int (*easy_getinfo)(void *, int, ...);
    const char *(*easy_strerror)(int);
    void *(*multi_init)(void);
    int (*multi_cleanup)(void *);
    int (*multi_setopt)(void *, int, ...);
    const char *(*multi_strerror)(int);
    int (*multi_add_handle)(void *, void *);
    int (*multi_remove_handle)(void *, void *);
    int (*multi_perform)(void *, int *);
    int (*multi_poll)(void *, void *, unsigned int, int, int *);
    int (*multi_wakeup)(void *);
    struct rc_message *(*multi_info_read)(void *, int *);
    void *(*slist_append)(void *, const char *);
    void (*slist_free_all)(void *);
} curl;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[256];
static unsigned int version_number;

#define RESOLVE(field, name) \
    if (!(*(void **)&curl.field = dlsym(library, name))) { \
        snprintf(load_error, sizeof load_error, "libcurl.so.4 has no %s (libcurl 7.68.0 or newer is needed)", name); \
        return; \
    }

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "cannot load libcurl.so.4 (%s); install Debian's libcurl4", dlerror());
        return;
    }
    RESOLVE(global_init, "curl_global_init")
    RESOLVE(version, "curl_version")
    RESOLVE(version_info, "curl_version_info")
    RESOLVE(easy_init, "curl_easy_init")
    RESOLVE(easy_cleanup, "curl_easy_cleanup")
    RESOLVE(easy_setopt, "curl_easy_setopt")
    RESOLVE(easy_getinfo, "curl_easy_getinfo")
    RESOLVE(easy_strerror, "curl_easy_strerror")
    RESOLVE(multi_init, "curl_multi_init")
    RESOLVE(multi_cleanup, "curl_multi_cleanup")
    RESOLVE(multi_setopt, "curl_multi_setopt")
    RESOLVE(multi_strerror, "curl_multi_strerror")
    RESOLVE(multi_add_handle, "curl_multi_add_handle")
    RESOLVE(multi_remove_handle, "curl_multi_remove_handle")
    RESOLVE(multi_perform, "curl_multi_perform")
    RESOLVE(multi_poll, "curl_multi_poll")
    RESOLVE(multi_wakeup, "curl_multi_wakeup")
    RESOLVE(multi_info_read, "curl_multi_info_read")
    RESOLVE(slist_append, "curl_slist_append")
    RESOLVE(slist_free_all, "curl_slist_free_all")
    // CURLVERSION_FIRST (0): only the head of the answer is read.
    struct rc_version_info *info = curl.version_info(0);
    version_number = info ? info->version_num : 0;
    if (version_number < RC_LIBCURL_MINIMUM) {
        snprintf(load_error, sizeof load_error, "libcurl %s is too old: 7.68.0 or newer is needed",
                 info && info->version ? info->version : "of unknown version");
        return;
    }
    // CURL_GLOBAL_DEFAULT (SSL | WIN32): once, before any other call, as libcurl asks.
    if (curl.global_init(3) != 0) snprintf(load_error, sizeof load_error, "curl_global_init failed");
}

int rc_load(char *error, size_t error_size) {
    pthread_once(&once, load);
    if (load_error[0] == 0) return 0;
    if (error && error_size > 0) snprintf(error, error_size, "%s", load_error);
    return -1;
}

const char *rc_version(void) { return curl.version(); }
unsigned int rc_version_number(void) { return version_number; }

#define RC_NAME_CASE(name, number, added) case number: if (since) *since = added; return #name;

const char *rc_option_name(int option, const char **since) {
    switch (option) {
        RC_LONG_OPTIONS(RC_NAME_CASE)
        RC_POINTER_OPTIONS(RC_NAME_CASE)
        RC_FUNCTION_OPTIONS(RC_NAME_CASE)
        RC_OFFSET_OPTIONS(RC_NAME_CASE)
        default: return NULL;
    }
}

const char *rc_multi_option_name(int option, const char **since) {
    switch (option) {
        RC_MULTI_OPTIONS(RC_NAME_CASE)
        default: return NULL;
    }
}

// libcurl's struct curl_sockaddr (curl.h), what CURLOPT_OPENSOCKETFUNCTION is given.
struct rc_sockaddr {
    int family;
    int socktype;
    int protocol;
    unsigned int addrlen;
    struct sockaddr addr;
};

// CURLOPT_OPENSOCKETFUNCTION (CURLOPTTYPE_FUNCTIONPOINT + 163): libcurl 7.88 opens its sockets without
// close-on-exec, so every program the process starts (a link's browser, a clipboard tool) would
// inherit the open connections and hold them open as long as it runs. The socket is made here
// with SOCK_CLOEXEC, in one call, so no fork on another thread can come between.
enum { RC_CURLOPT_OPENSOCKETFUNCTION = 20163 };
static int rc_open_socket(void *data, int purpose, struct rc_sockaddr *address) {
    (void)data;
    (void)purpose;
    return socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
}

void *rc_easy_init(void) {
    void *easy = curl.easy_init();
    if (easy) curl.easy_setopt(easy, RC_CURLOPT_OPENSOCKETFUNCTION, rc_open_socket);
    return easy;
}
void rc_easy_cleanup(void *easy) { curl.easy_cleanup(easy); }
int rc_easy_setopt_long(void *easy, enum rc_long_option option, long value) { return curl.easy_setopt(easy, (int)option, value); }
int rc_easy_setopt_pointer(void *easy, enum rc_pointer_option option, const void *value) { return curl.easy_setopt(easy, (int)option, value); }
int rc_easy_setopt_offset(void *easy, enum rc_offset_option option, int64_t value) { return curl.easy_setopt(easy, (int)option, value); }
int rc_easy_setopt_data_callback(void *easy, enum rc_function_option option, rc_data_callback callback) { return curl.easy_setopt(easy, (int)option, callback); }
int rc_easy_setopt_progress_callback(void *easy, enum rc_function_option option, rc_progress_callback callback) { return curl.easy_setopt(easy, (int)option, callback); }
int rc_easy_getinfo_long(void *easy, enum rc_long_info info, long *value) { return curl.easy_getinfo(easy, (int)info, value); }
int rc_easy_getinfo_offset(void *easy, enum rc_offset_info info, int64_t *value) { return curl.easy_getinfo(easy, (int)info, value); }
const char *rc_easy_strerror(int code) {
    // Loads the library when needed: a message may be built for a code before any transfer ran.
    if (rc_load(NULL, 0) != 0 || !curl.easy_strerror) return NULL;
    return curl.easy_strerror(code);
}

void *rc_multi_init(void) { return curl.multi_init(); }
void rc_multi_cleanup(void *multi) { curl.multi_cleanup(multi); }
int rc_multi_setopt_long(void *multi, enum rc_multi_option option, long value) { return curl.multi_setopt(multi, (int)option, value); }
const char *rc_multi_strerror(int code) { return curl.multi_strerror(code); }
int rc_multi_add_handle(void *multi, void *easy) { return curl.multi_add_handle(multi, easy); }
int rc_multi_remove_handle(void *multi, void *easy) { return curl.multi_remove_handle(multi, easy); }
int rc_multi_perform(void *multi, int *running) { return curl.multi_perform(multi, running); }
int rc_multi_poll(void *multi, int timeout_ms, int *ready) { return curl.multi_poll(multi, NULL, 0, timeout_ms, ready); }
int rc_multi_wakeup(void *multi) { return curl.multi_wakeup(multi); }

int rc_multi_next_done(void *multi, void **easy, int *result) {
    int queued = 0;
    struct rc_message *message;
    while ((message = curl.multi_info_read(multi, &queued))) {
        if (message->msg == 1) {
            *easy = message->easy;
            *result = message->data.result;
            return 1;
        }
    }
    return 0;
}

void *rc_slist_append(void *list, const char *text) { return curl.slist_append(list, text); }
void rc_slist_free_all(void *list) { curl.slist_free_all(list); }
