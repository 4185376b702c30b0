// swift-tools-version: 6.2
import PackageDescription

/// Settings every target of ours shares: Swift 6 mode comes from the tools version; these make the compiler stricter.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .treatAllWarnings(as: .error),
]

let package = Package(
    name: "aasa-monitor",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "aasa-monitor", targets: ["aasa-monitor"]),
        .library(name: "AASA", targets: ["AASA"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
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
        .executableTarget(
            name: "aasa-monitor",
            dependencies: [
                "AASA",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "AASATests", dependencies: ["AASA"], swiftSettings: strict),
        .executableTarget(name: "aasa-benchmark", dependencies: ["AASA"], swiftSettings: strict),
    ]
)
