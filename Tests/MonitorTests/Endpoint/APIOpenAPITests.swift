import Foundation
import HTTPEngine
import HTTPTypes
import Testing

@testable import MonitorDaemon
@testable import MonitorEndpoint

@Suite("HTTP API: the OpenAPI document holds every route and every field")
struct APIOpenAPITests {
    typealias F = APIFixture

    static func document() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? [String: Any])
    }

    @Test("it is OpenAPI 3.1, served at /api/v1/openapi.json as kept in the repository")
    func served() async throws {
        let document = try Self.document()
        #expect(document["openapi"] as? String == "3.1.0")
        try await F.with { api in
            let response = try await api.get("/api/v1/openapi.json")
            #expect(response.status == 200)
            #expect(response.headers.first("content-type") == "application/json")
            #expect(String(decoding: response.body, as: UTF8.self) == OpenAPIDocument.json)
        }
    }

    @Test("every registered route is an operation of the document, and every operation a route")
    func routes() throws {
        let paths = try #require(try Self.document()["paths"] as? [String: [String: Any]])
        let documented = Set(
            paths.flatMap { path, operations in
                operations.keys.filter { $0 != "parameters" }.map { "\($0.uppercased()) \(path)" }
            })
        let registered = Set(APIRoute.all.map { "\($0.method.rawValue) \($0.path)" })
        #expect(registered == documented)
        for route in APIRoute.all {
            let operation = try #require(paths[route.path]?[route.method.rawValue.lowercased()] as? [String: Any])
            let parameters = (operation["parameters"] as? [[String: Any]] ?? []).filter {
                $0["in"] as? String == "path"
            }
            let named = Set(parameters.compactMap { $0["name"] as? String })
            let templated = Set(
                route.path.split(separator: "{").dropFirst().compactMap {
                    $0.split(separator: "}").first.map(String.init)
                })
            #expect(named == templated, "\(route.path)")
        }
    }

    /// The file is edited by hand and its shared answers (`components/responses`) are reached by `$ref`: a reference
    /// to a renamed or deleted component would resolve to an empty schema, which accepts anything.
    @Test("every $ref of the document names a component it has")
    func references() throws {
        let document = try Self.document()
        var references: [String] = []
        func collect(_ node: Any) {
            if let object = node as? [String: Any] {
                if let reference = object["$ref"] as? String { references.append(reference) }
                object.values.forEach(collect)
            } else if let array = node as? [Any] {
                array.forEach(collect)
            }
        }
        collect(document)
        #expect(references.contains { $0.hasPrefix("#/components/responses/") })
        for reference in Set(references) {
            var node: Any? = document
            for part in reference.dropFirst(2).split(separator: "/") {
                node = (node as? [String: Any])?[String(part)]
            }
            #expect(reference.hasPrefix("#/") && node is [String: Any], "\(reference) names nothing in the document")
        }
    }

    /// Every answer of a session that touches every route and error, checked against the document's schema for its
    /// operation and status: every key it sends is declared there (undeclared keys fail), every required one sent.
    @Test("every field of the real answers is in the document's schema")
    func fields() async throws {
        let document = try Self.document()
        try await F.with { api in
            let silence = try await api.request(
                "POST", "/api/v1/silences",
                json: #"{"domains": ["stale.example"], "for": "1h", "reason": "checking the schema"}"#)
            let id = try #require(try F.object(silence)["id"] as? String)
            let calls: [(String, String, HTTPEngine.HTTPResponse)] = [
                ("post", "/api/v1/silences", silence),
                ("get", "/api/v1/domains", try await api.get("/api/v1/domains?limit=2")),
                ("get", "/api/v1/domains", try await api.get("/api/v1/domains?verdict=bad")),
                ("get", "/api/v1/domains/{domain}", try await api.get("/api/v1/domains/stale.example")),
                ("get", "/api/v1/domains/{domain}", try await api.get("/api/v1/domains/fresh.example")),
                ("get", "/api/v1/domains/{domain}", try await api.get("/api/v1/domains/other.example")),
                ("get", "/api/v1/domains/{domain}/history", try await api.get("/api/v1/domains/stale.example/history")),
                ("get", "/api/v1/silences", try await api.get("/api/v1/silences")),
                ("post", "/api/v1/silences", try await api.request("POST", "/api/v1/silences", json: "{}")),
                ("delete", "/api/v1/silences/{id}", try await api.request("DELETE", "/api/v1/silences/\(id)")),
                ("delete", "/api/v1/silences/{id}", try await api.request("DELETE", "/api/v1/silences/12345")),
            ]
            for (method, path, response) in calls {
                let schema = try SchemaWalker.responseSchema(
                    document, path: path, method: method, status: response.status)
                let value = try JSONDecoder().decode(JSONTree.self, from: Data(response.body))
                var walker = SchemaWalker(document: document)
                walker.check(value, against: schema, at: "\(method.uppercased()) \(path) \(response.status)")
                for problem in walker.problems { Issue.record(Comment(rawValue: problem)) }
                #expect(walker.checkedKeys > 0)
            }
        }
    }
}

/// A small JSON Schema walker for the document's own vocabulary: `$ref`, `type` (one or a list), `properties`,
/// `required`, `additionalProperties`, `items`, `oneOf`, `enum`, `propertyNames`.
struct SchemaWalker {
    let document: [String: Any]
    var problems: [String] = []
    var checkedKeys = 0

