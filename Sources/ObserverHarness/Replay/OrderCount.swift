// Counting and listing the orders a decision point allows.

/// All permutations of `elements`, in lexicographic order of positions.
func permutations(of elements: [Int]) -> [[Int]] {
    var result: [[Int]] = []
    var current = elements
    func generate(_ k: Int) {
        if k == current.count { result.append(current); return }
        for i in k..<current.count {
            current.swapAt(k, i)
            generate(k + 1)
            current.swapAt(k, i)
        }
    }
    generate(0)
    return result
}

/// Every interleaving of branches with these sizes (branch index per step).
func interleavings(_ sizes: [Int]) -> [[Int]] {
    var result: [[Int]] = []
    var remaining = sizes
    var current: [Int] = []
    let total = sizes.reduce(0, +)
    func generate() {
        if current.count == total { result.append(current); return }
        for branch in remaining.indices where remaining[branch] > 0 {
            remaining[branch] -= 1
            current.append(branch)
            generate()
            current.removeLast()
            remaining[branch] += 1
        }
    }
    generate()
    return result
}

/// Orders of `count` receivers that permute only the `subset` positions
/// (registration order elsewhere): all of them when at most
/// `exhaustiveLimit`, otherwise every pair swapped and `sampleCount` seeded
/// samples. Replay's exploration and the live order check both search these.
func reorderings(
    of subset: [Int], among count: Int, seed: UInt64,
    exhaustiveLimit: Int = Explorer.exhaustiveLimit, sampleCount: Int = Explorer.sampleCount
) -> [[Int]] {
    func place(_ arrangement: [Int]) -> [Int] {
        var order = Array(0..<count)
        for (slot, receiver) in zip(subset, arrangement) { order[slot] = receiver }
        return order
    }
    if factorialAtMost(subset.count, exhaustiveLimit) {
        return permutations(of: subset).map(place)
    }
    var generator = SplitMix64(seed: seed ^ UInt64(subset.count) &* 0xA24B_AED4_963E_E407)
    var result: [[Int]] = []
    // Every pair swapped alone first (cheap and the likeliest culprit), then random orders.
    for a in 0..<subset.count where result.count < sampleCount {
        for b in (a + 1)..<subset.count where result.count < sampleCount {
            var arrangement = subset
            arrangement.swapAt(a, b)
            result.append(place(arrangement))
        }
    }
    for _ in 0..<sampleCount {
        var arrangement = subset
        generator.shuffle(&arrangement)
        result.append(place(arrangement))
    }
    return result
}

/// Registration order of `count` receivers with `later` moved just before
/// `earlier`: reverses that one pair and nothing else, which is how a search
/// narrows an order dependence down to two receivers.
func moving(_ later: Int, before earlier: Int, among count: Int) -> [Int] {
    var order = Array(0..<count).filter { $0 != later }
    order.insert(later, at: order.firstIndex(of: earlier) ?? 0)
    return order
}

func factorialAtMost(_ n: Int, _ limit: Int) -> Bool {
    var product = 1
    for k in stride(from: 2, through: max(n, 1), by: 1) {
        product *= k
        if product > limit { return false }
    }
    return true
}

/// Whether (sum of sizes)! / Π(size!) ≤ limit.
func multinomialAtMost(_ sizes: [Int], _ limit: Int) -> Bool {
    var total = 0
    var value = 1.0
    for size in sizes {
        for k in stride(from: 1, through: max(size, 0), by: 1) {
            total += 1
            value = value * Double(total) / Double(k)
            if value > Double(limit) { return false }
        }
    }
    return true
}

/// n!, or nil past `Int.max`.
func factorial(_ n: Int) -> Int? {
    var product = 1
    for k in stride(from: 2, through: max(n, 1), by: 1) {
        let (next, overflow) = product.multipliedReportingOverflow(by: k)
        if overflow { return nil }
        product = next
    }
    return product
}

/// (sum of sizes)! / Π(size!), or nil past `Int.max`.
func multinomial(_ sizes: [Int]) -> Int? {
    var total = 0
    var value = 1
    for size in sizes {
        for k in stride(from: 1, through: max(size, 0), by: 1) {
            total += 1
            // value · total / k stays whole: value is a product of binomials so far.
            let (product, overflow) = value.multipliedReportingOverflow(by: total)
            if overflow { return nil }
            value = product / k
        }
    }
    return value
}

extension Int {
    /// `5,040`: thousands grouped, as messages print counts.
    var grouped: String {
        let digits = String(self.magnitude)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return self < 0 ? "-" + result : result
    }
}
