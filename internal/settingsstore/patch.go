package settingsstore

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/aislehq/aisle/internal/indexsettings"
)

// fullObjectPatch renders v as a JSON merge patch at path that replaces the object
// there entirely: merge patches replace lists but merge objects, so every key of the
// object is sent, absent ones as null (which also lets CRD defaults apply again). A
// dotted key names a key of an object inside, nulled when that object is sent.
func fullObjectPatch(v any, keys []string, path ...string) ([]byte, error) {
	obj, err := fullObject(v, keys)
	if err != nil {
		return nil, err
	}
	return patchAt(obj, path...)
}

// fullObject is v as an object with every key of keys, absent ones null.
func fullObject(v any, keys []string) (map[string]any, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	obj := map[string]any{}
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, err
	}
	for _, k := range keys {
		nullAbsent(obj, strings.Split(k, "."))
	}
	return obj, nil
}

// patchAt puts obj at path.
func patchAt(obj map[string]any, path ...string) ([]byte, error) {
	var patch any = obj
	for i := len(path) - 1; i >= 0; i-- {
		patch = map[string]any{path[i]: patch}
	}
	return json.Marshal(patch)
}

// nullAbsent sets the key at path to null where it is absent and its parent is sent.
func nullAbsent(obj map[string]any, path []string) {
	for _, k := range path[:len(path)-1] {
		inner, ok := obj[k].(map[string]any)
		if !ok {
			return
		}
		obj = inner
	}
	if _, ok := obj[path[len(path)-1]]; !ok {
		obj[path[len(path)-1]] = nil
	}
}

// refusal merges the local problems with the Kubernetes API's verdict on a patch into
// one sentinel error naming each bad field; a missing index is ErrIndexNotFound, and
// other errors pass through.
func refusal(sentinel error, local []indexsettings.FieldError, err error) error {
	msgs := make([]string, 0, len(local))
	for _, p := range local {
		msgs = append(msgs, p.String())
	}
	var status apierrors.APIStatus
	if errors.As(err, &status) && apierrors.IsInvalid(err) {
		msgs = append(msgs, kubeCauses(status, "spec.settings.", "spec.publicAccess.policy.")...)
		err = nil
	}
	if err != nil {
		if apierrors.IsNotFound(err) {
			return ErrIndexNotFound
		}
		return err
	}
	if len(msgs) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s", sentinel, strings.Join(msgs, "; "))
}

// kubeCauses rewords the field causes of a Kubernetes 422 in the API's field names.
func kubeCauses(status apierrors.APIStatus, prefixes ...string) []string {
	st := status.Status()
	if st.Details == nil || len(st.Details.Causes) == 0 {
		return []string{st.Message}
	}
	out := make([]string, 0, len(st.Details.Causes))
	for _, cause := range st.Details.Causes {
		field := cause.Field
		msg := cause.Message
		for _, p := range prefixes {
			msg = strings.ReplaceAll(msg, p, "")
			field = strings.TrimPrefix(field, p)
		}
		msg = strings.TrimPrefix(msg, field+" in body ")
		out = append(out, field+": "+msg)
	}
	return out
}

// jsonPaths are the JSON names of t's fields, and of the fields of the structs they
// point to, dotted: the keys a full-object patch of a t replaces. A slice's elements are
// replaced whole and are not walked.
func jsonPaths(t reflect.Type, prefix string) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		out = append(out, prefix+name)
		if ft := f.Type; ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct {
			out = append(out, jsonPaths(ft.Elem(), prefix+name+".")...)
		}
	}
	return out
}
