// Command oracle computes upstream's template hash with the real k8s.io/api types, for the test vectors
// of lib/model/gohash.c (tests/vectors/templatehash). It is built by tests/oracle/run.sh against one
// release of k8s.io/api and k8s.io/apimachinery at a time; see that script.
//
//	oracle hash  < templates.jsonl   one line per template in: {"template": {...}, "collisionCount": N|null}
//	                                 one line out: {"hash": "..."} or {"error": "..."}; with -print also
//	                                 the go-spew print that was hashed
//	oracle facts                     the Go facts of v1.PodTemplateSpec as reflect sees them (the JSON that
//	                                 tests/gen-gotypes.py --json prints for the same release)
//
// SPDX-License-Identifier: Apache-2.0
package main

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"reflect"
	"sort"
	"strings"

	"github.com/davecgh/go-spew/spew"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/rand"
	kjson "sigs.k8s.io/json"
)

// DeepHashObject's printer before Kubernetes 1.30 (pkg/util/hash/hash.go): %#v with these settings.
var hashPrinter = spew.ConfigState{Indent: " ", SortKeys: true, DisableMethods: true, SpewKeys: true}

// apimachinery's dump.ForHash (pkg/util/dump, 1.29 on; k8s.io/utils/dump later): the same print with
// two more settings, which only %+v and Dump read. Both are run and must agree.
var forHashPrinter = spew.ConfigState{Indent: " ", SortKeys: true, DisableMethods: true, SpewKeys: true,
	DisablePointerAddresses: true, DisableCapacities: true}

type input struct {
	Template       json.RawMessage `json:"template"`
	CollisionCount *int32          `json:"collisionCount"`
}

type output struct {
	Hash  string `json:"hash,omitempty"`
	Print string `json:"print,omitempty"`
	Error string `json:"error,omitempty"`
}

// computeHash is controller.ComputeHash (pkg/controller/controller_utils.go) over DeepHashObject.
func computeHash(template *v1.PodTemplateSpec, collisionCount *int32) (string, string) {
	printed := hashPrinter.Sprintf("%#v", *template)
	if other := forHashPrinter.Sprintf("%#v", *template); other != printed {
		fmt.Fprintln(os.Stderr, "oracle: the two printer settings disagree")
		os.Exit(1)
	}
	hasher := fnv.New32a()
	hasher.Write([]byte(printed))
	if collisionCount != nil {
		b := make([]byte, 8)
		binary.LittleEndian.PutUint32(b, uint32(*collisionCount))
		hasher.Write(b)
	}
	return rand.SafeEncodeString(fmt.Sprint(hasher.Sum32())), printed
}

// served decodes a template as the API server does (case-sensitive, sigs.k8s.io/json) and passes it
// through protobuf, as storage and a controller's informer do.
func served(data []byte) (*v1.PodTemplateSpec, error) {
	var t v1.PodTemplateSpec
	if err := kjson.UnmarshalCaseSensitivePreserveInts(data, &t); err != nil {
		return nil, err
	}
	b, err := t.Marshal()
	if err != nil {
		return nil, err
	}
	var back v1.PodTemplateSpec
	if err := back.Unmarshal(b); err != nil {
		return nil, err
	}
	return &back, nil
}

func hashLines(withPrint bool) {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for in.Scan() {
		var o output
		var x input
		if err := json.Unmarshal(in.Bytes(), &x); err != nil {
			o.Error = err.Error()
		} else if t, err := served(x.Template); err != nil {
			o.Error = err.Error()
		} else {
			o.Hash, o.Print = computeHash(t, x.CollisionCount)
			if !withPrint {
				o.Print = ""
			}
		}
		enc.Encode(&o)
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "oracle:", err)
		os.Exit(1)
	}
}

// The types lib/model/gohash.c prints by hand: the facts stop there (as tests/gen-gotypes.py's do).
var special = map[string]bool{"resource.Quantity": true, "intstr.IntOrString": true, "v1.Time": true,
	"v1.FieldsV1": true}

func facts() {
	out := map[string][][3]string{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		switch t.Kind() {
		case reflect.Ptr, reflect.Slice:
			walk(t.Elem())
		case reflect.Map:
			walk(t.Key())
			walk(t.Elem())
		case reflect.Struct:
			name := t.String()
			if _, seen := out[name]; seen || special[name] {
				return
			}
			fields := [][3]string{}
			out[name] = fields
			for i := 0; i < t.NumField(); i++ {
				f := t.Field(i)
				tag := strings.Split(f.Tag.Get("json"), ",")[0]
				switch {
				case tag == "-" && f.Tag.Get("json") == "-":
					tag = "SKIP"
				case tag == "" && !f.Anonymous:
					tag = f.Name
				}
				fields = append(fields, [3]string{f.Name, tag, f.Type.String()})
				walk(f.Type)
			}
			out[name] = fields
		}
	}
	walk(reflect.TypeOf(v1.PodTemplateSpec{}))
	names := make([]string, 0, len(out))
	for n := range out {
		names = append(names, n)
	}
	sort.Strings(names)
	b, _ := json.MarshalIndent(out, "", " ")
	os.Stdout.Write(append(b, '\n'))
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: oracle hash [-print] < templates.jsonl | oracle facts")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "hash":
		hashLines(len(os.Args) > 2 && os.Args[2] == "-print")
	case "facts":
		facts()
	default:
		fmt.Fprintln(os.Stderr, "oracle: unknown mode", os.Args[1])
		os.Exit(2)
	}
}
