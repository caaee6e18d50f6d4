/// # The trace format (JSON Lines, version 1)
///
/// A trace is a ``Recording`` written one JSON object per line (UTF-8, lines
/// ending in `\n`), so `harness-cli analyze TRACE` finds what
/// ``Recording/analyze(name:)`` finds in process. Write one with
/// ``Recording/writeTrace(to:name:)`` or ``Harness/writeTrace(to:)``; read it
/// with ``Recording/readTrace(from:)``.
///
/// ```text
/// {"format":"observer-harness-trace","version":1,"name":"checkout","events":4}
/// {"string":1,"text":"CartBadge"}
/// {"string":2,"text":"cartDidChange"}
/// {"object":1,"type":"CartBadge","label":"badge"}
/// {"registry":1,"name":"center","kind":"notification-center","dedupe":false,"order":"unspecified"}
/// {"site":1,"file":"AppTests/CartTests.swift","line":12,"column":9}
/// {"seq":0,"kind":"track","t":81234567,"thread":1,"site":1,"channel":1,"object":1}
/// {"seq":1,"kind":"add","t":81234890,"thread":1,"site":1,"registry":1,"channel":2,"object":1,"registration":1,"flags":1}
/// {"seq":2,"kind":"post","t":81235012,"thread":1,"site":1,"registry":1,"channel":2}
/// {"seq":3,"kind":"deliver","t":81235101,"thread":1,"registry":1,"channel":2,"object":1,"registration":1,"cause":2}
/// ```
///
/// ## Line 1: the header
/// `format` (always `"observer-harness-trace"`) and `version` (`1`) are
/// required; `name` (the report's `scenario`, default `"recording"`) and
/// `events` (how many event lines follow; lets a reader notice a trace cut
/// short at a line boundary) are optional.
///
/// ## Table lines
/// Events refer to four tables by small integer ids. Id `0` is reserved in
/// every table and never written: the empty string, no object, no registry,
/// no site. Ids are dense: each table line defines the next id of its table
/// (`1`, `2`, …). A table line may appear anywhere after the header, but
/// before the first event that uses its id (the writer puts all tables first).
///
/// | line | fields |
/// |---|---|
/// | string | `"string":ID`, `"text":S` |
/// | object | `"object":ID`, `"type":S`, `"label":S`? |
/// | registry | `"registry":ID`, `"name":S`, `"kind":K`, `"dedupe":B`?, `"order":O`?, `"hold":H`?, `"snapshot":B`? |
/// | site | `"site":ID`, `"file":S`, `"line":N`, `"column":N`? |
///
/// `K` is a registry kind (`notification-center`, `subject`, `property`,
/// `delegate`), `O` is `registration` or `unspecified` (the default). `H` is
/// the hold the registry declares (`strong`, `weak`, `unowned`; default: its
/// kind's). `snapshot` (default `false`) says a post goes on to every
/// registration it started with, whatever its handlers remove meanwhile.
/// Sites are `#fileID`-style paths (or a scenario's `"site"`), never absolute.
///
/// ## Event lines
/// `"seq":N` (required, `0`, `1`, `2`, … in order: the event's sequence
/// number, which findings quote) and `"kind":K` (required, see
/// `EventKind.traceName`: `track`, `release`, `dealloc`, `retain`, `add`,
/// `remove`, `post`, `property-set`, `delegate-set`, `delegate-call`,
/// `deliver`, `deliver-skipped`, `deliver-to-dead`, `token-dropped`,
/// `invoke`, `increment`, `state-set`, `append`, `read`, `step`,
/// `cycle-cut`), then any of these, each omitted when zero (`cause`: when
/// there is none):
///
/// | key | meaning |
/// |---|---|
/// | `t` | monotonic time in nanoseconds (arbitrary origin) |
/// | `thread` | the recording thread's small number (1, 2, …) |
/// | `site` | site id |
/// | `registry` | registry id |
/// | `channel` | string id: notification name, channel, property, method, key or type name |
/// | `object` | object id: observer, delegate or tracked object |
/// | `subject` | object id: sender, owner, observed object or holder |
/// | `registration` | registration id; for `state-set`/`append` the string id of the value; for `step` the step index |
/// | `cause` | sequence number of an earlier event: the post a delivery answers, or the delivery whose handler emitted this event |
/// | `flags` | bit set: 1 weak (on `retain`: the holder owns the target, a registration token; on `hop`: live, the handler may have handed its work on unseen), 2 unowned (on `retain`: the holder, a registration token, kept the target alive; on `track`, 1 and 2 together say the object is a registration token: 1 a block's, 2 a property observation, 3 a typed message's observer), 4 token (block) form (on `retain`: the holder keeps the task of the async loop that is the target, its owner), 8 any channel (on `retain`: `channel` is the chain of strong references that keeps the released `object` alive, from the object `subject` or the registration `registration`), 16 ignored duplicate (on `retain` with 8: no chain was found, `channel` says what was searched), 32 removed by token (on a delivery: ran off its registration's isolation; on a `hop`: its work ran off it), 64 deallocation detected late (on `track`: the object is a boxed value; on `add`/`delegate-set`: made on another actor; on a delivery of an isolated registration: ran on the main actor), 128 remove from all channels (on `add`/`delegate-set`: made on the main actor) |
///
/// ## Reading rules
/// Keys may come in any order and unknown keys are errors. Blank lines are
/// ignored. A last line that is cut short (no final newline, not valid JSON)
/// is dropped with a warning naming its line; a trace with fewer events than
/// its header declares gets a warning too. Anything else wrong — bad JSON,
/// an unknown kind or version, an id no table line defined, a `seq` out of
/// order, a `cause` that is not an earlier event — stops the read with
/// `PATH:LINE:COLUMN: error: MESSAGE` (``InputError``).
enum TraceFormat {
    static let format = "observer-harness-trace"
    static let version = 1
    static let defaultName = "recording"

    /// The keys an event line may have, in the order the writer emits them.
    enum EventKey: Int, CaseIterable {
        case seq, kind, time, thread, site, registry, channel, object, subject, registration, cause, flags

        /// The largest value the field takes (a message names it).
        var largestValue: UInt64 {
            switch self {
            case .time: UInt64.max
            case .thread: UInt64(UInt16.max)
            case .flags: UInt64(UInt8.max)
            default: UInt64(UInt32.max)
            }
        }

        var name: String {
            switch self {
            case .seq: "seq"
            case .kind: "kind"
            case .time: "t"
            case .thread: "thread"
            case .site: "site"
            case .registry: "registry"
            case .channel: "channel"
            case .object: "object"
            case .subject: "subject"
            case .registration: "registration"
            case .cause: "cause"
            case .flags: "flags"
            }
        }

        static let byName: [String: EventKey] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.name, $0) })
    }

    /// The id key of each table line.
    enum Table: String, CaseIterable {
        case string, object, registry, site

        /// How errors name a line of this table: `a string line`, `an object line`.
        var lineName: String { self == .object ? "an object line" : "a \(rawValue) line" }

        /// The keys a line of this table may have besides its id.
        var fields: Set<String> {
            switch self {
            case .string: ["text"]
            case .object: ["type", "label"]
            case .registry: ["name", "kind", "dedupe", "order", "hold", "snapshot"]
            case .site: ["file", "line", "column"]
            }
        }
    }
}
