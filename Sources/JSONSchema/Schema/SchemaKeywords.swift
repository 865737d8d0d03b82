/// Which keywords hold subschemas, and in what shape.
///
/// A walk over a schema document follows these keywords into the schemas
/// they hold; every other keyword's value is plain data.
public enum SchemaKeywords {
    /// How a keyword holds its subschemas.
    public enum Shape: Sendable {
        /// One schema (`items`, `not`, `additionalProperties`, ...).
        case schema
        /// An array of schemas (`allOf`, `anyOf`, `oneOf`, `prefixItems`).
        case schemaArray
        /// An object whose values are schemas (`properties`, `$defs`, ...).
        case schemaMap
    }

    /// The shape of `keyword`'s subschemas; nil when it holds none.
    public static func shape(of keyword: String) -> Shape? {
        switch keyword {
        case "additionalProperties", "propertyNames", "items", "contains", "not", "if", "then", "else",
             "unevaluatedItems", "unevaluatedProperties", "contentSchema":
            return .schema
        case "allOf", "anyOf", "oneOf", "prefixItems":
            return .schemaArray
        case "$defs", "definitions", "properties", "patternProperties", "dependentSchemas":
            return .schemaMap
        default:
            return nil
        }
    }
}
