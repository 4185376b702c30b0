import CFuzzDriver
import FuzzChecks
import Glibc

// libFuzzer's driver on the URL matcher against a reference matcher (`FuzzTarget.matcher`).
var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(
    LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        FuzzTarget.matcher.run(data, size)
        return 0
    })
