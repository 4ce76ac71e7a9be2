// An independent check of the Swift Transparency module with Go's golang.org/x/mod/sumdb/note
// and golang.org/x/mod/sumdb/tlog. Run by GoInteropTests (GOPATH mode, offline):
//
//	GOPATH=/usr/share/gocode GO111MODULE=off GOPROXY=off go run main.go input.json
//
// It reads what the Swift side produced, checks it with Go's code, and prints a JSON report:
// the errors found, and notes signed by Go for the Swift side to check in turn.
package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

type inclusion struct {
	Index int64    `json:"index"`
	Size  int64    `json:"size"`
	Root  string   `json:"root"`
	Proof []string `json:"proof"`
}

type consistency struct {
	From    int64    `json:"from"`
	To      int64    `json:"to"`
	OldRoot string   `json:"oldRoot"`
	NewRoot string   `json:"newRoot"`
	Proof   []string `json:"proof"`
}

type input struct {
	VerifierKey  string        `json:"verifierKey"`
	PrivateKey   string        `json:"privateKey"`
	Checkpoint   string        `json:"checkpoint"`
	NoteText     string        `json:"noteText"`
	Leaves       []string      `json:"leaves"`
	StoredHashes []string      `json:"storedHashes"`
	Root         string        `json:"root"`
	Inclusions   []inclusion   `json:"inclusions"`
	Consistency  []consistency `json:"consistency"`
	Forged       []inclusion   `json:"forgedInclusions"`
}

type output struct {
	Errors           []string `json:"errors"`
	Checks           int      `json:"checks"`
	OpenedText       string   `json:"openedText"`
	GoSignedOurKey   string   `json:"goSignedWithOurKey"`
	GoPrivateKey     string   `json:"goPrivateKey"`
	GoVerifierKey    string   `json:"goVerifierKey"`
	GoSignedNote     string   `json:"goSignedNote"`
	GoNoteText       string   `json:"goNoteText"`
}

// zeroReader gives a fixed "random" stream so Go's key generation is reproducible.
type zeroReader struct{ b byte }

func (z *zeroReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = z.b
		z.b += 7
	}
	return len(p), nil
}

func hash(s string) (tlog.Hash, error) {
	var h tlog.Hash
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b) != len(h) {
		return h, fmt.Errorf("bad hash %q", s)
	}
	copy(h[:], b)
	return h, nil
}

