import Foundation

/// Traces of shapes the app mix never makes, written as JSON Lines for
/// `harness-cli analyze`: each stresses one of the index's or the rules'
/// tables, so the peak memory per event is judged on every shape, not only
/// on the mix.
enum TraceShape: String, CaseIterable {
    /// One observer added to one name again and again, never removed: every
    /// add a registration of its own (a duplicate of the first).
    case repeatedAdds = "repeated-adds"
    /// A thousand `unowned` registrations whose observers are gone, and posts
    /// that each reach all of them (`deliver-to-dead`).
    case deadDeliveries = "dead-deliveries"
    /// A quarter of the events are registrations that stay to the end (no
    /// removal, no deallocation), the rest posts to them.
    case longLived = "long-lived"
    /// Posts made inside deliveries inside posts, a thousand deep, one name
    /// per level, chain after chain.
    case deepCauses = "deep-causes"
    /// One observer's block registrations on one name, then as many removals
    /// of the observer by itself, each matching nothing (`unbalanced-removal`
    /// reads the observer's history at every one).
    case unmatchedRemovals = "unmatched-removals"

    /// Writes about `events` events of this shape to `url`; returns how many.
    func write(events: Int, to url: URL) throws -> Int {
        var writer = ShapeWriter()
        switch self {
        case .repeatedAdds:
            writer.tables(names: 1, objects: 1)
            writer.event("track", site: 1, channel: 1, object: 1)
            for registration in 1..<max(events, 2) {
                writer.event("add", site: 1, registry: 1, channel: 1, object: 1, registration: registration)
            }
        case .deadDeliveries:
            let observers = 1_000
            writer.tables(names: 1, objects: observers)
            for object in 1...observers {
                writer.event("track", site: 1, channel: 1, object: object)
                writer.event(
                    "add", site: 1, registry: 1, channel: 1, object: object, registration: object, flags: 2)
            }
            for object in 1...observers { writer.event("dealloc", object: object) }
            while writer.count < events {
                let post = writer.event("post", site: 1, registry: 1, channel: 1)
                for object in 1...observers {
                    writer.event(
                        "deliver-to-dead", registry: 1, channel: 1, object: object, registration: object,
                        cause: post)
                }
            }
        case .longLived:
            let names = 1_024
            let registrations = max(events / 4, names)
            writer.tables(names: names, objects: registrations)
            for object in 1...registrations {
                let name = (object - 1) % names + 1
                writer.event("track", site: 1, channel: name, object: object)
                writer.event(
                    "add", site: 1, registry: 1, channel: name, object: object, registration: object, flags: 1)
            }
            var name = 1
            while writer.count < events {
                let post = writer.event("post", site: 1, registry: 1, channel: name)
                for object in stride(from: name, through: registrations, by: names) {
                    writer.event(
                        "deliver", registry: 1, channel: name, object: object, registration: object, cause: post)
                }
                name = name % names + 1
            }
        case .deepCauses:
            let depth = 1_000
            writer.tables(names: depth, objects: depth)
            for level in 1...depth {
                writer.event("track", site: 1, channel: level, object: level)
                writer.event(
                    "add", site: 1, registry: 1, channel: level, object: level, registration: level, flags: 1)
            }
            while writer.count < events {
                var cause: Int?
                for level in 1...depth {
                    let post = writer.event("post", site: 1, registry: 1, channel: level, cause: cause)
                    cause = writer.event(
                        "deliver", registry: 1, channel: level, object: level, registration: level, cause: post)
                }
            }
        case .unmatchedRemovals:
            writer.tables(names: 1, objects: 1)
            writer.event("track", site: 1, channel: 1, object: 1)
            let registrations = max(events / 2, 1)
            for registration in 1...registrations {
                writer.event("add", site: 1, registry: 1, channel: 1, object: 1, registration: registration, flags: 4)
            }
            while writer.count < events { writer.event("remove", site: 1, registry: 1, channel: 1, object: 1) }
        }
        try writer.finish(to: url, name: rawValue)
        return writer.count
    }
}

/// Builds a trace's lines: the tables, then events numbered in order.
private struct ShapeWriter {
    private var tableLines = ""
    private var eventLines: [UInt8] = []
    private(set) var count = 0

    /// `names` strings (`Name1`, …), `objects` objects, one center, one site.
    mutating func tables(names: Int, objects: Int) {
        for name in 1...names { tableLines += "{\"string\":\(name),\"text\":\"Name\(name)\"}\n" }
        for object in 1...objects { tableLines += "{\"object\":\(object),\"type\":\"Screen\"}\n" }
        tableLines +=
            "{\"registry\":1,\"name\":\"center\",\"kind\":\"notification-center\"}\n"
            + "{\"site\":1,\"file\":\"App/Screen.swift\",\"line\":12,\"column\":9}\n"
    }

    /// Appends an event with these fields (each left out when nil); returns its sequence number.
    @discardableResult
    mutating func event(
        _ kind: String, site: Int? = nil, registry: Int? = nil, channel: Int? = nil, object: Int? = nil,
        registration: Int? = nil, cause: Int? = nil, flags: Int? = nil
    ) -> Int {
        let sequence = count
        count += 1
        var line = "{\"seq\":\(sequence),\"kind\":\"\(kind)\",\"t\":\(sequence + 1),\"thread\":1"
        let fields = [
            ("site", site), ("registry", registry), ("channel", channel), ("object", object),
            ("registration", registration), ("cause", cause), ("flags", flags),
        ]
        for case (let key, let value?) in fields { line += ",\"\(key)\":\(value)" }
        eventLines += (line + "}\n").utf8
        return sequence
    }

    func finish(to url: URL, name: String) throws {
        let header = "{\"format\":\"observer-harness-trace\",\"version\":1,\"name\":\"\(name)\",\"events\":\(count)}\n"
        try Data(Array((header + tableLines).utf8) + eventLines).write(to: url)
    }
}
