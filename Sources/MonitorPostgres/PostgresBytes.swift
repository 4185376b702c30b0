import Foundation
import NIOCore

extension Data {
    /// The bytes as a `bytea` parameter: postgres-nio encodes a `ByteBuffer` without throwing (a `Data` it may
    /// not), so a query built with it stays in this module's typed errors.
    var bytea: ByteBuffer { ByteBuffer(bytes: self) }
}
