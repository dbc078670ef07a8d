package yamlrest

import (
	"fmt"
	"os"
	"testing"
)

func TestZZDump(t *testing.T) {
	files, err := LoadDir("/work/shared/es-conformance/test")
	if err != nil {
		t.Fatal(err)
	}
	v, _ := ParseVersion(os.Getenv("V"))
	env := Env{Version: v}
	r := &Runner{Env: env}
	for _, f := range files {
		for _, s := range f.Tests {
			why, err := r.skipReason(f, s)
			fmt.Printf("%s\t%s\t%s %v\n", f.Name, s.Name, why, err)
		}
	}
}
