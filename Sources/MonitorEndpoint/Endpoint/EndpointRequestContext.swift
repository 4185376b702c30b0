import Hummingbird
import NIOCore

/// The endpoint's request context: Hummingbird's basic one plus the client's address, which the password check
/// needs to limit failed attempts per client (`AuthAttempts`).
struct EndpointRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
