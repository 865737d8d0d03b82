#include "ccurl.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

struct ccurl_cancel_token {
    atomic_int cancelled;
};

ccurl_cancel_token *ccurl_cancel_token_new(void) {
    ccurl_cancel_token *token = calloc(1, sizeof(ccurl_cancel_token));
    if (token) atomic_init(&token->cancelled, 0);
    return token;
}

void ccurl_cancel_token_cancel(ccurl_cancel_token *token) {
    if (token) atomic_store(&token->cancelled, 1);
}

void ccurl_cancel_token_free(ccurl_cancel_token *token) {
    free(token);
}

// libcurl is loaded the first time a request is made, not when the program starts:
// it brings some thirty libraries (TLS, Kerberos, LDAP) whose loading and
// relocation cost every process a few milliseconds, and most commands (`validate`
// under xargs starts one per few thousand files) never make a request.
static struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *curl, CURLoption option, ...);
    CURLcode (*easy_perform)(CURL *curl);
    CURLcode (*easy_getinfo)(CURL *curl, CURLINFO info, ...);
    const char *(*easy_strerror)(CURLcode code);
    void (*easy_cleanup)(CURL *curl);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *line);
    void (*slist_free_all)(struct curl_slist *list);
} curl;
static char load_error[200];
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

#ifdef __APPLE__
static const char *const library_names[] = {"libcurl.4.dylib", "libcurl.dylib"};
#else
static const char *const library_names[] = {"libcurl.so.4", "libcurl.so"};
#endif

static void load(void) {
    void *library = NULL;
    for (size_t index = 0; index < sizeof(library_names) / sizeof(*library_names) && !library; index++) {
        library = dlopen(library_names[index], RTLD_NOW | RTLD_LOCAL);
    }
    if (!library) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof(load_error), "could not load libcurl (%s): %s; install it with scripts/install-system-packages",
                 library_names[0], reason ? reason : "not found");
        return;
    }
#define CCURL_BIND(field, symbol) \
    if (!(*(void **)&curl.field = dlsym(library, symbol))) { \
        snprintf(load_error, sizeof(load_error), "the libcurl that was loaded (%s) has no %s", library_names[0], symbol); \
        return; \
    }
    CCURL_BIND(global_init, "curl_global_init")
    CCURL_BIND(easy_init, "curl_easy_init")
    CCURL_BIND(easy_setopt, "curl_easy_setopt")
    CCURL_BIND(easy_perform, "curl_easy_perform")
    CCURL_BIND(easy_getinfo, "curl_easy_getinfo")
    CCURL_BIND(easy_strerror, "curl_easy_strerror")
    CCURL_BIND(easy_cleanup, "curl_easy_cleanup")
    CCURL_BIND(slist_append, "curl_slist_append")
    CCURL_BIND(slist_free_all, "curl_slist_free_all")
#undef CCURL_BIND
    curl.global_init(CURL_GLOBAL_DEFAULT);
}

static size_t append(ccurl_buffer *buffer, const char *data, size_t length) {
    if (buffer->length + length + 1 > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 4096;
        while (buffer->length + length + 1 > capacity) capacity *= 2;
        char *grown = realloc(buffer->data, capacity);
        if (!grown) return 0;
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->length, data, length);
    buffer->length += length;
    buffer->data[buffer->length] = 0;
    return length;
}

static size_t on_body(char *data, size_t size, size_t count, void *context) {
    return append((ccurl_buffer *)context, data, size * count);
}

static size_t on_header(char *data, size_t size, size_t count, void *context) {
    return append((ccurl_buffer *)context, data, size * count);
}

static int on_progress(void *context, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow) {
    (void)dltotal; (void)dlnow; (void)ultotal; (void)ulnow;
    ccurl_cancel_token *token = context;
    return token && atomic_load(&token->cancelled) ? 1 : 0;
}

int ccurl_perform(const char *method, const char *url, const char *const *headers, size_t header_count,
                  const char *body, size_t body_length, long timeout_ms, long connect_timeout_ms,
                  ccurl_cancel_token *token, ccurl_result *result) {
    pthread_once(&load_once, load);
    memset(result, 0, sizeof(*result));
    if (load_error[0]) {
        result->curl_code = CURLE_FAILED_INIT;
        strncpy(result->error, load_error, sizeof(result->error) - 1);
        return result->curl_code;
    }
    CURL *handle = curl.easy_init();
    if (!handle) {
        result->curl_code = CURLE_FAILED_INIT;
        strncpy(result->error, "could not start libcurl", sizeof(result->error) - 1);
        return result->curl_code;
    }
    struct curl_slist *list = NULL;
    for (size_t index = 0; index < header_count; index++) list = curl.slist_append(list, headers[index]);
    // No "Expect: 100-continue" round trip before sending a body.
    list = curl.slist_append(list, "Expect:");

    curl.easy_setopt(handle, CURLOPT_URL, url);
    curl.easy_setopt(handle, CURLOPT_CUSTOMREQUEST, method);
    curl.easy_setopt(handle, CURLOPT_HTTPHEADER, list);
    if (body) {
        curl.easy_setopt(handle, CURLOPT_POSTFIELDS, body);
        curl.easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_length);
    }
    curl.easy_setopt(handle, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl.easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS, connect_timeout_ms);
    curl.easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl.easy_setopt(handle, CURLOPT_TCP_NODELAY, 1L);
    curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, on_body);
    curl.easy_setopt(handle, CURLOPT_WRITEDATA, &result->body);
    curl.easy_setopt(handle, CURLOPT_HEADERFUNCTION, on_header);
    curl.easy_setopt(handle, CURLOPT_HEADERDATA, &result->headers);
    curl.easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
    curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl.easy_setopt(handle, CURLOPT_XFERINFODATA, token);
    curl.easy_setopt(handle, CURLOPT_ERRORBUFFER, result->error);

    CURLcode code = curl.easy_perform(handle);
    result->curl_code = (int)code;
    curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &result->status);
    if (code != CURLE_OK && result->error[0] == 0) {
        strncpy(result->error, curl.easy_strerror(code), sizeof(result->error) - 1);
    }
    curl.slist_free_all(list);
    curl.easy_cleanup(handle);
    return result->curl_code;
}

void ccurl_result_free(ccurl_result *result) {
    free(result->body.data);
    free(result->headers.data);
    memset(result, 0, sizeof(*result));
}
