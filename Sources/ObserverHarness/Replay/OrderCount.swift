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
