// Brings libcurl's public header into Swift as the `CCurl` module. Only `CurlShims` and `HTTPEngine` import it,
// and `HTTPEngine` does so `internal`, so no libcurl type appears in a public signature.
#include <curl/curl.h>
