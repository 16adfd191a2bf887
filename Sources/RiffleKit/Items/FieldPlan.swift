/// How a page's items are read, and why: where the list is (with the lists that came close), and for
/// each part of an item the path it comes from, the evidence that chose it, and the runners-up.
/// `riffle inspect` prints it, and a feed can pin it (`feedEntry`).
///
/// Inferred from the page itself (`ItemExtractor.plan`): the values at each path across the items
/// (`FieldPlanner`), the key's name one signal among several. A feed's configured `items` and
/// `fields` win part by part.
package struct FieldPlan: Sendable, Equatable {
    /// The parts of an item a plan finds.
    package enum Part: Int, CaseIterable, Sendable, CustomStringConvertible {
        case title, link, author, time, score, comments, id

        /// The part's name, as `--fields` and feeds.json's `fields` write it.
        package var description: String {
            switch self {
            case .title: "title"
            case .link: "link"
            case .author: "author"
            case .time: "time"
            case .score: "score"
            case .comments: "comments"
            case .id: "id"
            }
        }
    }

    /// A path considered for a part, with its score and the evidence in words.
    package struct Candidate: Sendable, Equatable {
        package var path: JSONPath
        package var score: Double
        /// What the values there look like ("text of 3–12 words", "different on 20/20 items").
        package var reasons: [String]
    }

    /// Where one part comes from.
    package struct Choice: Sendable, Equatable {
        package var part: Part
        /// The path read first: the configured one, else the best candidate; nil when there is none.
        package var path: JSONPath?
        /// Whether the feed's `fields` named it.
        package var configured: Bool
        /// The inferred candidates, best first (the first is the choice unless `configured`); an item
        /// without a value at the chosen path gets the next.
        package var candidates: [Candidate]
    }

    /// An array the items may be in.
    package struct List: Sendable, Equatable {
        /// Its path from the root (empty for a top-level array).
        package var path: JSONPath
        package var count: Int
        package var score: Double
        package var reasons: [String]
    }

    /// The list the items are in.
    package var list: List
    /// Other arrays of objects that were considered, best first.
    package var otherLists: [List]
    /// Whether the feed's `items` named the list.
    package var listConfigured: Bool
    /// The member each element is opened to (Reddit's `data`, GraphQL's `node`), when elements are wrappers.
    package var unwrap: String?
    /// How many items the evidence was counted on.
    package var sampled: Int
    /// One choice per part, in `Part` order.
    package var choices: [Choice]

    /// The choice for `part`.
    package subscript(part: Part) -> Choice { choices[part.rawValue] }

    /// The paths that pin this plan, as feeds.json's `fields` writes them (paths are inside the
    /// opened wrapper, as configured fields are).
    package var fieldMapping: FieldMapping {
        FieldMapping(title: self[.title].path, link: self[.link].path, id: self[.id].path, time: self[.time].path,
                     author: self[.author].path, score: self[.score].path, comments: self[.comments].path)
    }
}