func hashes(list []string) ([]tlog.Hash, error) {
	var out []tlog.Hash
	for _, s := range list {
		h, err := hash(s)
		if err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, nil
}

func main() {
	var in input
	var out output
	fail := func(format string, args ...interface{}) { out.Errors = append(out.Errors, fmt.Sprintf(format, args...)) }
	data, err := os.ReadFile(os.Args[1])
	if err == nil {
		err = json.Unmarshal(data, &in)
	}
	if err != nil {
		fail("reading input: %v", err)
	}

	// (a) Our signed checkpoint opens with Go's note.Open and our verifier key.
	verifier, err := note.NewVerifier(in.VerifierKey)
	if err != nil {
		fail("note.NewVerifier(our key): %v", err)
	} else {
		n, err := note.Open([]byte(in.Checkpoint), note.VerifierList(verifier))
		if err != nil {
			fail("note.Open(our checkpoint): %v", err)
		} else {
			out.OpenedText = n.Text
		}
		out.Checks++
		// A changed checkpoint must not open.
		tampered := bytes.Replace([]byte(in.Checkpoint), []byte("\n"), []byte("\n\n"), 1)
		if _, err := note.Open(tampered, note.VerifierList(verifier)); err == nil {
			fail("note.Open accepted a tampered checkpoint")
		}
		out.Checks++
	}

	// (c) Our private key text parses with note.NewSigner and signs what we sign.
	signer, err := note.NewSigner(in.PrivateKey)
	if err != nil {
		fail("note.NewSigner(our key): %v", err)
	} else {
		if verifier != nil && (signer.KeyHash() != verifier.KeyHash() || signer.Name() != verifier.Name()) {
			fail("signer and verifier disagree: %s %08x vs %s %08x", signer.Name(), signer.KeyHash(), verifier.Name(), verifier.KeyHash())
		}
		msg, err := note.Sign(&note.Note{Text: in.NoteText}, signer)
		if err != nil {
			fail("note.Sign with our key: %v", err)
		}
		out.GoSignedOurKey = string(msg)
		out.Checks++
	}

	// (b) Our tree: Go's stored hashes equal ours, Go's root equals ours, and our proofs check.
	var stored []tlog.Hash
	reader := tlog.HashReaderFunc(func(indexes []int64) ([]tlog.Hash, error) {
		var list []tlog.Hash
		for _, i := range indexes {
			if i < 0 || i >= int64(len(stored)) {
				return nil, fmt.Errorf("no stored hash %d", i)
			}
			list = append(list, stored[i])
		}
		return list, nil
	})
	for i, leaf := range in.Leaves {
		record, err := base64.StdEncoding.DecodeString(leaf)
		if err != nil {
			fail("leaf %d: %v", i, err)
			continue
		}
		more, err := tlog.StoredHashes(int64(i), record, reader)
		if err != nil {
			fail("tlog.StoredHashes(%d): %v", i, err)
			continue
		}
		stored = append(stored, more...)
	}
	ours, err := hashes(in.StoredHashes)
	if err != nil {
		fail("our stored hashes: %v", err)
	} else if len(ours) != len(stored) {
		fail("we stored %d hashes, tlog %d", len(ours), len(stored))
	} else {
		for i := range ours {
			if ours[i] != stored[i] {
				fail("stored hash %d differs from tlog's", i)
				break
			}
		}
	}
	out.Checks++
	if root, err := tlog.TreeHash(int64(len(in.Leaves)), reader); err != nil {
		fail("tlog.TreeHash: %v", err)
	} else if root.String() != in.Root {
		fail("tlog.TreeHash = %s, ours %s", root, in.Root)
	}
	out.Checks++
	for _, p := range in.Inclusions {
		root, err1 := hash(p.Root)
		proof, err2 := hashes(p.Proof)
		record, err3 := base64.StdEncoding.DecodeString(in.Leaves[p.Index])
		if err1 != nil || err2 != nil || err3 != nil {
			fail("inclusion %d/%d: bad input", p.Index, p.Size)
			continue
		}
		if err := tlog.CheckRecord(proof, p.Size, root, p.Index, tlog.RecordHash(record)); err != nil {
			fail("tlog.CheckRecord(leaf %d of %d): %v", p.Index, p.Size, err)
		}
		// tlog proves from its own stored hashes: the same path as ours.
		goProof, err := tlog.ProveRecord(p.Size, p.Index, reader)
		if err != nil || len(goProof) != len(proof) {
			fail("tlog.ProveRecord(leaf %d of %d) = %d hashes, ours %d (%v)", p.Index, p.Size, len(goProof), len(proof), err)
		} else {
			for i := range proof {
				if goProof[i] != proof[i] {
					fail("tlog.ProveRecord(leaf %d of %d) differs at %d", p.Index, p.Size, i)
					break
				}
			}
		}
		out.Checks++
	}
	for _, p := range in.Consistency {
		oldRoot, err1 := hash(p.OldRoot)
		newRoot, err2 := hash(p.NewRoot)
		proof, err3 := hashes(p.Proof)
		if err1 != nil || err2 != nil || err3 != nil {
			fail("consistency %d->%d: bad input", p.From, p.To)
			continue
		}
		if err := tlog.CheckTree(proof, p.To, newRoot, p.From, oldRoot); err != nil {
			fail("tlog.CheckTree(%d -> %d): %v", p.From, p.To, err)
		}
		goProof, err := tlog.ProveTree(p.To, p.From, reader)
		if err != nil || len(goProof) != len(proof) {
			fail("tlog.ProveTree(%d -> %d) = %d hashes, ours %d (%v)", p.From, p.To, len(goProof), len(proof), err)
		} else {
			for i := range proof {
				if goProof[i] != proof[i] {
					fail("tlog.ProveTree(%d -> %d) differs at %d", p.From, p.To, i)
					break
				}
			}
		}
		out.Checks++
	}
	for _, p := range in.Forged {
		root, err1 := hash(p.Root)
		proof, err2 := hashes(p.Proof)
		record, err3 := base64.StdEncoding.DecodeString(in.Leaves[p.Index])
		if err1 == nil && err2 == nil && err3 == nil && tlog.CheckRecord(proof, p.Size, root, p.Index, tlog.RecordHash(record)) == nil {
			fail("tlog.CheckRecord accepted a forged proof for leaf %d of %d", p.Index, p.Size)
		}
		out.Checks++
	}

	// Conversely: a key generated and a note signed by Go, for the Swift side to check.
	skey, vkey, err := note.GenerateKey(&zeroReader{b: 1}, "go.example/interop")
	if err != nil {
		fail("note.GenerateKey: %v", err)
	} else {
		out.GoPrivateKey, out.GoVerifierKey = skey, vkey
		goSigner, err := note.NewSigner(skey)
		if err != nil {
			fail("note.NewSigner(Go's key): %v", err)
		} else {
			out.GoNoteText = "go.example/interop\n7\n" + base64.StdEncoding.EncodeToString(make([]byte, 32)) + "\n"
			msg, err := note.Sign(&note.Note{Text: out.GoNoteText}, goSigner)
			if err != nil {
				fail("note.Sign(Go's key): %v", err)
			}
			out.GoSignedNote = string(msg)
		}
	}

	json.NewEncoder(os.Stdout).Encode(out)
}