    init(document: [String: Any]) { self.document = document }

    /// The schema of the JSON answer `status` of an operation.
    static func responseSchema(
        _ document: [String: Any], path: String, method: String, status: Int
    ) throws -> [String: Any] {
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let operation = try #require(paths[path]?[method] as? [String: Any], "\(method) \(path) is not documented")
        let responses = try #require(operation["responses"] as? [String: Any])
        let listed = try #require(responses[String(status)] as? [String: Any], "\(method) \(path) \(status)")
        let response = SchemaWalker(document: document).resolve(listed)
        let content = try #require(response["content"] as? [String: Any])
        let json = try #require(content["application/json"] as? [String: Any], "\(method) \(path) \(status): JSON")
        return try #require(json["schema"] as? [String: Any])
    }

    func resolve(_ schema: [String: Any]) -> [String: Any] {
        guard let reference = schema["$ref"] as? String else { return schema }
        var node: Any = document
        for part in reference.dropFirst(2).split(separator: "/") {
            node = (node as? [String: Any])?[String(part)] ?? [:]
        }
        return resolve(node as? [String: Any] ?? [:])
    }

    /// Whether `value` fits `schema`, without recording anything (for `oneOf`).
    func fits(_ value: JSONTree, _ schema: [String: Any]) -> Bool {
        var probe = SchemaWalker(document: document)
        probe.check(value, against: schema, at: "")
        return probe.problems.isEmpty
    }

    mutating func check(_ value: JSONTree, against raw: [String: Any], at place: String) {
        let schema = resolve(raw)
        if let choices = schema["oneOf"] as? [[String: Any]] {
            let fitting = choices.filter { fits(value, $0) }
            guard fitting.count == 1 else {
                problems.append("\(place): fits \(fitting.count) of oneOf's \(choices.count) choices")
                return
            }
            check(value, against: fitting[0], at: place)
            return
        }
        let actual = value.typeName
        let allowed = (schema["type"] as? [String]) ?? (schema["type"] as? String).map { [$0] } ?? []
        let fitsType =
            allowed.isEmpty || allowed.contains(actual) || (actual == "integer" && allowed.contains("number"))
        guard fitsType else {
            problems.append("\(place): \(actual), the document says \(allowed)")
            return
        }
        if let options = schema["enum"] as? [String], case .string(let text) = value, !options.contains(text) {
            problems.append("\(place): '\(text)' is not one of \(options)")
        }
        if case .array(let array) = value, let items = schema["items"] as? [String: Any] {
            for (index, element) in array.enumerated() { check(element, against: items, at: "\(place)[\(index)]") }
        }
        guard case .object(let object) = value else { return }
        let properties = schema["properties"] as? [String: Any] ?? [:]
        for key in schema["required"] as? [String] ?? [] where object[key] == nil {
            problems.append("\(place): the required \(key) is missing")
        }
        for (key, element) in object {
            checkedKeys += 1
            if let names = schema["propertyNames"] as? [String: Any] {
                check(.string(key), against: names, at: "\(place) key")
            }
            if let property = properties[key] as? [String: Any] {
                check(element, against: property, at: "\(place).\(key)")
            } else if let extra = schema["additionalProperties"] as? [String: Any] {
                check(element, against: extra, at: "\(place).\(key)")
            } else if schema["additionalProperties"] as? Bool != true {
                problems.append("\(place): \(key) is not in the document")
            }
        }
    }
}

/// A JSON value as JSON typed it: a boolean is no number, and an integer is told from a fraction.
enum JSONTree: Decodable {
    case null, boolean(Bool), integer(Int), number(Double), string(String), array([JSONTree])
    case object([String: JSONTree])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .boolean(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONTree].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONTree].self))
        }
    }

    /// The JSON Schema type name.
    var typeName: String {
        switch self {
        case .null: "null"
        case .boolean: "boolean"
        case .integer: "integer"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

@Suite("The schema walker the document's test relies on")
struct APISchemaWalkerTests {
    static var document: [String: Any] {
        [
            "components": [
                "schemas": [
                    "Thing": [
                        "type": "object", "required": ["name"], "additionalProperties": false,
                        "properties": [
                            "name": ["type": "string"], "size": ["type": ["integer", "null"]],
                            "kind": ["type": "string", "enum": ["a", "b"]],
                        ],
                    ]
                ]
            ]
        ]
    }

    func problems(_ json: String) throws -> [String] {
        var walker = SchemaWalker(document: Self.document)
        walker.check(
            try JSONDecoder().decode(JSONTree.self, from: Data(json.utf8)),
            against: ["$ref": "#/components/schemas/Thing"], at: "thing")
        return walker.problems
    }

    @Test(
        "it accepts what the schema declares and names every key, type, value or field that is not",
        arguments: [
            (#"{"name": "x", "size": null, "kind": "a"}"#, 0), (#"{"name": "x", "extra": 1}"#, 1),
            (#"{"size": 3}"#, 1), (#"{"name": 3}"#, 1), (#"{"name": "x", "kind": "c"}"#, 1),
            (#"{"name": "x", "size": 1.5}"#, 1), (#"{"name": "x", "size": true}"#, 1),
        ])
    func walker(json: String, expected: Int) throws {
        let found = try problems(json)
        #expect(found.count == expected, "\(found)")
    }
}
