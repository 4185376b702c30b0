/// The preset dictionary of the store's compressed JSON columns (`StoreCoding`, format byte 1).
///
/// Never edit it: every stored row of format 1 was deflated against these exact bytes and inflates only with them
/// (raw deflate carries no dictionary id, so a changed dictionary would read back garbage, not fail). A better
/// dictionary needs a new format byte beside this one. `StoreCodingTests` pins its length and SHA-256.
///
/// What it holds: the vocabulary of `DomainReport`, `DomainState`, `AlertState` and timeline details as
/// `StoreCoding` writes them (sorted keys, escaped slashes, dates as seconds), taken from real reports of a ready,
/// a broken and a stale domain with hashes, domain names and times removed. Deflate codes near matches in fewer
/// bits, so the most frequent text (a ready domain's report and state) comes last.
package enum StoreDictionary {
    package static let bytes: [UInt8] = Array(text.utf8)

    // Each line ends in `\`, which joins it to the next: the text has no line breaks.
    private static let text = """
        "diff":{"can_change_behavior":true,"changes":[{"affects_behavior":true,"after":"",\
        "app":"","index":0,"kind":"rule_added","path":"$.applinks.details[0].components[0]",\
        "service":"applinks","summary":""}],"hash_a":"sha256:","hash_b":"sha256:","same_meaning":false}\
        ,"findings":[{"caused_by":null,"code":"cdn.stale","detail":{"cdn_hash":"sha256:",\
        "changes":[""],"changes_total":1,"expected_refresh":"2026-","origin_hash":"sha256:",\
        "since":"2026-","stale_seconds":0},"message":"Apple's copy differs from the origin (); its cached copy expir\
        es"}],"change_count":1,"from":"sha256:"}{"staleSince":17,"expectedRefresh":17,"pendingPropagation":{"changed\
        At":17},"lastPropagationDelay":{"firing":{"alert":{"detail":{},"flapping":false,\
        "last_notified_at":17,"message":"","recent_firings":[17],"severity":"error","since":17}\
        }}{"resolved":{"at":17,"recent_firings":[17]}}{"pending":{"answers 404 instead of 200: serve the file at thi\
        s URL","Apple never follows redirects","error":"timeout","error_message":"Operation timed out after 10000 mi\
        lliseconds","error":"tls","error":"connect"{"from":null,"to":"origin_broken"}{"from":"ready",\
        "to":"cdn_stale"}{"origin_hash":"sha256:"}{"cdn":{"apple_from":[],"headers":{},"total_seconds":0.00,\
        "url":"https:\\/\\/app-site-association.cdn-apple.com\\/a\\/v1\\/"},"findings":[{"caused_by":null,\
        "code":"origin.dns","detail":{"error":"Could not resolve host: ","url":"https:\\/\\/\\/.well-known\\/apple-a\
        pp-site-association"},"message":"the name does not resolve: publish an A\\/AAAA record for it (Could not res\
        olve host: )","severity":"error","source":"origin.well-known","subject":""},{"caused_by":{"code":"origin.dns\
        ","relation":"consequence","source":"origin.well-known"},"code":"cdn.unreachable",\
        "detail":{"error":"dns","error_message":"Could not resolve host: app-site-association.cdn-apple.com"}\
        ,"message":"Apple's CDN could not be asked (dns: ); this says nothing about the domain \u{2014} the next che\
        ck asks again","severity":"warning","source":"cdn","subject":""}],"verdict":"origin_broken"}\
        {"domain":"","lastCheck":17,"lastDuration":0.00,"openFindings":[{"key":{"code":"origin.dns",\
        "source":"origin.well-known","subject":""},"message":"","severity":"error","since":17}\
        ],"verdict":"origin_broken","verdictSince":17{"cdn":{"age":0,"apple_from":[],"canonical_hash":"sha256:",\
        "expected_refresh":17,"headers":{"age":"0","cache-control":"max-age=3600","date":"Mon, 23 Nov 2026 10:38:47 \
        GMT"},"max_age":3600,"status":200,"total_seconds":0.00,"url":"https:\\/\\/app-site-association.cdn-apple.com\
        \\/a\\/v1\\/"},"checked_at":17,"domain":"","duration":0.0,"findings":[],"origin":{"plain_status":200,\
        "root":{"body_bytes":0,"http_version":"2","primary_ip":"127.0.0.1","signed":false,\
        "status":404,"total_seconds":0.00,"url":"https:\\/\\/\\/apple-app-site-association"}\
        ,"well_known":{"body_bytes":,"canonical_hash":"sha256:","certificate":{"issuer":"CN=R11,\
        O=Let's Encrypt,C=US","not_after":18,"not_before":17,"subject":"CN=","subject_alternative_names":[""]}\
        ,"content_type":"application\\/json","http_version":"2","primary_ip":"","signed":false,\
        "status":200,"total_seconds":0.00,"url":"https:\\/\\/\\/.well-known\\/apple-app-site-association"}\
        },"verdict":"ready"}{"cdnHash":"sha256:","cdnInSync":true,"certificateNotAfter":18,\
        "domain":"","lastCDNCheck":17,"lastCheck":17,"lastDuration":0.0,"openFindings":[],\
        "originHash":"sha256:","originHashSince":17,"verdict":"ready","verdictSince":17
        """
}
