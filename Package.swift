// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "trainer-eval",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "trainer-eval", targets: ["trainer-eval"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // The review server. Its default traits are off: swift-configuration and full
        // Foundation would add build time for nothing `serve` uses.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        // Already built for Hummingbird: the bound address of a server on a picked port, and its logger's level.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // JSON documents (parser with source locations, pointers, writer) and the
        // draft 2020-12 JSON Schema validator. Depends on nothing else in the project.
        .target(name: "JSONSchema"),

        // The app's intake record, fixture scenarios, and the fixture corpus checker.
        .target(
            name: "Intake",
            dependencies: ["JSONSchema", .product(name: "Yams", package: "Yams"), .product(name: "Crypto", package: "swift-crypto")]
        ),

        // One protocol for model providers and its real implementations over HTTP; which
        // schema keywords each structured-output mode enforces, and the schema each is sent.
        .target(name: "Providers", dependencies: ["JSONSchema", "CCurl"]),

        // A thin C shim over libcurl's easy interface (curl_easy_setopt is variadic), which
        // loads libcurl on the first request rather than with the program.
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),

        // Deterministic domain checks of each step's output against the brief and the scenario.
        .target(name: "Checks", dependencies: ["JSONSchema", "Intake"]),

        // Structural diffs of JSON values and line diffs of text. Knows nothing of the pipeline.
        .target(name: "Diff", dependencies: ["JSONSchema"]),

        // Where approved and pending outputs and recorded responses are kept, on disk and in
        // memory, a variant's in its own folder. Knows no pipeline step beyond its name.
        .target(
            name: "Storage",
            dependencies: ["JSONSchema", "Intake", "Providers", .product(name: "Crypto", package: "swift-crypto")]
        ),

        // The prompts and the steps: the fixture's plan, rendering, provider calls,
        // extraction, validation and repair.
        .target(
            name: "Pipeline",
            dependencies: [
                "JSONSchema", "Intake", "Providers", "Checks", "Diff", "Storage",
                .product(name: "Mustache", package: "swift-mustache"), .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),

        // Recorded responses (cassettes): recording a live provider, and replaying offline.
        .target(
            name: "Replay",
            dependencies: ["JSONSchema", "Intake", "Providers", "Storage", "Diff"]
        ),

        // Approved outputs, the verdict of each step against them, the gate and the review of pending outputs.
        .target(name: "Golden", dependencies: ["JSONSchema", "Intake", "Providers", "Storage", "Pipeline", "Checks", "Diff", "Statistics"]),

        // The report files of a run: results.json, report.md, junit.xml and a self-contained index.html.
        .target(name: "Reports", dependencies: ["JSONSchema", "Intake", "Checks", "Storage", "Pipeline", "Diff", "Golden", "Statistics"]),

        // Run history in SQLite: every run's per-step results, pass rates, and comparisons between runs.
        .target(
            name: "History",
            dependencies: ["JSONSchema", "Intake", "Storage", "Pipeline", "Golden", "Reports", .product(name: "GRDB", package: "GRDB.swift")]
        ),

        // One evaluation run end to end: pipeline (with repeats), golden gate, history and report.
        .target(
            name: "Evaluation",
            dependencies: ["JSONSchema", "Intake", "Checks", "Providers", "Storage", "Pipeline", "Replay", "Golden", "Reports", "History"]
        ),

        // What the command line prints and the terminal it prints on: tables, a run's
        // progress and end, the comparison with golden, acceptance, validation reports,
        // key presses and Ctrl-C.
        .target(name: "Console", dependencies: ["JSONSchema", "Intake", "Providers", "Storage", "Pipeline", "Golden", "Reports", "History", "Evaluation"]),

        // Paired comparisons and pass rates: McNemar, Wilson, pass@k, Wilcoxon, bootstrap.
        // Pure arithmetic; depends on nothing.
        .target(name: "Statistics"),

        // `serve`: the review pages over HTTP on loopback, and their actions (accept, reject,
        // label), each a call into the same library code as the commands.
        .target(
            name: "ReviewServer",
            dependencies: [
                "JSONSchema", "Intake", "Storage", "Pipeline", "Diff", "Golden", "Reports", "History", "Evaluation",
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // The thin command-line front end.
        .executableTarget(
            name: "trainer-eval",
            dependencies: [
                "JSONSchema", "Intake", "Providers", "Storage", "Pipeline", "Diff", "Replay", "Golden", "Reports", "History", "Evaluation", "Console", "ReviewServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/CLI"
        ),

        // For tests: a real HTTP/1.1 server on 127.0.0.1 (scripted answers and faults) and a scripted model provider.
        .target(name: "TestSupport", dependencies: ["Providers"], path: "Tests/Support"),

        .testTarget(name: "JSONSchemaTests", dependencies: ["JSONSchema"], exclude: ["suite-skips.json"]),
        .testTarget(name: "IntakeTests", dependencies: ["Intake", "JSONSchema"]),
        .testTarget(name: "ProvidersTests", dependencies: ["Providers", "JSONSchema", "TestSupport"]),
        .testTarget(name: "StorageTests", dependencies: ["Storage", "Intake", "JSONSchema", "Providers"]),
        .testTarget(name: "PipelineTests", dependencies: ["Pipeline", "Checks", "Intake", "Providers", "JSONSchema", "TestSupport"]),
        .testTarget(name: "ChecksTests", dependencies: ["Checks", "Intake", "JSONSchema"]),
        .testTarget(name: "DiffTests", dependencies: ["Diff", "JSONSchema"]),
        .testTarget(name: "ReplayTests", dependencies: ["Replay", "Storage", "Golden", "Intake", "Providers", "Pipeline", "JSONSchema", "TestSupport"]),
        .testTarget(name: "GoldenTests", dependencies: ["Golden", "Storage", "Replay", "Diff", "Intake", "Providers", "Pipeline", "Checks", "JSONSchema"]),
        .testTarget(name: "ReportsTests", dependencies: ["Reports", "Storage", "Diff", "Intake", "Golden", "Pipeline", "Providers", "Checks", "JSONSchema"], exclude: ["Snapshots"]),
        .testTarget(name: "HistoryTests", dependencies: ["History", "Storage", "Intake", "Reports", "Golden", "Pipeline", "JSONSchema"]),
        .testTarget(
            name: "EvaluationTests",
            dependencies: ["Evaluation", "Storage", "Golden", "History", "Reports", "Pipeline", "Providers", "Intake", "JSONSchema", "TestSupport"]
        ),
        .testTarget(
            name: "ConsoleTests",
            dependencies: ["Console", "Storage", "Checks", "Reports", "Golden", "Pipeline", "Intake", "Providers", "Evaluation", "JSONSchema", "TestSupport"]
        ),
        .testTarget(name: "StatisticsTests", dependencies: ["Statistics"], exclude: ["make-reference.py", "reference.json"]),
        .testTarget(
            name: "ReviewServerTests",
            dependencies: ["ReviewServer"]
        ),
        .testTarget(name: "CLITests", dependencies: ["trainer-eval", "Intake", "JSONSchema", "Providers", "Storage", "TestSupport"]),
    ]
)
