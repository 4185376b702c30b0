import CFuzzDriver
import FuzzChecks
import Glibc

// libFuzzer's driver on the app reader: Mach-O, code signature, property lists, archives (`FuzzTarget.app`).
var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(
    LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        FuzzTarget.app.run(data, size)
        return 0
    })
