import Foundation
import Testing

/// Runs python3 with pyarrow or duckdb over a written file and decodes what the script prints.
/// The scripts print every value as a string (or null), so 64-bit integers pass through JSON
/// exactly: timestamps as their microseconds, decimals as their unscaled integer (pyarrow) or
/// their text (DuckDB).
enum ExternalReaders {
    static let hasPyarrow = python(canImport: "pyarrow")
    static let hasDuckDB = python(canImport: "duckdb")
    static let hasPython = python(canImport: "json")

    static let missingPyarrow: Comment = "python3 with pyarrow is not installed (pip install pyarrow)"
    static let missingDuckDB: Comment = "python3 with duckdb is not installed (pip install duckdb)"

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// What pyarrow reads from a file.
    struct PyarrowDump: Decodable {
        struct Column: Decodable {
            var has_min_max: Bool
            var min: String?
            var max: String?
            var null_count: Int?
            var num_values: Int
            var encodings: [String]
            var has_dictionary_page: Bool
        }
        struct RowGroup: Decodable {
            var num_rows: Int
            var columns: [Column]
        }
        var num_rows: Int
        var num_row_groups: Int
        var created_by: String?
        var metadata: [String: String]
        var names: [String]
        var types: [String]
        var nullable: [Bool]
        var row_groups: [RowGroup]
        var values: [[String?]]
        var decimal_text: [[String?]]
    }

    /// What DuckDB reads from a file.
    struct DuckDBDump: Decodable {
        struct Stat: Decodable {
            var row_group: Int
            var column: Int
            var min: String?
            var max: String?
            var null_count: Int?
        }
        var count: Int
        var names: [String]
        var types: [String]
        var values: [[String?]]
        var metadata: [String: String]
        var stats: [Stat]
    }

    static func pyarrow(_ path: String) throws -> PyarrowDump {
        try JSONDecoder().decode(PyarrowDump.self, from: run(pyarrowScript, path))
    }

    static func duckdb(_ path: String) throws -> DuckDBDump {
        try JSONDecoder().decode(DuckDBDump.self, from: run(duckdbScript, path))
    }

    /// Runs `python3 -c script args`, returning stdout; a non-zero exit throws with stderr.
    static func run(_ script: String, _ args: String...) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + args
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "python3 exited \(process.terminationStatus): \(String(decoding: errData, as: UTF8.self))")
        }
        return outData
    }

    private static func python(canImport module: String) -> Bool {
        (try? run("import \(module)")) != nil
    }

    static let pyarrowScript = #"""
import json, sys
import pyarrow as pa, pyarrow.parquet as pq, pyarrow.compute as pc

def raw(v):
    if v is None: return None
    if isinstance(v, bool): return "true" if v else "false"
    if isinstance(v, bytes): return v.decode("utf-8")
    return str(v)

path = sys.argv[1]
f = pq.ParquetFile(path)
md = f.metadata
schema = f.schema_arrow
out = {
    "num_rows": md.num_rows, "num_row_groups": md.num_row_groups, "created_by": md.created_by,
    "metadata": {k.decode(): v.decode() for k, v in (md.metadata or {}).items()},
    "names": schema.names, "types": [str(field.type) for field in schema],
    "nullable": [field.nullable for field in schema], "row_groups": [], "values": [], "decimal_text": [],
}
for i in range(md.num_row_groups):
    rg = md.row_group(i)
    cols = []
    for j in range(rg.num_columns):
        c = rg.column(j)
        s = c.statistics
        mm = s is not None and s.has_min_max
        cols.append({"has_min_max": bool(mm), "min": raw(s.min_raw) if mm else None, "max": raw(s.max_raw) if mm else None,
                     "null_count": s.null_count if s is not None and s.has_null_count else None,
                     "num_values": c.num_values, "encodings": list(c.encodings), "has_dictionary_page": c.has_dictionary_page})
    out["row_groups"].append({"num_rows": rg.num_rows, "columns": cols})
table = f.read()
for col in table.columns:
    t = col.type
    text = []
    if pa.types.is_timestamp(t):
        values = [raw(v) for v in pc.cast(col, pa.int64()).to_pylist()]
    elif pa.types.is_decimal(t):
        py = col.to_pylist()
        values = [None if v is None else str(int(v.scaleb(t.scale))) for v in py]
        text = [None if v is None else format(v, "f") for v in py]
    else:
        values = [raw(v) for v in col.to_pylist()]
    out["values"].append(values)
    out["decimal_text"].append(text)
sys.stdout.reconfigure(encoding="utf-8")
print(json.dumps(out, ensure_ascii=False))
"""#

    static let duckdbScript = #"""
import json, sys
import duckdb

path = sys.argv[1]
con = duckdb.connect()
con.execute("SET threads = 1")
desc = con.execute("DESCRIBE SELECT * FROM read_parquet(?)", [path]).fetchall()
names = [r[0] for r in desc]
types = [r[1] for r in desc]
exprs = []
for n, t in zip(names, types):
    q = '"' + n.replace('"', '""') + '"'
    exprs.append(f"epoch_us({q})::VARCHAR" if t.startswith("TIMESTAMP") else f"{q}::VARCHAR")
rows = con.execute(f"SELECT {', '.join(exprs)} FROM read_parquet(?)", [path]).fetchall()
count = con.execute("SELECT count(*) FROM read_parquet(?)", [path]).fetchone()[0]
kv = con.execute("SELECT key, value FROM parquet_kv_metadata(?)", [path]).fetchall()
stats = con.execute("SELECT row_group_id, column_id, stats_min_value, stats_max_value, stats_null_count FROM parquet_metadata(?) ORDER BY row_group_id, column_id", [path]).fetchall()
def text(b): return b.decode("utf-8") if isinstance(b, (bytes, bytearray)) else str(b)
out = {
    "count": count, "names": names, "types": types,
    "values": [[row[i] for row in rows] for i in range(len(names))],
    "metadata": {text(k): text(v) for k, v in kv},
    "stats": [{"row_group": r[0], "column": r[1], "min": r[2], "max": r[3], "null_count": r[4]} for r in stats],
}
sys.stdout.reconfigure(encoding="utf-8")
print(json.dumps(out, ensure_ascii=False))
"""#
}
