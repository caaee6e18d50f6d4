// Every platform difference of harness-bench lives in this file.
import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

enum Platform {
    /// The process's resident set now and at its peak, in bytes: `VmRSS` and
    /// `VmHWM` from /proc/self/status on Linux; elsewhere `getrusage`'s
    /// `ru_maxrss` (the peak) for both.
    static func residentBytes() -> (current: Int, peak: Int) {
        #if os(Linux)
            if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) {
                var current = 0, peak = 0
                for line in status.split(separator: "\n") {
                    let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                    guard fields.count >= 2, let kilobytes = Int(fields[1]) else { continue }
                    if fields[0] == "VmRSS:" { current = kilobytes * 1024 }
                    if fields[0] == "VmHWM:" { peak = kilobytes * 1024 }
                }
                return (current, peak)
            }
        #endif
        var usage = rusage()
        #if canImport(Darwin)
            getrusage(RUSAGE_SELF, &usage)
            let peak = Int(usage.ru_maxrss)  // bytes on Darwin
        #else
            getrusage(RUSAGE_SELF.rawValue, &usage)
            let peak = Int(usage.ru_maxrss) * 1024  // kilobytes elsewhere
        #endif
        return (peak, peak)
    }

    /// CPU seconds this thread has run: under a loaded machine's contention
    /// it counts the work, not the waits for a core that wall time adds.
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Minor page faults of this process so far: each is a page touched for
    /// the first time (the kernel provides and zeroes it).
    static func minorPageFaults() -> Int {
        var usage = rusage()
        #if canImport(Darwin)
            getrusage(RUSAGE_SELF, &usage)
        #else
            getrusage(RUSAGE_SELF.rawValue, &usage)
        #endif
        return Int(usage.ru_minflt)
    }

    /// The largest peak RSS of any child waited for, in bytes.
    static func childrenPeakResidentBytes() -> Int {
        var usage = rusage()
        #if canImport(Darwin)
            getrusage(RUSAGE_CHILDREN, &usage)
            return Int(usage.ru_maxrss)  // bytes on Darwin
        #else
            getrusage(RUSAGE_CHILDREN.rawValue, &usage)
            return Int(usage.ru_maxrss) * 1024  // kilobytes elsewhere
        #endif
    }

    /// This executable, to run again as a child process.
    static var executableURL: URL? {
        Bundle.main.executableURL ?? CommandLine.arguments.first.map { URL(fileURLWithPath: $0) }
    }

    /// `harness-cli` built next to this executable, if it is there.
    static var harnessCLI: URL? {
        guard
            let url = executableURL?.resolvingSymlinksInPath().deletingLastPathComponent()
                .appendingPathComponent("harness-cli")
        else { return nil }
        return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
    }
}

enum Machine {
    /// "2 cores, AMD EPYC, Linux", from /proc/cpuinfo where there is one.
    static var description: String {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var model = "unknown CPU"
        #if os(Linux)
            if let cpuinfo = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
                let line = cpuinfo.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
                let colon = line.firstIndex(of: ":")
            {
                model = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        #endif
        #if os(Linux)
            let system = "Linux"
        #elseif os(macOS)
            let system = "macOS"
        #else
            let system = "unknown OS"
        #endif
        return "\(cores) cores, \(model), \(system)"
    }
}
