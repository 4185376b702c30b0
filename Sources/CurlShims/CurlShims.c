#include "CurlShims.h"

#include <dlfcn.h>
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

CURLcode aasa_curl_easy_setopt_opensocket(CURL *handle, curl_opensocket_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, callback);
}

CURLcode aasa_curl_easy_setopt_prereq(CURL *handle, curl_prereq_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_PREREQFUNCTION, callback);
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

// OpenSSL's peer-certificate calls, looked up once with dlsym like OPENSSL_init_crypto above: no OpenSSL headers
// or link flags, and a libcurl built on another TLS library simply reports "unavailable".
typedef void *(*aasa_ssl_get1_peer_certificate_fn)(const void *ssl);
typedef int (*aasa_i2d_x509_fn)(void *certificate, unsigned char **out);
typedef void (*aasa_x509_free_fn)(void *certificate);

static pthread_once_t aasa_peer_certificate_once = PTHREAD_ONCE_INIT;
static aasa_ssl_get1_peer_certificate_fn aasa_get1_peer_certificate;
static aasa_i2d_x509_fn aasa_i2d_x509;
static aasa_x509_free_fn aasa_x509_free;

static void aasa_find_peer_certificate_calls(void) {
    const curl_version_info_data *info = curl_version_info(CURLVERSION_NOW);
    if (info == NULL || info->ssl_version == NULL || strncmp(info->ssl_version, "OpenSSL/", 8) != 0) return;
    aasa_get1_peer_certificate = (aasa_ssl_get1_peer_certificate_fn)dlsym(RTLD_DEFAULT, "SSL_get1_peer_certificate");
    if (aasa_get1_peer_certificate == NULL) {
        // OpenSSL 1.1 named it SSL_get_peer_certificate (same contract: a new reference).
        aasa_get1_peer_certificate = (aasa_ssl_get1_peer_certificate_fn)dlsym(RTLD_DEFAULT, "SSL_get_peer_certificate");
    }
    aasa_i2d_x509 = (aasa_i2d_x509_fn)dlsym(RTLD_DEFAULT, "i2d_X509");
    aasa_x509_free = (aasa_x509_free_fn)dlsym(RTLD_DEFAULT, "X509_free");
}

int aasa_curl_reads_peer_certificate(void) {
    pthread_once(&aasa_peer_certificate_once, aasa_find_peer_certificate_calls);
    return aasa_get1_peer_certificate != NULL && aasa_i2d_x509 != NULL && aasa_x509_free != NULL;
}

unsigned char *aasa_curl_peer_certificate_der(CURL *handle, size_t *length) {
    *length = 0;
    if (!aasa_curl_reads_peer_certificate()) return NULL;
    struct curl_tlssessioninfo *session = NULL;
    if (curl_easy_getinfo(handle, CURLINFO_TLS_SSL_PTR, &session) != CURLE_OK || session == NULL ||
        session->backend != CURLSSLBACKEND_OPENSSL || session->internals == NULL) {
        return NULL;
    }
    void *certificate = aasa_get1_peer_certificate(session->internals);
    if (certificate == NULL) return NULL;
    unsigned char *der = NULL;
    int size = aasa_i2d_x509(certificate, NULL);
    if (size > 0 && (der = malloc((size_t)size)) != NULL) {
        unsigned char *cursor = der;  // i2d_X509 advances the pointer it is given.
        if (aasa_i2d_x509(certificate, &cursor) == size) {
            *length = (size_t)size;
        } else {
            free(der);
            der = NULL;
        }
    }
    aasa_x509_free(certificate);
    return der;
}

CURLMcode aasa_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

// jemalloc's control call, `int mallctl(const char *name, void *old, size_t *oldlen, void *new, size_t newlen)`.
typedef int (*aasa_mallctl_fn)(const char *name, void *old, size_t *old_length, void *new_value, size_t new_length);

static aasa_mallctl_fn aasa_mallctl(void) { return (aasa_mallctl_fn)dlsym(RTLD_DEFAULT, "mallctl"); }

int aasa_jemalloc_linked(void) { return aasa_mallctl() != NULL; }

void aasa_release_free_memory(void) {
    aasa_mallctl_fn mallctl = aasa_mallctl();
    if (mallctl != NULL) {
        // MALLCTL_ARENAS_ALL (4096): every arena's unused dirty and muzzy pages go back to the system now.
        (void)mallctl("arena.4096.purge", NULL, NULL, NULL, 0);
    } else {
        (void)malloc_trim(0);
    }
}

// jemalloc's options for the daemon, read when jemalloc starts (before main); unused where glibc allocates. Two arenas,
// not 4 per core: the daemon's threads mostly wait, and each arena keeps pages of its own (as glibc's arena limit of 2
// did before). Freed pages return after jemalloc's default 10 s: 1 s cost 0.25 ms more CPU per check at 100,000
// domains; the start-up peak is met by a purge after the configuration's parse instead (`Daemon.run`). The MALLOC_CONF
// environment variable still overrides them.
__attribute__((used, visibility("default"))) const char *malloc_conf = "narenas:2";
