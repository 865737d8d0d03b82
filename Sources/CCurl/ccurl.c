#include "ccurl.h"

#include <curl/curl.h>
#include <pthread.h>
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

static pthread_once_t global_init_once = PTHREAD_ONCE_INIT;

static void global_init(void) {
    curl_global_init(CURL_GLOBAL_DEFAULT);
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
    pthread_once(&global_init_once, global_init);
    memset(result, 0, sizeof(*result));
    CURL *curl = curl_easy_init();
    if (!curl) {
        result->curl_code = CURLE_FAILED_INIT;
        strncpy(result->error, "could not start libcurl", sizeof(result->error) - 1);
        return result->curl_code;
    }
    struct curl_slist *list = NULL;
    for (size_t index = 0; index < header_count; index++) list = curl_slist_append(list, headers[index]);
    // No "Expect: 100-continue" round trip before sending a body.
    list = curl_slist_append(list, "Expect:");

    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
    if (body) {
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_length);
    }
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, connect_timeout_ms);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_TCP_NODELAY, 1L);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &result->body);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &result->headers);
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, token);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, result->error);

    CURLcode code = curl_easy_perform(curl);
    result->curl_code = (int)code;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &result->status);
    if (code != CURLE_OK && result->error[0] == 0) {
        strncpy(result->error, curl_easy_strerror(code), sizeof(result->error) - 1);
    }
    curl_slist_free_all(list);
    curl_easy_cleanup(curl);
    return result->curl_code;
}

void ccurl_result_free(ccurl_result *result) {
    free(result->body.data);
    free(result->headers.data);
    memset(result, 0, sizeof(*result));
}
