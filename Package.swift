// swift-tools-version: 6.2
import PackageDescription

/// Settings every target of ours shares: Swift 6 mode comes from the tools version; these make the compiler stricter.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .treatAllWarnings(as: .error),
]

/// How every release build links `aasa-monitor`: the README's from-source `swift run -c release` and the binary
/// `build-deb` packages are then one build in `.build/release` (issue 23 item 15: build-deb compiled everything a
/// second time in a folder of its own, about 12 minutes on 2 cores).
let releaseLinkerFlags = [
    // The Swift runtime and Foundation linked statically: the package's target machine has no toolchain.
    "-static-stdlib",
    // Full RELRO: relocations resolved at start-up, then read-only, as Debian's hardening flags do.
    "-Xlinker", "-z", "-Xlinker", "relro", "-Xlinker", "-z", "-Xlinker", "now",
    // The toolchain's lld, for packed relative relocations (DT_RELR, read by glibc ≥ 2.36): gold writes ~130,000 of
    // them as a 3 MB table that start-up reads and every running daemon keeps resident (measured: 2.8 MB less RSS).
    "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
    // SwiftPM exports every symbol of an executable (43,000: a 4 MB symbol table that start-up searches) so that
    // backtraces can name functions; a binary without the toolchain prints none anyway. 2.8 MB less RSS.
    "-Xlinker", "--no-export-dynamic",
]

