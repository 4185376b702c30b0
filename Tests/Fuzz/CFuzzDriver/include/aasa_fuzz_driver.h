#ifndef AASA_FUZZ_DRIVER_H
#define AASA_FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt's FuzzerInterface.h, LLVM 13 and later): parses libFuzzer's options from argv and
/// fuzzes `callback`. The fuzz targets call it from their own main because SwiftPM links every executable with
/// `--defsym main=<target>_main`, so libFuzzer's main can never be the entry point.
int LLVMFuzzerRunDriver(int *_Nonnull argc, char *_Nullable *_Nonnull *_Nonnull argv,
                        int (*_Nonnull callback)(const uint8_t *_Nullable data, size_t size));

#endif
