import CFuzzDriver
import FuzzChecks
import Glibc

// libFuzzer's driver on the YAML configuration loader (`FuzzTarget.configuration`).
var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(
    LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        FuzzTarget.configuration.run(data, size)
        return 0
    })
