/// "What to do" for each finding code of check-codes.md: one short instruction a person can act on.
public enum FixAdvice {
    /// The advice for `code`; codes without their own entry get their prefix's advice, then a general line.
    public static func text(for code: String) -> String {
        if let advice = byCode[code] { return advice }
        if code.hasPrefix("origin.tls.") { return "Fix the certificate served for the domain." }
        if code.hasPrefix("origin.") { return "Fix how the origin serves /.well-known/apple-app-site-association." }
        if code.hasPrefix("aasa.") { return "Fix the association file's content and redeploy it." }
        if code.hasPrefix("cdn.") { return "Check the origin, then wait for Apple's CDN to refresh." }
        if code.hasPrefix("expect.") { return "Update the association file or the expectation so they agree." }
        return "Run `aasa-monitor check` on the domain for details."
    }

    /// Every code in check-codes.md, so a new code without advice shows up in review (a test checks coverage).
    static let byCode: [String: String] = [
        "origin.dns": "Publish DNS records for the domain (A/AAAA) that resolve publicly.",
        "origin.connect": "Make the server accept HTTPS connections on port 443 from the internet.",
        "origin.timeout": "Make the server answer the file in well under 5 seconds; check firewalls and load.",
        "origin.tls.untrusted": "Serve the full certificate chain from a public CA (include the intermediates).",
        "origin.tls.expired": "Renew the certificate now and reload the server.",
        "origin.tls.hostname": "Serve a certificate whose names cover this domain.",
        "origin.tls.protocol": "Enable TLS 1.2 or later with modern cipher suites.",
        "origin.tls.expiring": "Renew the certificate before it expires (check your auto-renewal).",
        "origin.redirect": "Serve the file directly with 200: Apple does not follow redirects.",
        "origin.status": "Serve the file at /.well-known/apple-app-site-association with status 200.",
        "origin.too_large": "Shrink the file below 128 KB (merge rules, drop unused entries).",
        "origin.content_type": "Serve the file with Content-Type: application/json.",
        "origin.bom": "Save the file as UTF-8 without a byte order mark.",
        "origin.json": "Deploy a valid JSON document (validate it with `aasa-monitor lint`).",
        "origin.signed": "Nothing required; consider serving plain JSON instead of a signed file.",
        "origin.bot_blocked": "Allow Apple's fetcher (user agent AASA-Bot/1.0.0) through your WAF or bot rules.",
        "origin.root_only": "Serve the file at /.well-known/apple-app-site-association; Apple reads only that path.",
        "origin.root_differs": "Serve the same file at both paths, or remove the legacy root copy.",
        "origin.slow": "Speed up the answer (cache the file, serve it statically); Apple gives up near 5 s.",
        "origin.private_address": "Make the domain resolve to a public address Apple's CDN can reach.",
        "aasa.no_services": "Add an `applinks` (or other service) section to the file.",
        "aasa.type": "Give the key the JSON type Apple expects (see the detail's path).",
        "aasa.appid_format": "Write app IDs as TEAMID.bundle.id (10 characters, a dot, the bundle ID; no spaces).",
        "aasa.mixed_formats": "Use `components` only; iOS 13+ ignores `paths` when both are present.",
        "aasa.query_not_string": "Make every query pattern a string; Apple ignores the whole dictionary otherwise.",
        "aasa.unknown_key": "Fix the key's spelling or remove it; Apple ignores unknown keys silently.",
        "aasa.unreachable_rule": "Reorder or remove the rule; an earlier rule already matches everything it would.",
        "aasa.exclude_matches_all": "Narrow the exclude rule; as written it excludes every URL.",
        "aasa.undefined_variable": "Define the variable under `substitutionVariables` or fix its name.",
        "aasa.legacy_apps": "Remove the legacy `apps` array, or leave it empty.",
        "aasa.duplicate_key": "Remove the repeated key so every parser reads the same value.",
        "cdn.unreachable": "Nothing to fix on the domain; the check retries when Apple's CDN answers again.",
        "cdn.missing": "Fix the origin per Apple's reason, then wait for the CDN to fetch it again.",
        "cdn.stale": "Wait for Apple's CDN to refresh (see the expected refresh); devices see the old file until then.",
        "cdn.only": "Fix the origin now: devices work only until Apple's CDN refreshes its copy.",
        "cdn.invalid": "Fix the origin's file; Apple's copy is not a valid document.",
        "expect.app_missing": "Add the app ID to the file, or correct the expectation.",
        "expect.url": "Change the file's rules so the URL gets the expected decision, or correct the expectation.",
    ]
}
