#include "CurlShims.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>

// Value of OPENSSL_INIT_NO_ATEXIT in <openssl/crypto.h> (OpenSSL 1.1.1+). Spelled here so this target does not need
// OpenSSL's headers: we only reach OpenSSL through the copy libcurl already loaded.
#define AASA_OPENSSL_INIT_NO_ATEXIT 0x00080000L

typedef int (*aasa_openssl_init_crypto_fn)(uint64_t options, const void *settings);

static pthread_once_t aasa_openssl_once = PTHREAD_ONCE_INIT;

// See the header: stops OpenSSL 3 from cleaning up at exit underneath threads that still free curl handles
// (swiftlang/swift-corelibs-foundation#5469). Looked up with dlsym so that a libcurl built on another TLS library
// (no OpenSSL symbol) still works.
static void aasa_disable_openssl_atexit(void) {
    void *symbol = dlsym(RTLD_DEFAULT, "OPENSSL_init_crypto");
    if (symbol != NULL) {
        aasa_openssl_init_crypto_fn init_crypto = (aasa_openssl_init_crypto_fn)symbol;
        (void)init_crypto((uint64_t)AASA_OPENSSL_INIT_NO_ATEXIT, NULL);
    }
}

CURLcode aasa_curl_global_init(void) {
    pthread_once(&aasa_openssl_once, aasa_disable_openssl_atexit);
    return curl_global_init(CURL_GLOBAL_ALL);
}

void aasa_curl_global_cleanup(void) { curl_global_cleanup(); }

CURLcode aasa_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode aasa_curl_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode aasa_curl_easy_setopt_ptr(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode aasa_curl_easy_setopt_data_callback(CURL *handle, CURLoption option, aasa_curl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

CURLcode aasa_curl_easy_setopt_xferinfo(CURL *handle, CURLoption option, aasa_curl_xferinfo_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

CURLcode aasa_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode aasa_curl_easy_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode aasa_curl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode aasa_curl_easy_getinfo_ptr(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode aasa_curl_easy_getinfo_certinfo(CURL *handle, struct curl_certinfo **value) {
    return curl_easy_getinfo(handle, CURLINFO_CERTINFO, value);
}

CURLMcode aasa_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}
