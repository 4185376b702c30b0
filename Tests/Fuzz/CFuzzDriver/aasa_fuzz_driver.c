// Nothing to compile: the target exists for its header, and SwiftPM wants one source file in a C target.
#include "aasa_fuzz_driver.h"
