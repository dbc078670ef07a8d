package httpapi

import (
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/valyala/fastjson"
)

// TestFastActionLineMatchesEncodingJSON checks, on random action lines, that whenever the
// fastjson path takes a line it reads what the encoding/json path reads.
func TestFastActionLineMatchesEncodingJSON(t *testing.T) {
	actions := []string{`"index"`, `"create"`, `"delete"`, `"update"`, `"bogus"`}
	fields := []string{`"_index":"books"`, `"_index":7`, `"_id":"a1"`, `"_id":42`, `"_id":null`, `"_id":""`, `"_id":"é\n"`,
		`"if_seq_no":3`, `"if_seq_no":"3"`, `"if_primary_term":1`, `"if_seq_no":1.5`, `"op_type":"create"`,
		`"require_alias":true`, `"require_alias":"true"`, `"routing":"r"`, `"version":5`, `"version_type":"external"`,
		`"pipeline":"p"`, `"unknown":1`, `"_index":null`}
	r := rand.New(rand.NewSource(4))
	var p fastjson.Parser
	taken := 0
	for i := 0; i < 20000; i++ {
		var parts []string
		for j := 0; j < r.Intn(4); j++ {
			parts = append(parts, fields[r.Intn(len(fields))])
		}
		line := `{` + actions[r.Intn(len(actions))] + `:{` + strings.Join(parts, ",") + `}}`
		fastItem, fastMeta := &bulkItem{}, &bulkMeta{}
		if !fastActionLine(&p, []byte(line), fastItem, fastMeta) {
			continue
		}
		taken++
		slowItem, slowMeta := &bulkItem{}, &bulkMeta{}
		if err := actionLine([]byte(line), 1, slowItem, slowMeta); err != nil {
			t.Fatalf("%s: fast path took a line the slow path refuses: %v", line, err)
		}
		fillMeta(fastItem, fastMeta)
		fillMeta(slowItem, slowMeta)
		if !reflect.DeepEqual(fastItem, slowItem) {
			t.Fatalf("%s:\nfast %+v\nslow %+v", line, fastItem, slowItem)
		}
	}
	if taken < 5000 {
		t.Fatalf("the fast path took only %d of 20000 lines", taken)
	}
}
