import ObserverHarnessInterface

/// What the search field tells whoever handles the query.
@MainActor
public protocol SearchFieldDelegate: AnyObject {
    func searchField(_ field: SearchField, didChangeQuery query: String)
}

/// The search field at the top of the Search tab.
@MainActor
public final class SearchField {
    public private(set) lazy var delegate = DelegateSlot<any SearchFieldDelegate>(of: self)

    public init() {}

    public func type(_ query: String) {
        delegate.call { $0.searchField(self, didChangeQuery: query) }
    }
}

/// The Search tab: runs the query as the user types.
@MainActor
public final class SearchScreen: SearchFieldDelegate, KeyboardAvoiding {
    public let field: SearchField
    public private(set) var queries: [String] = []
    public private(set) var bottomInset = 0.0

    public init(field: SearchField) {
        self.field = field
        field.delegate.set(self)
    }

    /// Hands the field over: the suggestions panel takes it from here.
    public func endEditing() {
        field.delegate.set(nil)
    }

    public func searchField(_ field: SearchField, didChangeQuery query: String) {
        queries.append(query)
    }

    public func keyboardWillShow(height: Double) {
        bottomInset = height
    }
}

/// Suggestions shown under the field. It makes itself the field's delegate,
/// whether or not the search screen is still using it.
@MainActor
public final class SuggestionsPanel: SearchFieldDelegate {
    public private(set) var suggestions: [String] = []

    public init() {}

    public func attach(to field: SearchField) {
        field.delegate.set(self)  // bug: delegate-overwritten
    }

    public func searchField(_ field: SearchField, didChangeQuery query: String) {
        suggestions = [query + " podcast"]
    }
}
