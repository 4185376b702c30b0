import CFuzzDriver
import FuzzChecks
import Glibc

// libFuzzer's driver on AASA parse, lint, canonical form and diff (`FuzzTarget.aasa`).
var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(
    LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        FuzzTarget.aasa.run(data, size)
        return 0
    })
