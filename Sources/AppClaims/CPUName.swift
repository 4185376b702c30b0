/// Architecture names for `cputype`/`cpusubtype` (`mach/machine.h`), as `lipo` prints them, to name slices.
enum CPUName {
    static func name(cpuType: UInt32, cpuSubtype: UInt32) -> String {
        let abi64: UInt32 = 0x0100_0000
        let abi64_32: UInt32 = 0x0200_0000
        switch cpuType {
        case 7: return "i386"
        case 7 | abi64: return (cpuSubtype & 0xff) == 8 ? "x86_64h" : "x86_64"
        case 12: return "arm"
        case 12 | abi64: return (cpuSubtype & 0xff) == 2 ? "arm64e" : "arm64"
        case 12 | abi64_32: return "arm64_32"
        case 18: return "ppc"
        case 18 | abi64: return "ppc64"
        default: return "cputype \(cpuType)"
        }
    }
}
