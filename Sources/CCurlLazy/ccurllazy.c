// libcurl, loaded on first use.
//
// Release builds of riffle link FoundationNetworking statically. Linked the usual way, libcurl and the
// ~30 libraries under it (OpenSSL, GnuTLS, Kerberos, LDAP...) are loaded and their constructors run
// before main: about 4.5 ms of a 7 ms start and several megabytes of memory, spent even when riffle
// paints a cached page or talks to 127.0.0.1 without libcurl. Here each libcurl function that
// FoundationNetworking calls is defined as a trampoline that dlopen()s libcurl.so.4 the first time
// any of them runs (the first URLSession transfer) and jumps to the real one.
//
// The variadic setters pass their one argument on as a 64-bit word: libcurl's options take a long, a
// pointer or a curl_off_t, which the LP64 calling conventions of x86-64 and AArch64 pass alike.
//
// Debug builds link FoundationNetworking dynamically, which binds libcurl itself: these definitions
// are not exported there and go unused. `.ci/run` checks a release build's HTTPS path through them.
#include "ccurllazy.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void *library;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        // Without libcurl there is no HTTPS. abort() lets riffle's crash handler restore the terminal.
        fprintf(stderr, "riffle: cannot load libcurl.so.4 (%s); install Debian's libcurl4\n", dlerror());
        abort();
    }
}

static void *symbol(const char *name) {
    pthread_once(&once, load);
    void *found = dlsym(library, name);
    if (!found) {
        fprintf(stderr, "riffle: libcurl.so.4 has no %s\n", name);
        abort();
    }
    return found;
}

// One cached function pointer per libcurl function; the lookup runs once.
#define RESOLVE(type, name) \
    static __typeof__((type)0) real; \
    if (!__atomic_load_n(&real, __ATOMIC_ACQUIRE)) __atomic_store_n(&real, (type)symbol(#name), __ATOMIC_RELEASE)

void *curl_easy_init(void) { RESOLVE(void *(*)(void), curl_easy_init); return real(); }
void curl_easy_cleanup(void *easy) { RESOLVE(void (*)(void *), curl_easy_cleanup); real(easy); }
int curl_easy_pause(void *easy, int mask) { RESOLVE(int (*)(void *, int), curl_easy_pause); return real(easy, mask); }
const char *curl_easy_strerror(int code) { RESOLVE(const char *(*)(int), curl_easy_strerror); return real(code); }
void curl_free(void *pointer) { RESOLVE(void (*)(void *), curl_free); real(pointer); }
int curl_global_init(long flags) { RESOLVE(int (*)(long), curl_global_init); return real(flags); }
char *curl_version(void) { RESOLVE(char *(*)(void), curl_version); return real(); }
void *curl_version_info(int age) { RESOLVE(void *(*)(int), curl_version_info); return real(age); }

int curl_easy_setopt(void *easy, int option, ...) {
    RESOLVE(int (*)(void *, int, ...), curl_easy_setopt);
    va_list list;
    va_start(list, option);
    void *value = va_arg(list, void *);
    va_end(list);
    return real(easy, option, value);
}

int curl_easy_getinfo(void *easy, int info, ...) {
    RESOLVE(int (*)(void *, int, ...), curl_easy_getinfo);
    va_list list;
    va_start(list, info);
    void *out = va_arg(list, void *);
    va_end(list);
    return real(easy, info, out);
}

void *curl_multi_init(void) { RESOLVE(void *(*)(void), curl_multi_init); return real(); }
int curl_multi_cleanup(void *multi) { RESOLVE(int (*)(void *), curl_multi_cleanup); return real(multi); }
int curl_multi_add_handle(void *multi, void *easy) { RESOLVE(int (*)(void *, void *), curl_multi_add_handle); return real(multi, easy); }
int curl_multi_remove_handle(void *multi, void *easy) { RESOLVE(int (*)(void *, void *), curl_multi_remove_handle); return real(multi, easy); }
int curl_multi_assign(void *multi, int socket, void *pointer) { RESOLVE(int (*)(void *, int, void *), curl_multi_assign); return real(multi, socket, pointer); }
void *curl_multi_info_read(void *multi, int *queued) { RESOLVE(void *(*)(void *, int *), curl_multi_info_read); return real(multi, queued); }
int curl_multi_socket_action(void *multi, int socket, int events, int *running) {
    RESOLVE(int (*)(void *, int, int, int *), curl_multi_socket_action);
    return real(multi, socket, events, running);
}

int curl_multi_setopt(void *multi, int option, ...) {
    RESOLVE(int (*)(void *, int, ...), curl_multi_setopt);
    va_list list;
    va_start(list, option);
    void *value = va_arg(list, void *);
    va_end(list);
    return real(multi, option, value);
}

void *curl_slist_append(void *list, const char *text) { RESOLVE(void *(*)(void *, const char *), curl_slist_append); return real(list, text); }
void curl_slist_free_all(void *list) { RESOLVE(void (*)(void *), curl_slist_free_all); real(list); }
void *curl_url(void) { RESOLVE(void *(*)(void), curl_url); return real(); }
int curl_url_get(const void *url, int part, char **out, unsigned int flags) {
    RESOLVE(int (*)(const void *, int, char **, unsigned int), curl_url_get);
    return real(url, part, out, flags);
}
int curl_url_set(void *url, int part, const char *text, unsigned int flags) {
    RESOLVE(int (*)(void *, int, const char *, unsigned int), curl_url_set);
    return real(url, part, text, flags);
}
