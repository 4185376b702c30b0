import AASA

extension FindingCode {
    /// The codes about how an origin answered, raised by evaluation (the body codes are in `FindingCode.body`).
    public static let origin: [FindingCode] = [
        .originDNS, .originConnect, .originTimeout, .originTLSUntrusted, .originTLSExpired, .originTLSHostname,
        .originTLSProtocol, .originFetch, .originTLSExpiring, .originRedirect, .originStatus, .originContentType,
        .originBotBlocked, .originRootOnly, .originRootDiffers, .originSlow, .originPrivateAddress,
        .originAppleFailure,
    ]

    public static let originDNS = FindingCode(
        .origin, "dns", severity: .error,
        meaning: "The domain's name does not resolve.",
        whyAppleCares: "Apple's CDN cannot reach the origin, so it serves no file (or keeps an old one until it "
            + "expires).",
        fix: "Publish DNS records for the domain (A/AAAA) that resolve publicly.",
        example: "the name does not resolve: publish an A/AAAA record for it (Could not resolve host: example.com)")

    public static let originConnect = FindingCode(
        .origin, "connect", severity: .error,
        meaning: "The connection was refused, reset or unreachable.",
        whyAppleCares: "Apple's CDN cannot fetch the file from a server it cannot connect to.",
        fix: "Make the server accept HTTPS connections on port 443 from the internet.",
        example: "the connection was refused or reset: open port 443 to the internet (Connection refused)")

    public static let originTimeout = FindingCode(
        .origin, "timeout", severity: .error,
        meaning: "No complete answer within the configured time.",
        whyAppleCares: "Apple's fetcher gives up after about 5 s (SWCERR00301 Timeout) and serves no file.",
        fix: "Make the server answer the file in well under 5 seconds; check firewalls and load.",
        example: "no complete answer in time: Apple's fetcher gives up after about 5 s")

    public static let originTLSUntrusted = FindingCode(
        .origin, "tls.untrusted", severity: .error,
        meaning: "The certificate chain does not lead to a trusted root (self-signed, unknown CA, missing "
            + "intermediate).",
        whyAppleCares: "Apple fetches only over HTTPS with a certificate it trusts; anything else is no file.",
        fix: "Serve the full certificate chain from a public CA (include the intermediates).",
        example: "the certificate chain does not lead to a trusted root: serve the full chain from a public CA")

    public static let originTLSExpired = FindingCode(
        .origin, "tls.expired", severity: .error,
        meaning: "The certificate is expired or not yet valid.",
        whyAppleCares: "Apple refuses the connection, so its CDN gets no file.",
        fix: "Renew the certificate now and reload the server.",
        example: "the certificate is expired or not yet valid: renew it")

    public static let originTLSHostname = FindingCode(
        .origin, "tls.hostname", severity: .error,
        meaning: "The certificate does not cover the domain.",
        whyAppleCares: "Apple verifies the name like a browser does and refuses a certificate for another name.",
        fix: "Serve a certificate whose names cover this domain.",
        example: "the certificate does not cover this domain: add the name to its SANs")

    public static let originTLSProtocol = FindingCode(
        .origin, "tls.protocol", severity: .error,
        meaning: "The TLS handshake failed for another reason (e.g. no TLS 1.2 or newer).",
        whyAppleCares: "Apple's fetcher needs TLS 1.2 or newer with a modern cipher; without a handshake there is no "
            + "file.",
        fix: "Enable TLS 1.2 or later with modern cipher suites.",
        example: "the TLS handshake failed: offer TLS 1.2 or newer with a modern cipher")

    public static let originFetch = FindingCode(
        .origin, "fetch", severity: .error,
        meaning: "The fetch failed in a way not covered by another code (a connection dropped mid-answer, an HTTP/2 "
            + "error).",
        whyAppleCares: "Apple's fetcher would likely fail the same way and serve no file.",
        fix: "Fetch the URL with curl -v to see where it breaks, then fix the server or proxy in front of it.",
        example: "the fetch failed (HTTP/2 stream 1 was not closed cleanly)")

    public static let originTLSExpiring = FindingCode(
        .origin, "tls.expiring", severity: .warning, escalatesTo: .error,
        meaning: "The certificate is valid but expires within the configured window (default 14 days); an error in "
            + "its last days.",
        whyAppleCares: "Once it expires Apple's CDN stops refreshing the file and devices lose the links.",
        fix: "Renew the certificate before it expires (check your auto-renewal).",
        example: "the certificate expires in 6 days (2026-11-29T12:00:00Z): renew it before Apple's next fetch fails")

    public static let originRedirect = FindingCode(
        .origin, "redirect", severity: .error,
        meaning: "The file's URL answers a 3xx redirect (the detail carries the status and absolute Location).",
        whyAppleCares: "Apple does not follow redirects for the association file (TN3155).",
        fix: "Serve the file directly with 200: Apple does not follow redirects.",
        example: "answers 301 → https://www.example.com/.well-known/apple-app-site-association")

