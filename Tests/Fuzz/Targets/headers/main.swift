import CFuzzDriver
import FuzzChecks
import Glibc

// libFuzzer's driver on header lines and CDN and origin response headers (`FuzzTarget.headers`).
var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(
    LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        FuzzTarget.headers.run(data, size)
        return 0
    })
