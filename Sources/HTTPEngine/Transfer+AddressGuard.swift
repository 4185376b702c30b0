internal import CCurl
internal import CurlShims

#if canImport(Glibc)
    import Glibc
#endif

extension Transfer {
    /// Installs the checks of `HTTPRequest.refusedAddresses`, when it names any block, and of the engine's
    /// `descriptorReserve`, when it has one.
    ///
    /// Two of libcurl's callbacks see the address actually used, after DNS, connect-to and happy eyeballs:
    /// CURLOPT_OPENSOCKETFUNCTION runs instead of `socket(2)` for every address libcurl tries, so a refused one
    /// gets no socket and not a single packet (libcurl tries the next address, if any); CURLOPT_PREREQFUNCTION runs
    /// before the request is sent, on a new or a reused connection, so a connection opened earlier for another
    /// request cannot carry this one to a refused address either (curl_easy_setopt(3), 7.80+).
    func setAddressGuard(userdata: UnsafeMutableRawPointer) throws(HTTPEngineError) {
        let refusesAddresses = !ticket.request.refusedAddresses.isEmpty
        guard refusesAddresses || descriptorReserve > 0 else { return }
        try check(
            aasa_curl_easy_setopt_opensocket(easy) { clientp, _, address in
                guard let clientp, let address else { return aasa_curl_socket_bad }
                let transfer = Unmanaged<Transfer>.fromOpaque(clientp).takeUnretainedValue()
                return transfer.openSocket(address)
            }, "OPENSOCKETFUNCTION")
        try check(aasa_curl_easy_setopt_ptr(easy, CURLOPT_OPENSOCKETDATA, userdata), "OPENSOCKETDATA")
        guard refusesAddresses else { return }
        try check(
            aasa_curl_easy_setopt_prereq(easy) { clientp, primaryIP, _, _, _ in
                guard let clientp, let primaryIP else { return aasa_curl_prereq_abort }
                let transfer = Unmanaged<Transfer>.fromOpaque(clientp).takeUnretainedValue()
                return transfer.admits(String(cString: primaryIP)) ? aasa_curl_prereq_ok : aasa_curl_prereq_abort
            }, "PREREQFUNCTION")
        try check(aasa_curl_easy_setopt_ptr(easy, CURLOPT_PREREQDATA, userdata), "PREREQDATA")
    }

    /// The block of `refusedAddresses` that `address` lies in, or `nil`.
    func refusedBlock(for address: IPAddress) -> AddressBlock? {
        ticket.request.refusedAddresses.first { $0.contains(address) }
    }

    /// socket(2) for an address libcurl is about to connect to, or `CURL_SOCKET_BAD` when it is refused.
    private func openSocket(_ address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
        let family = address.pointee.family
        if let ip = Self.ipAddress(of: address) {
            if let block = refusedBlock(for: ip) {
                refused = RefusedConnection(address: ip, block: block)
                return aasa_curl_socket_bad
            }
        } else if family == AF_INET || family == AF_INET6 {
            return aasa_curl_socket_bad  // An IP address we cannot read is not one we can vouch for.
        }
        // libcurl moved on to an admitted address: an earlier refusal no longer explains how this transfer ends (a
        // later TLS error or timeout is retried as such, not dead-lettered as refused).
        refused = nil
        // Below the reserve the socket would take a descriptor the runtime may need; the request fails instead,
        // and says why, so that the caller blames this process and not the server.
        if descriptorReserve > 0 {
            let free = ProcessDescriptors.free() ?? 0
            guard free > descriptorReserve else {
                descriptorShortage = free
                return aasa_curl_socket_bad
            }
        }
        descriptorShortage = nil
        // Close-on-exec, which libcurl 7.88's own socket() call does not ask for.
        return socket(family, address.pointee.socktype | Int32(SOCK_CLOEXEC.rawValue), address.pointee.`protocol`)
    }

    /// Whether the connection to `primaryIP` (libcurl's text for it) may carry the request.
    private func admits(_ primaryIP: String) -> Bool {
        guard let ip = IPAddress(primaryIP) else { return false }
        guard let block = refusedBlock(for: ip) else {
            refused = nil
            return true
        }
        refused = RefusedConnection(address: ip, block: block)
        return false
    }

    /// The IPv4 or IPv6 address in libcurl's `curl_sockaddr`, whose `addr` member is really a `sockaddr_in` or
    /// `sockaddr_in6` of `addrlen` bytes.
    private static func ipAddress(of address: UnsafeMutablePointer<curl_sockaddr>) -> IPAddress? {
        guard let offset = MemoryLayout<curl_sockaddr>.offset(of: \.addr) else { return nil }
        let raw = UnsafeRawPointer(address) + offset
        let length = Int(address.pointee.addrlen)
        switch address.pointee.family {
        case AF_INET where length >= MemoryLayout<sockaddr_in>.size:
            let socketAddress = raw.loadUnaligned(as: sockaddr_in.self)
            return withUnsafeBytes(of: socketAddress.sin_addr) { IPAddress(bytes: Array($0)) }
        case AF_INET6 where length >= MemoryLayout<sockaddr_in6>.size:
            let socketAddress = raw.loadUnaligned(as: sockaddr_in6.self)
            return withUnsafeBytes(of: socketAddress.sin6_addr) { IPAddress(bytes: Array($0)) }
        default:
            return nil
        }
    }
}
