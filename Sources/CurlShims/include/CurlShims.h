// Typed, non-variadic wrappers over libcurl's variadic calls.
//
// Why: Swift cannot call C variadic functions (`curl_easy_setopt` is imported as "unavailable: Variadic function
// is unavailable"), and libcurl reads each variadic argument as a specific C type (`long`, `curl_off_t`, a pointer,
// a function pointer). One wrapper per argument kind makes the C compiler do the right conversion, as
// swift-corelibs-foundation's `CFURLSession_easy_setopt_*` and GRDB's `shim.h` do. Every name is prefixed
// `aasa_curl_` so it cannot clash with another C target in the same binary.
#ifndef AASA_CURL_SHIMS_H
#define AASA_CURL_SHIMS_H

#include <curl/curl.h>

#pragma clang assume_nonnull begin

/// Returns the heap's free memory to the system: jemalloc's `arena.<all>.purge` when jemalloc is the process's
/// allocator (the daemon links it), glibc's `malloc_trim(0)` otherwise (tests, benchmarks). jemalloc is looked up
/// at run time because only the executable links it; Swift's Glibc module does not import <malloc.h> either.
void aasa_release_free_memory(void);

/// Whether jemalloc is the process's allocator (its `mallctl` is linked in).
int aasa_jemalloc_linked(void);

/// `CURLVERSION_NOW` is an alias macro, which Swift does not import.
static const CURLversion aasa_curl_version_now = CURLVERSION_NOW;

/// One-time, process-wide libcurl initialisation; balanced by `aasa_curl_global_cleanup`.
///
/// The first call tells OpenSSL 3 not to register its `atexit` clean-up before libcurl initialises it. Otherwise a
/// curl handle freed on another thread after `exit()` began races OpenSSL's clean-up and crashes the process
/// (swiftlang/swift-corelibs-foundation#5469, fixed there the same way in #5474/#5479). libcurl's global init is
/// reference-counted and thread-safe in 7.84+ (CURL_VERSION_THREADSAFE), so each engine pairs one init with one
/// cleanup.
CURLcode aasa_curl_global_init(void);

/// Balances one successful `aasa_curl_global_init`.
void aasa_curl_global_cleanup(void);

/// Callback shapes, spelled out so Swift sees typed `@convention(c)` closures.
typedef size_t (*aasa_curl_data_callback)(char *_Nonnull data, size_t size, size_t count,
                                          void *_Nullable userdata);
typedef int (*aasa_curl_xferinfo_callback)(void *_Nullable userdata, curl_off_t dltotal, curl_off_t dlnow,
                                           curl_off_t ultotal, curl_off_t ulnow);

CURLcode aasa_curl_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode aasa_curl_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
CURLcode aasa_curl_easy_setopt_ptr(CURL *handle, CURLoption option, const void *_Nullable value);
/// For WRITEFUNCTION and HEADERFUNCTION.
CURLcode aasa_curl_easy_setopt_data_callback(CURL *handle, CURLoption option,
                                             aasa_curl_data_callback _Nullable callback);
/// For XFERINFOFUNCTION.
CURLcode aasa_curl_easy_setopt_xferinfo(CURL *handle, CURLoption option,
                                        aasa_curl_xferinfo_callback _Nullable callback);
/// CURLOPT_OPENSOCKETFUNCTION: called instead of socket(2) with the address about to be connected to, after DNS.
CURLcode aasa_curl_easy_setopt_opensocket(CURL *handle, curl_opensocket_callback _Nullable callback);
/// CURLOPT_PREREQFUNCTION (7.80+): called with the connected address before a request is sent on a new or reused
/// connection.
CURLcode aasa_curl_easy_setopt_prereq(CURL *handle, curl_prereq_callback _Nullable callback);
/// `CURL_SOCKET_BAD` and `CURL_PREREQFUNC_ABORT` are macros Swift does not import.
static const curl_socket_t aasa_curl_socket_bad = CURL_SOCKET_BAD;
static const int aasa_curl_prereq_ok = CURL_PREREQFUNC_OK;
static const int aasa_curl_prereq_abort = CURL_PREREQFUNC_ABORT;

CURLcode aasa_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode aasa_curl_easy_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value);
/// The string is owned by the handle and valid until the handle is reset or cleaned up; it may be NULL.
CURLcode aasa_curl_easy_getinfo_string(CURL *handle, CURLINFO info, const char *_Nullable *_Nonnull value);
CURLcode aasa_curl_easy_getinfo_ptr(CURL *handle, CURLINFO info, void *_Nullable *_Nonnull value);
/// CURLINFO_CERTINFO; the list is owned by the handle.
CURLcode aasa_curl_easy_getinfo_certinfo(CURL *handle, struct curl_certinfo *_Nullable *_Nonnull value);

/// Whether `aasa_curl_peer_certificate_der` can work: libcurl's TLS library is OpenSSL and the process has its
/// `SSL_get1_peer_certificate` and `i2d_X509`. Otherwise callers read the chain through `CURLINFO_CERTINFO`.
int aasa_curl_reads_peer_certificate(void);

/// The DER bytes of the certificate the server presented on the handle's TLS connection, copied into a buffer
/// from `malloc` (the caller frees it) with its length in `length`; NULL when there is no TLS connection yet or
/// no certificate. Only valid during a transfer (from a header or write callback), while libcurl holds the
/// connection: CURLINFO_TLS_SSL_PTR's pointer is not kept past that.
unsigned char *_Nullable aasa_curl_peer_certificate_der(CURL *handle, size_t *length);

CURLMcode aasa_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

#pragma clang assume_nonnull end

#endif
