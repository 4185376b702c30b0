// Brings zlib's public header into Swift as the `StoreZlib` module (ZIPFoundation names its own `CZlib`). Only the
// store's JSON columns import it, `internal`: raw deflate with a preset dictionary, which the mirror's zlib wrapper
// (compress-nio) does not offer.
#include <zlib.h>
