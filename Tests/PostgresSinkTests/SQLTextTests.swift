import Testing
import PostgresSink

/// What the sync pastes into SQL text and COPY data: a quote, a backslash or a tab in a value
/// cannot end the value early or change it; only canonical UUIDs pass as `uuid` keys.
@Suite struct SQLTextQuoting {
    @Test func literalDoublesQuotesAndKeepsBackslashes() {
        #expect(SQLText.literal("plain") == "'plain'")
        #expect(SQLText.literal("o'hara") == "'o''hara'")
        #expect(SQLText.literal("'; DROP TABLE subscriptions; --") == "'''; DROP TABLE subscriptions; --'")
        // standard_conforming_strings on: a backslash is an ordinary character, not an escape.
        #expect(SQLText.literal(#"a\'b"#) == #"'a\''b'"#)
    }

    @Test func copyFieldEscapesBackslashTabNewlineAndCarriageReturn() {
        #expect(SQLText.copyField(nil) == #"\N"#)
        #expect(SQLText.copyField("plain") == "plain")
        #expect(SQLText.copyField(#"a\b"#) == #"a\\b"#)
        #expect(SQLText.copyField("a\tb\nc\rd") == #"a\tb\nc\rd"#)
        #expect(SQLText.copyField(#"\N"#) == #"\\N"#)   // the text \N is not NULL
        #expect(SQLText.copyLine(["x\ty", nil, "z"]) == "x\\ty\t\\N\tz\n")
    }

    @Test func onlyCanonicalUUIDsAreKeys() {
        #expect(SQLText.isUUID("00000001-0000-4000-8000-00000000000a"))
        #expect(SQLText.isUUID("00000001-0000-4000-8000-00000000000A"))
        #expect(!SQLText.isUUID("00000001000040008000000000000000000a"))        // 36 characters, no hyphens
        #expect(!SQLText.isUUID("00000001-0000-4000-8000-00000000000a0"))       // one digit too many
        #expect(!SQLText.isUUID("00000001-0000-4000-8000-00000000000"))         // one too few
        #expect(!SQLText.isUUID("{00000001-0000-4000-8000-00000000000a}"))
        #expect(!SQLText.isUUID("00000001-0000-4000-8000-00000000000g"))
        #expect(!SQLText.isUUID("tom"))
    }

    @Test func textColumnsRefuseNULAndOverlongValues() {
        #expect(SQLText.fitsText("abc", maxLength: 3) && !SQLText.fitsText("abcd", maxLength: 3))
        #expect(!SQLText.fitsText("a\0b"))
    }
}