    public static let originStatus = FindingCode(
        .origin, "status", severity: .error,
        meaning: "The file's URL answers a status other than 200 or a redirect.",
        whyAppleCares: "Apple needs 200; its CDN then answers 404 to every device (SWCERR00101 Bad HTTP Response).",
        fix: "Serve the file at /.well-known/apple-app-site-association with status 200.",
        example: "answers 404 instead of 200: serve the file at this URL")

    public static let originContentType = FindingCode(
        .origin, "content_type", severity: .warning, concernsContent: true,
        meaning: "Content-Type is not application/json (parameters allowed) or application/pkcs7-mime.",
        whyAppleCares: "Apple's guide asks for application/json; the CDN accepts others today, which may change.",
        fix: "Serve the file with Content-Type: application/json.",
        example: "Content-Type is 'text/html'; serve application/json")

    public static let originBotBlocked = FindingCode(
        .origin, "bot_blocked", severity: .error,
        meaning: "Apple's fetcher user agent (AASA-Bot/1.0.0) gets a different status or document than a plain client.",
        whyAppleCares: "A WAF or bot rule answers Apple's fetcher with 403, so Apple's CDN serves 404 while browsers "
            + "see the file.",
        fix: "Allow Apple's fetcher (user agent AASA-Bot/1.0.0) through your WAF or bot rules.",
        example: "Apple's fetcher (AASA-Bot/1.0.0) gets 403 while a plain client gets 200: a WAF or bot rule "
            + "treats Apple differently (Cloudflare Bot Fight Mode is a known one)")

    public static let originRootOnly = FindingCode(
        .origin, "root_only", severity: .error,
        meaning: "/.well-known/apple-app-site-association fails but the legacy root path serves a file.",
        whyAppleCares: "Apple's CDN reads only the .well-known path; the root copy is never used.",
        fix: "Serve the file at /.well-known/apple-app-site-association; Apple reads only that path.",
        example: "only the root path /apple-app-site-association serves a valid file, but Apple's CDN reads "
            + "/.well-known/apple-app-site-association")

    public static let originRootDiffers = FindingCode(
        .origin, "root_differs", severity: .warning,
        meaning: "Both paths serve valid files that differ in meaning.",
        whyAppleCares: "Apple reads .well-known; tools and people reading the root copy see other rules.",
        fix: "Serve the same file at both paths, or remove the legacy root copy.",
        example: "the root file lists ABCDE12345.com.example.old, .well-known does not")

    public static let originSlow = FindingCode(
        .origin, "slow", severity: .warning, escalatesTo: .error,
        meaning:
            "A complete answer took longer than 4 s (a warning), or longer than Apple's fetch budget "
            + "(`http.apple_budget`, default 5 s: an error, the verdict is origin_broken).",
        whyAppleCares: "Apple's fetcher is believed to give up near 5 s (SWCERR00301 Timeout).",
        fix: "Speed up the answer (cache the file, serve it statically); Apple gives up near 5 s.",
        example: "the answer took 4.6 s; Apple's fetcher gives up near 5 s (SWCERR00301 Timeout)")

    public static let originPrivateAddress = FindingCode(
        .origin, "private_address", severity: .error,
        meaning: "The origin's connected address is private or reserved (not raised behind a connect-to mapping).",
        whyAppleCares: "Apple's CDN refuses private and reserved addresses (SWCERR00202).",
        fix: "Make the domain resolve to a public address Apple's CDN can reach.",
        example: "the name resolves to 10.0.0.5, a private or reserved address Apple refuses (SWCERR00202)")

    public static let originAppleFailure = FindingCode(
        .origin, "apple_failure", severity: .error,
        meaning:
            "Apple's CDN has no copy and its Apple-Failure-Reason blames the origin (a bad status, a timeout, a "
            + "private address, bad content), although nothing we observed explains it. When our own fetch saw "
            + "the problem (origin.json for HTML served with 200, origin.timeout, origin.status…), that finding is "
            + "the cause, Apple's reason is cited under it (cdn.missing), and this code is not raised. Nor is it "
            + "when Apple cached its answer before the origin's file last changed (its Last-Modified, or a change "
            + "the daemon saw): Apple's reason is then about the file as it was, and cdn.missing says so.",
        whyAppleCares:
            "Apple's fetcher is the only client whose view counts; it comes from Apple's network with its own user "
            + "agent, so a geo or IP firewall, or an origin slow for Apple only, is invisible to other clients.",
        fix: "Do what Apple's reason says: allow Apple's network and AASA-Bot/1.0.0, make the file answer fast.",
        example: "Apple's CDN reports SWCERR00301 Timeout: our own fetch got 200 in 3.1 s; Apple gave up")
}
