#ifndef CCURL_H
#define CCURL_H

#include <stddef.h>

/// A growable byte buffer filled by libcurl callbacks.
typedef struct ccurl_buffer {
    char *data;
    size_t length;
    size_t capacity;
} ccurl_buffer;

/// The outcome of one exchange. `curl_code` is libcurl's CURLcode (0 on success).
typedef struct ccurl_result {
    long status;
    int curl_code;
    char error[256];
    ccurl_buffer body;
    ccurl_buffer headers;
} ccurl_result;

/// Set from any thread to abort a transfer that is in progress.
typedef struct ccurl_cancel_token ccurl_cancel_token;

ccurl_cancel_token *ccurl_cancel_token_new(void);
void ccurl_cancel_token_cancel(ccurl_cancel_token *token);
void ccurl_cancel_token_free(ccurl_cancel_token *token);

/// Performs one HTTP request synchronously (call it off the cooperative thread pool).
/// `headers` are full "Name: value" lines. `timeout_ms` bounds the whole exchange.
/// Returns the CURLcode; the caller frees `result` with `ccurl_result_free`.
int ccurl_perform(const char *method, const char *url, const char *const *headers, size_t header_count,
                  const char *body, size_t body_length, long timeout_ms, long connect_timeout_ms,
                  ccurl_cancel_token *token, ccurl_result *result);

void ccurl_result_free(ccurl_result *result);

/// The numeric CURLcode values the Swift side classifies.
enum {
    CCURL_OK = 0,
    CCURL_COULDNT_RESOLVE_HOST = 6,
    CCURL_COULDNT_CONNECT = 7,
    CCURL_PARTIAL_FILE = 18,
    CCURL_OPERATION_TIMEDOUT = 28,
    CCURL_ABORTED_BY_CALLBACK = 42,
    CCURL_GOT_NOTHING = 52,
    CCURL_SEND_ERROR = 55,
    CCURL_RECV_ERROR = 56,
};

#endif
