import Foundation
import Testing

/// Go's golang.org/x/mod/sumdb/note and sumdb/tlog check, independently, what the binary made:
/// the checkpoint's signature (`note.Open` with our verifier key), the root (recomputed from the
/// export lines with `tlog.StoredHashes` / `tlog.TreeHash`, and our hashes file equal to Go's
/// stored hashes), every inclusion path of a user proof (`tlog.CheckRecord`) and a consistency
/// proof (`tlog.CheckTree`); and, written here from docs/proofs.md alone, the user index: its
/// root recomputed from the export lines (each user's chain, the sparse Merkle tree keyed by
/// SHA-256 of the user id) equal to the checkpoint's `user-smt` line, and every user proof's
/// completeness path (present and absent users) folded to that root. Offline, GOPATH mode over
/// Debian's golang-golang-x-mod-dev; skipped with a message where `go` or that package is missing.
@Suite struct ProofGoVerifier {
    static let gopath = "/usr/share/gocode"

    static var goBinary: String? {
        let candidates = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/go" } + ["/usr/bin/go", "/usr/lib/go/bin/go"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static let program = #"""
    package main

    import (
    	"bytes"
    	"crypto/sha256"
    	"encoding/base64"
    	"encoding/binary"
    	"encoding/json"
    	"fmt"
    	"os"
    	"strconv"
    	"sort"
    	"strings"

    	"golang.org/x/mod/sumdb/note"
    	"golang.org/x/mod/sumdb/tlog"
    )

    type record struct {
    	Index     int64    `json:"index"`
    	Line      string   `json:"line"`
    	Inclusion []string `json:"inclusion"`
    }

    type entry struct {
    	Key   string `json:"key"`
    	Count uint64 `json:"count"`
    	Chain string `json:"chain"`
    }

    type completeness struct {
    	Entries  uint64   `json:"entries"`
    	Siblings []string `json:"siblings"`
    	Entry    *entry   `json:"entry"`
    	Absent   *entry   `json:"absent"`
    }

    type userProof struct {
    	User         string       `json:"user"`
    	Records      []record     `json:"records"`
    	Completeness completeness `json:"completeness"`
    }

    type input struct {
    	UserProofs  []userProof `json:"userProofs"`
    	Verifier    string   `json:"verifier"`
    	Checkpoint  string   `json:"checkpoint"`
    	Old         string   `json:"old"`
    	Lines       []string `json:"lines"`
    	StoredFile  string   `json:"storedFile"`
    	Records     []record `json:"records"`
    	Consistency []string `json:"consistency"`
    }

    var errors []string
    var checks int

    func fail(format string, args ...interface{}) { errors = append(errors, fmt.Sprintf(format, args...)) }

    func hash(s string) tlog.Hash {
    	b, err := base64.StdEncoding.DecodeString(s)
    	if err != nil || len(b) != 32 {
    		fail("bad hash %q", s)
    		return tlog.Hash{}
    	}
    	var h tlog.Hash
    	copy(h[:], b)
    	return h
    }

    func open(v note.Verifier, text string) (int64, tlog.Hash) {
    	n, err := note.Open([]byte(text), note.VerifierList(v))
    	if err != nil {
    		fail("note.Open: %v", err)
    		return 0, tlog.Hash{}
    	}
    	checks++
    	lines := strings.Split(n.Text, "\n")
    	size, err := strconv.ParseInt(lines[1], 10, 64)
    	if err != nil {
    		fail("size: %v", err)
    	}
    	return size, hash(lines[2])
    }

    // The user index of docs/proofs.md: leaf SHA-256(0x00 || key || count big-endian || chain),
    // node SHA-256(0x01 || left || right), empty subtree 32 zero bytes, a lone entry as high as it goes.
    type kv struct {
    	key   [32]byte
    	count uint64
    	chain [32]byte
    }

    func leaf(key [32]byte, count uint64, chain [32]byte) tlog.Hash {
    	var b [72]byte
    	copy(b[:32], key[:])
    	binary.BigEndian.PutUint64(b[32:40], count)
    	copy(b[40:], chain[:])
    	return tlog.RecordHash(b[:])
    }

    func bit(key [32]byte, d int) bool { return key[d/8]&(0x80>>(d%8)) != 0 }

    func smt(es []kv, d int) tlog.Hash {
    	if len(es) == 0 {
    		return tlog.Hash{}
    	}
    	if len(es) == 1 {
    		return leaf(es[0].key, es[0].count, es[0].chain)
    	}
    	i := sort.Search(len(es), func(i int) bool { return bit(es[i].key, d) })
    	return tlog.NodeHash(smt(es[:i], d+1), smt(es[i:], d+1))
    }

    func key32(s string) [32]byte {
    	var k [32]byte
    	h := hash(s)
    	copy(k[:], h[:])
    	return k
    }

    func userIndexLine(text string) (uint64, tlog.Hash) {
    	for _, line := range strings.Split(text, "\n") {
    		f := strings.Split(line, " ")
    		if len(f) == 3 && f[0] == "user-smt" {
    			n, err := strconv.ParseUint(f[1], 10, 64)
    			if err != nil {
    				fail("user-smt count: %v", err)
    			}
    			return n, hash(f[2])
    		}
    	}
    	fail("no user-smt line")
    	return 0, tlog.Hash{}
    }

    func main() {
    	data, _ := os.ReadFile(os.Args[1])
    	var in input
    	if err := json.Unmarshal(data, &in); err != nil {
    		panic(err)
    	}
    	v, err := note.NewVerifier(in.Verifier)
    	if err != nil {
    		panic(err)
    	}
    	size, root := open(v, in.Checkpoint)
    	oldSize, oldRoot := open(v, in.Old)
    	if _, err := note.Open([]byte(strings.Replace(in.Checkpoint, "\n", "\n\n", 1)), note.VerifierList(v)); err == nil {
    		fail("a tampered checkpoint opened")
    	}
    	var stored []tlog.Hash
    	reader := tlog.HashReaderFunc(func(idx []int64) ([]tlog.Hash, error) {
    		out := make([]tlog.Hash, len(idx))
    		for i, x := range idx {
    			out[i] = stored[x]
    		}
    		return out, nil
    	})
    	for i, line := range in.Lines {
    		hs, err := tlog.StoredHashes(int64(i), []byte(line), reader)
    		if err != nil {
    			panic(err)
    		}
    		stored = append(stored, hs...)
    	}
    	ours, _ := base64.StdEncoding.DecodeString(in.StoredFile)
    	if len(ours) != 32*len(stored) {
    		fail("our hashes file holds %d bytes of hashes, Go stores %d hashes", len(ours), len(stored))
    	} else {
    		for i, h := range stored {
    			if string(ours[32*i:32*i+32]) != string(h[:]) {
    				fail("stored hash %d differs", i)
    				break
    			}
    		}
    		checks++
    	}
    	if th, err := tlog.TreeHash(size, reader); err != nil || th != root {
    		fail("tree hash at %d: %v %v, checkpoint root %v", size, th, err, root)
    	} else {
    		checks++
    	}
    	if th, err := tlog.TreeHash(oldSize, reader); err != nil || th != oldRoot {
    		fail("tree hash at %d: %v, old checkpoint root %v", oldSize, th, oldRoot)
    	} else {
    		checks++
    	}
    	for _, r := range in.Records {
    		var p tlog.RecordProof
    		for _, h := range r.Inclusion {
    			p = append(p, hash(h))
    		}
    		if err := tlog.CheckRecord(p, size, root, r.Index, tlog.RecordHash([]byte(r.Line))); err != nil {
    			fail("record %d: %v", r.Index, err)
    		} else {
    			checks++
    		}
    		if tlog.CheckRecord(p, size, root, r.Index, tlog.RecordHash([]byte(r.Line+" "))) == nil {
    			fail("record %d: a changed line passed", r.Index)
    		}
    	}
    	// The user index recomputed from the export lines.
    	indexCount, indexRoot := userIndexLine(in.Checkpoint)
    	chains := map[[32]byte]*kv{}
    	for i, line := range in.Lines {
    		if int64(i) >= size {
    			break
    		}
    		var ev struct {
    			User string `json:"user"`
    		}
    		if err := json.Unmarshal([]byte(line), &ev); err != nil {
    			panic(err)
    		}
    		k := sha256.Sum256([]byte(ev.User))
    		e := chains[k]
    		if e == nil {
    			e = &kv{key: k}
    			chains[k] = e
    		}
    		lh := tlog.RecordHash([]byte(line))
    		e.chain = sha256.Sum256(append(e.chain[:], lh[:]...))
    		e.count++
    	}
    	var es []kv
    	for _, e := range chains {
    		es = append(es, *e)
    	}
    	sort.Slice(es, func(i, j int) bool { return bytes.Compare(es[i].key[:], es[j].key[:]) < 0 })
    	if r := smt(es, 0); r != indexRoot || uint64(len(es)) != indexCount {
    		fail("user index of the export: %d users, root %v; the checkpoint says %d, %v", len(es), r, indexCount, indexRoot)
    	} else {
    		checks++
    	}
    	for _, up := range in.UserProofs {
    		var chain [32]byte
    		for _, r := range up.Records {
    			lh := tlog.RecordHash([]byte(r.Line))
    			chain = sha256.Sum256(append(chain[:], lh[:]...))
    		}
    		k := sha256.Sum256([]byte(up.User))
    		c := up.Completeness
    		var node tlog.Hash
    		switch {
    		case c.Entry != nil:
    			if key32(c.Entry.Key) != k || c.Entry.Count != uint64(len(up.Records)) || key32(c.Entry.Chain) != chain {
    				fail("user %q: the entry is not the records'", up.User)
    			}
    			node = leaf(k, c.Entry.Count, key32(c.Entry.Chain))
    		case c.Absent != nil:
    			ok := key32(c.Absent.Key) != k && len(up.Records) == 0
    			for d := 0; d < len(c.Siblings); d++ {
    				ok = ok && bit(key32(c.Absent.Key), d) == bit(k, d)
    			}
    			if !ok {
    				fail("user %q: the absence entry is not on its path", up.User)
    			}
    			node = leaf(key32(c.Absent.Key), c.Absent.Count, key32(c.Absent.Chain))
    		default: // "absent": null, an empty subtree
    			if len(up.Records) != 0 {
    				fail("user %q: absent with records", up.User)
    			}
    		}
    		for d := len(c.Siblings) - 1; d >= 0; d-- {
    			if bit(k, d) {
    				node = tlog.NodeHash(hash(c.Siblings[d]), node)
    			} else {
    				node = tlog.NodeHash(node, hash(c.Siblings[d]))
    			}
    		}
    		if node != indexRoot {
    			fail("user %q: the completeness path gives %v, the user-smt root is %v", up.User, node, indexRoot)
    		} else {
    			checks++
    		}
    	}
    	var tp tlog.TreeProof
    	for _, h := range in.Consistency {
    		tp = append(tp, hash(h))
    	}
    	if err := tlog.CheckTree(tp, size, root, oldSize, oldRoot); err != nil {
    		fail("consistency %d -> %d: %v", oldSize, size, err)
    	} else {
    		checks++
    	}
    	out, _ := json.Marshal(map[string]interface{}{"checks": checks, "errors": errors})
    	fmt.Println(string(out))
    }
    """#

    @Test("Go's note and tlog verify our checkpoint, hashes file, inclusion and consistency proofs")
    func goVerifies() throws {
        guard let go = Self.goBinary, FileManager.default.fileExists(atPath: Self.gopath + "/src/golang.org/x/mod/sumdb/tlog/tlog.go") else {
            print("ProofGoVerifier skipped: needs `go` and \(Self.gopath)/src/golang.org/x/mod (apt-get install -y golang-go golang-golang-x-mod-dev)")
            return
        }
        let f = try ProofFixture(users: 40, seed: 0x5EED21)
        defer { f.remove() }
        let old = try f.checkpoint("cp-old")
        try ProofFixture.ok(Tool.run(["import", "--log", f.log, "-"], stdin: (1...5).map { "{\"id\":\"go-append-\($0)\",\"type\":\"account_created\",\"user\":\"go-user-\($0 % 2)\",\"time\":\"2026-01-23T10:00:00Z\",\"data\":{},\"source\":\"server\"}" }.joined(separator: "\n") + "\n"))
        let new = try f.checkpoint("cp-new")
        let users = try f.users()
        var records: [[String: Any]] = []
        var userProofs: [[String: Any]] = []
        for user in users.prefix(8) + ["go-user-1"] + (0..<4).map({ "nobody-\($0)" }) {
            let proof = ProofFixture.object(try f.prove(user, new))
            records += proof["records"] as! [[String: Any]]
            userProofs.append(["user": user, "records": proof["records"]!, "completeness": proof["completeness"]!])
        }
        let consistency = ProofFixture.object(try ProofFixture.ok(Tool.run(["prove", "--log", f.log, "--consistency", "--from", old, "--checkpoint", new])).out)
        let hashes = try Data(contentsOf: URL(fileURLWithPath: f.log + "/proofs/hashes")).dropFirst(96)
        let input: [String: Any] = [
            "verifier": try String(contentsOfFile: f.verifier, encoding: .utf8).trimmingCharacters(in: .newlines),
            "checkpoint": try String(contentsOfFile: new, encoding: .utf8), "old": try String(contentsOfFile: old, encoding: .utf8),
            "lines": try f.exportLines(), "storedFile": Data(hashes).base64EncodedString(), "records": records,
            "userProofs": userProofs, "consistency": consistency["proof"] as! [String],
        ]
        let work = f.folder + "/go"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        try Self.program.write(toFile: work + "/main.go", atomically: true, encoding: .utf8)
        try JSONSerialization.data(withJSONObject: input).write(to: URL(fileURLWithPath: work + "/input.json"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: go)
        process.arguments = ["run", "main.go", "input.json"]
        process.currentDirectoryURL = URL(fileURLWithPath: work)
        // GOPATH mode, no module proxy, no toolchain download: nothing leaves the machine.
        process.environment = ["PATH": "/usr/bin:/bin:/usr/local/bin", "HOME": work, "GOPATH": Self.gopath, "GO111MODULE": "off",
                               "GOFLAGS": "", "GOPROXY": "off", "GOTOOLCHAIN": "local",
                               "GOCACHE": FileManager.default.temporaryDirectory.appendingPathComponent("replay-tool-proofs-go-cache").path]
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(String(decoding: err, as: UTF8.self))")
        let report = try JSONSerialization.jsonObject(with: out) as! [String: Any]
        #expect((report["errors"] as? [String] ?? []).isEmpty, "\(report)")
        // Two signatures, the hashes file, two roots, every record, the user index root, every
        // user's completeness path, the consistency proof.
        #expect(report["checks"] as? Int == 2 + 1 + 2 + records.count + 1 + userProofs.count + 1, "\(report)")
        #expect(records.count > 10)
    }
}
