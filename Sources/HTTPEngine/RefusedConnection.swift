/// A connection the engine would not make: the address it was about to connect to (after DNS, connect-to rules
/// and any reuse) lies in one of the request's `refusedAddresses`.
public struct RefusedConnection: Sendable, Hashable, CustomStringConvertible {
    /// The address that was refused.
    public var address: IPAddress
    /// The block it lies in.
    public var block: AddressBlock

    public init(address: IPAddress, block: AddressBlock) {
        self.address = address
        self.block = block
    }

    /// `169.254.169.254 (link-local 169.254.0.0/16)`.
    public var description: String { "\(address) (\(block))" }
}
