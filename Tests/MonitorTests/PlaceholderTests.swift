import Monitor
import Testing

@Suite("Monitor module")
struct MonitorModuleTests {
    @Test("re-exports the pure core")
    func reexports() {
        #expect(Verdict.ready.exitCode == 0)
    }
}
