/// One column of a table: its name, type, whether it may hold nulls, and whether its chunks are
/// dictionary-encoded (for low-cardinality columns: plan names, event types, stores).
public struct ParquetColumn: Sendable, Equatable {
    /// The column's name in the file (path_in_schema).
    public var name: String
    /// What the column holds.
    public var type: ParquetColumnType
    /// OPTIONAL (with definition levels) when true, REQUIRED when false.
    public var nullable: Bool
    /// Dictionary-encodes each column chunk until its dictionary outgrows the writer's limits,
    /// then falls back to PLAIN for the rest of that chunk. Not offered for `boolean`.
    public var dictionary: Bool

    /// A column named `name` of `type`; required and PLAIN-encoded unless told otherwise.
    public init(_ name: String, _ type: ParquetColumnType, nullable: Bool = false, dictionary: Bool = false) {
        self.name = name
        self.type = type
        self.nullable = nullable
        self.dictionary = dictionary
    }
}