let package = Package(
    name: "aasa-monitor",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "aasa-monitor", targets: ["aasa-monitor"]),
        .executable(name: "aasa-bench", targets: ["aasa-bench"]),
        .library(name: "AASA", targets: ["AASA"]),
        .library(name: "HTTPEngine", targets: ["HTTPEngine"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        .target(
            name: "AASA",
            dependencies: [
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        // libidn2, the IDNA library libcurl already links: domain names become A-labels (Punycode) with it.
        .systemLibrary(
            name: "CIDN2",
            pkgConfig: "libidn2",
            providers: [.apt(["libidn2-dev"])]
        ),
        // zlib: the store compresses its JSON columns with raw deflate and a preset dictionary (StoreDictionary).
        // Hand-written binding: compress-nio, the mirror's zlib wrapper, cannot set a preset dictionary.
        .systemLibrary(
            name: "StoreZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // The pure rules of one check: the configuration file, findings and their codes, evaluation of an
        // observation into a report, expectations and domain names. Takes values, returns values; no I/O. The fuzz
        // targets import only this (and AASA): the configuration and header parsers are here.
        .target(
            name: "MonitorEvaluation",
            dependencies: [
                "AASA",
                "CIDN2",
                .product(name: "Yams", package: "Yams"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        // The pure core of the monitor over time: the alert state machine, the ledger and book, timelines,
        // silences, webhook formats, the schedule and the daemon's core (`DaemonCore`). No I/O.
        .target(
            name: "MonitorCore",
            dependencies: [
                "AASA",
                "MonitorEvaluation",
                .product(name: "Crypto", package: "swift-crypto"),
                // The scheduler's queue of due checks: the next one in O(log n), not a scan of every domain.
                .product(name: "HeapModule", package: "swift-collections"),
            ],
            swiftSettings: strict
        ),
        // The daemon's journal: the SQLite store (GRDB) of states, runs, alert states, the outbox and silences, and
        // the readers `status`, `history`, the pages and the API share.
        .target(
            name: "MonitorStore",
            dependencies: [
                "MonitorCore",
                "MonitorEvaluation",
                // Runs and alert states name their findings by `FindingCode`.
                "AASA",
                // The JSON columns are compressed with raw deflate and a preset dictionary (StoreDictionary).
                "StoreZlib",
                .product(name: "GRDB", package: "GRDB.swift"),
                // For SQLite's own result codes and `sqlite3_*` calls GRDB does not wrap (full disk, file checks).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: strict
        ),
        // The cluster's shared store on PostgreSQL (issue 34): the journal, domain leases and fencing, the outbox's
        // claims, silences and the nodes' liveness, judged by the database's clock. The daemon links it (`store:
        // postgres:`); the fuzz targets do not compile PostgresNIO.
        .target(
            name: "MonitorPostgres",
            dependencies: [
                "AASA", "MonitorCore", "MonitorEvaluation", "MonitorStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strict
        ),
        // A domain checked once: the probe (libcurl through HTTPEngine), `check`'s runner and output, the configuration
        // file as read from disk, and the apps whose claims name domains.
        .target(
            name: "MonitorCheck",
            dependencies: [
                "MonitorCore",
                "MonitorEvaluation",
                "AASA",
                // The domains an app file (.ipa, .app, …) claims, for `apps:` in the configuration and `check --app`.
                "AppClaims",
                "HTTPEngine",
                // To check that a configured CA file holds PEM certificates before anything relies on it.
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: strict
        ),
        // What `status`, `history` and `silence` print and the endpoint serves, read from the store: the readers the
        // CLI and the endpoint share.
        .target(
            name: "MonitorStatus",
            dependencies: [
                "MonitorCore",
                "MonitorEvaluation",
                // The journal it reads.
                "MonitorStore",
                // Findings are shown by their `FindingCode`.
                "AASA",
            ],
            swiftSettings: strict
        ),
        // The HTTP endpoint: the status pages, the JSON API (with its OpenAPI document), the badge and the metrics.
        .target(
            name: "MonitorEndpoint",
            dependencies: [
                "MonitorCore",
                "MonitorEvaluation",
                // The readers the pages and the API share with `status` and `history`.
                "MonitorStatus",
                "MonitorStore",
                "AASA",
                // The connection gate counts this process's free descriptors (`ProcessDescriptors`).
                "HTTPEngine",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                // For the bound address of the endpoint's channel (port 0 in tests).
                .product(name: "NIOCore", package: "swift-nio"),
                // The endpoint reads each request's HTTP version, which Hummingbird's request type drops.
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            // The OpenAPI document, compiled in as bytes (`PackageResources.openapi_json`): no bundle beside the binary.
            resources: [.embedInCode("Endpoint/openapi.json")],
            swiftSettings: strict,
            // libcrypt (libxcrypt, part of libc6-dev) verifies the bcrypt and SHA-crypt hashes of basic_auth_file.
            linkerSettings: [.linkedLibrary("crypt")]
        ),
        // The daemon: scheduler, delivery of webhooks, housekeeping, systemd notification; it runs the endpoint.
        .target(
            name: "MonitorDaemon",
            dependencies: [
                "MonitorCore",
                "MonitorEvaluation",
                "MonitorCheck",
                "MonitorEndpoint",
                "MonitorStatus",
                "MonitorStore",
                "MonitorPostgres",
                "AASA",
                "HTTPEngine",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                // Why the endpoint could not bind its socket (`IOError`'s errno), said at start-up.
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            // The daemon's architecture note is for readers, not the build.
            exclude: ["Daemon/README.md"],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "aasa-monitor",
            dependencies: [
                "AASA",
                "AppClaims",
                "MonitorCore",
                "MonitorEvaluation",
                "MonitorDaemon",
                "MonitorCheck",
                "MonitorEndpoint",
                "MonitorStatus",
                "MonitorStore",
                "MonitorPostgres",
                "HTTPEngine",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // Compiled against the static runtime too (release): its modules' autolink entries then name everything
            // static Foundation needs (_FoundationICU, …), as `swift build --static-swift-stdlib` does.
            swiftSettings: strict + [
                .unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))
            ],
            linkerSettings: [
                // jemalloc allocates for the daemon: with glibc's malloc, 16% of its CPU at 100,000 domains went to
                // walking and merging the free lists of a fragmented 130 MB heap (2.16 against 1.79 ms per check,
                // aasa-bench daemon). Linked before libc, its malloc is the process's (`ProcessHeap`).
                .linkedLibrary("jemalloc", .when(platforms: [.linux])),
                .unsafeFlags(releaseLinkerFlags, .when(platforms: [.linux], configuration: .release)),
            ]
        ),
        // libcurl itself: pkg-config supplies the include and link flags; the modulemap exposes <curl/curl.h>.
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // Typed, non-variadic wrappers over libcurl's variadic API (Swift cannot call C varargs), plus global init.
        .target(
            name: "CurlShims",
            dependencies: ["CCurl"],
            linkerSettings: [.linkedLibrary("dl")]
        ),
        .target(
            name: "HTTPEngine",
            dependencies: [
                "CurlShims",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: strict
        ),
        // In-process HTTPS fixture servers and a PKI minted at test time; for tests and benchmarks only.
        .target(
            name: "TestSupport",
            dependencies: [
                "MonitorEvaluation",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            path: "Tests/TestSupport",
            swiftSettings: strict
        ),
        // The `.endToEndSlot` trait for test suites (it imports Swift Testing, which the benchmarks must not link).
        .target(
            name: "EndToEndSlot", dependencies: ["TestSupport"], path: "Tests/EndToEndSlot", swiftSettings: strict),
        // What an app claims (associated domains, app IDs), read from .ipa, .app, .xcarchive, Mach-O and
        // .entitlements files: pure reading of bytes, with ZIPFoundation for archives read in memory.
        .target(
            name: "AppClaims",
            dependencies: [
                // The finding codes: the reader raises the `app.*` family, declared with the document's codes.
                "AASA",
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AppClaimsTests", dependencies: ["AppClaims", "AASA", "TestSupport", "EndToEndSlot"],
            resources: [.copy("Resources/entitlements")], swiftSettings: strict),
        // The real-world corpus (Tests/AASATests/Resources/corpus, with its provenance) travels with the tests.
        .testTarget(
            name: "AASATests", dependencies: ["AASA", "TestSupport", "EndToEndSlot"],
            resources: [.copy("Resources/corpus")],
            swiftSettings: strict),
        .testTarget(
            name: "MonitorCoreTests",
            dependencies: [
                "MonitorCore", "MonitorEvaluation", "AASA", "TestSupport", "EndToEndSlot",
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "MonitorTests",
            dependencies: [
                "MonitorDaemon", "MonitorCheck", "MonitorCore", "MonitorEndpoint", "MonitorEvaluation", "MonitorStatus",
                "MonitorStore", "AASA", "HTTPEngine", "TestSupport", "EndToEndSlot",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        // Against a real PostgreSQL 15 server each run starts for itself (Debian's postgresql-15; see PostgresServer).
        .testTarget(
            name: "MonitorPostgresTests",
            dependencies: [
                "MonitorPostgres", "AASA", "MonitorCore", "MonitorEvaluation", "MonitorStore", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "HTTPEngineTests", dependencies: ["HTTPEngine", "TestSupport", "EndToEndSlot"], swiftSettings: strict),
        // `swift package --allow-writing-to-package-directory build-deb`: the Debian package, built in .build-deb/.
        // Its maintainer scripts live in Sources/BuildDeb/debian and the main man page in Sources/BuildDeb/man (the
        // top level of the repository is fixed).
        .plugin(
            name: "BuildDeb",
            capability: .command(
                intent: .custom(
                    verb: "build-deb",
                    description: "Build the Debian package of aasa-monitor in .build-deb/; prints its path last."),
                permissions: [
                    .writeToPackageDirectory(reason: "The release build and the .deb are written to .build-deb/.")
                ]
            ),
            path: "Sources/BuildDeb",
            exclude: ["debian", "man"]
        ),
        // The benchmarks, one executable with a subcommand each (`aasa-bench daemon`, `check`, `endpoint`, `soak`,
        // `fd-exhaustion`, `engine`, `match`, `parse`); the code several share (the fixture fleet, another
        // process's figures, health probes) is BenchmarkSupport. Neither is part of the product.
        .target(name: "BenchmarkSupport", dependencies: ["TestSupport"], swiftSettings: strict),
        .executableTarget(
            name: "aasa-bench",
            dependencies: [
                "AASA", "BenchmarkSupport", "HTTPEngine", "MonitorDaemon", "MonitorCheck", "MonitorCore",
                "MonitorEndpoint",
                "MonitorEvaluation", "MonitorStatus", "MonitorStore", "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict),
    ]
)

// Fuzzing (issue 26 §2): the properties the libFuzzer targets check, and the Swift Testing suite that replays their
// seeds and every input a fuzzer ever failed on (Tests/Fuzz/RegressionTests/Inputs) through the same code.
package.targets += [
    .target(
        name: "FuzzChecks", dependencies: ["AASA", "MonitorEvaluation", "HTTPEngine", "AppClaims"],
        path: "Tests/Fuzz/FuzzChecks", swiftSettings: strict),
    .testTarget(
        name: "FuzzRegressionTests", dependencies: ["FuzzChecks", "TestSupport"], path: "Tests/Fuzz/RegressionTests",
        resources: [.copy("Inputs")], swiftSettings: strict),
]
// The libFuzzer executables exist only for .ci/fuzz, which sets AASA_FUZZ=1 and builds them in .build-fuzz with
// -sanitize=fuzzer,address: an ordinary build has no libFuzzer to link them with.
if Context.environment["AASA_FUZZ"] == "1" {
    // The declaration of libFuzzer's driver, which each target's main calls.
    package.targets.append(.target(name: "CFuzzDriver", path: "Tests/Fuzz/CFuzzDriver"))
    package.targets += ["aasa", "matcher", "configuration", "headers", "app"].map { name in
        .executableTarget(
            name: "fuzz-\(name)", dependencies: ["FuzzChecks", "CFuzzDriver"], path: "Tests/Fuzz/Targets/\(name)",
            swiftSettings: strict)
    }
}
