import AASA

extension FindingCode {
    /// The monitor's own conditions (`MonitorConditions`): trouble of this host or process, one alert of the
    /// monitor instead of one per domain. Domain findings name `monitor.network` or `monitor.cdn_unreachable` as
    /// their cause (`caused_by`) and never alert on their own meanwhile.
    public static let monitor: [FindingCode] = [
        .monitorCDNUnreachable, .monitorNetwork, .monitorResources, .monitorStore,
    ]

    public static let monitorCDNUnreachable = FindingCode(
        .monitor, "cdn_unreachable", severity: .error,
        meaning: "Apple's CDN could not be reached from this host in the last 3 checks that asked it.",
        whyAppleCares: "Nothing is known of Apple's copies meanwhile: the domains' CDN alerts are held, neither fired "
            + "nor resolved.",
        fix: "Check this host's outbound HTTPS, proxy and DNS towards app-site-association.cdn-apple.com.",
        example: "Apple's CDN cannot be reached from this host (timeout): the last 3 checks got no answer from it")

    public static let monitorNetwork = FindingCode(
        .monitor, "network", severity: .error,
        meaning: "This host's network fails: an origin and Apple's CDN host both fail DNS or connect in one check, or "
            + "at least 3 domains and half of them do at once.",
        whyAppleCares: "A failure of the monitor's own network says nothing about the domains: their origin alerts "
            + "are held until it recovers.",
        fix: "Check this host's DNS resolver, routes and firewall.",
        example: "12 of 20 domains fail DNS or connect at once: this host's network is the likelier cause")

    public static let monitorResources = FindingCode(
        .monitor, "resources", severity: .error,
        meaning: "A check ended while this process lacked file descriptors or memory (EMFILE, ENFILE, ENOMEM).",
        whyAppleCares: "That check says nothing about the domain and is thrown away, never a domain finding.",
        fix: "Raise the service's LimitNOFILE or memory, or check fewer domains at once.",
        example: "a check ended without file descriptors (EMFILE): the check is discarded")

    public static let monitorStore = FindingCode(
        .monitor, "store", severity: .error,
        meaning: "The state database could not commit (full disk, unwritable or deleted file, a lock held elsewhere).",
        whyAppleCares: "Checks go on, but what they found is not kept until the database commits again.",
        fix: "Free disk space, or fix the state directory's permissions or the process holding its lock.",
        example: "the state database cannot commit: disk I/O error (database or disk is full)")
}
